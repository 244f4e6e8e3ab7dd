// The readers of users' files: only regular files under the size limit are read, through links too;
// anything else is a one-line failure naming the path, returned at once.
#include "engine/model/input_file.h"
#include "engine/model/parse.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace bif;
namespace fs = std::filesystem;

namespace {

struct Folder {
    fs::path path = fs::temp_directory_path() / ("bifscope-input-test-" + std::to_string(getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return (path / name).string();
    }
};

} // namespace

TEST_CASE("read_input_file reads regular files whole, through symbolic links", "[input]") {
    Folder dir;
    std::string text;
    for (int i = 0; i < 20000; ++i) // larger than one read
        text += std::to_string(i * 7919 % 1000) + (i % 13 ? ' ' : '\n');
    const std::string path = dir.write("a.txt", text);
    fs::create_symlink(path, dir.path / "link.txt");
    for (const std::string& p : {path, (dir.path / "link.txt").string()}) {
        const auto file = model::read_input_file(p);
        REQUIRE(file.text);
        CHECK(*file.text == text);
    }
    const auto empty = model::read_input_file(dir.write("empty.txt", ""));
    REQUIRE(empty.text);
    CHECK(empty.text->empty());
}

TEST_CASE("read_input_file refuses what is not a regular file or is too large", "[input]") {
    Folder dir;
    const std::string fifo = (dir.path / "pipe").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(model::read_input_file("/dev/zero").failure == "it is a character device, not a regular file");
    CHECK(model::read_input_file(fifo).failure == "it is a pipe, not a regular file");
    CHECK(model::read_input_file(dir.path.string()).failure == "it is a directory, not a regular file");
    CHECK_FALSE(model::read_input_file((dir.path / "missing").string()).failure.empty());

    const std::string path = dir.write("ten.txt", "0123456789");
    CHECK(model::read_input_file(path, 10).text == "0123456789");
    const auto over = model::read_input_file(path, 9);
    CHECK_FALSE(over.text);
    CHECK(over.failure.find("larger than") != std::string::npos);
}

TEST_CASE("the model and study readers report a device with its path", "[input]") {
    const model::ParseResult m = model::load_model_file("/dev/zero");
    CHECK_FALSE(m.model);
    REQUIRE(m.diagnostics.size() == 1);
    CHECK(m.diagnostics[0].format().find("/dev/zero") != std::string::npos);
    CHECK(m.diagnostics[0].message ==
          "cannot read the model file: it is a character device, not a regular file");

    const study::StudyReadResult s = study::read_study_file("/dev/zero");
    CHECK_FALSE(s.study);
    REQUIRE(s.problems.size() == 1);
    CHECK(s.problems[0].format().find("cannot read study file '/dev/zero': it is a character device") !=
          std::string::npos);
}

TEST_CASE("the study reader reads a study through its file", "[input]") {
    Folder dir;
    const std::string path = dir.write("s.json", R"({"bifscope_study": 1, "model": {"text": "x'=-x\ndone\n"},
        "sweep": [{"parameter": "a", "from": 0, "to": 1, "count": 7}], "analysis": {"kind": "bifurcation"}})");
    const study::StudyReadResult s = study::read_study_file(path);
    REQUIRE(s.study);
    REQUIRE(s.study->sweep.size() == 1);
    CHECK(s.study->sweep[0].count == 7);
}

TEST_CASE("the study reader reports a number beyond double range as a problem, not an exception", "[input]") {
    // Found by fuzz_study_reader: nlohmann throws out_of_range, not parse_error, for it.
    const study::StudyReadResult s = study::read_study_json(R"({"bifscope_study": 1, "t0": 1e999})");
    CHECK_FALSE(s.study);
    REQUIRE(s.problems.size() == 1);
    CHECK(s.problems[0].format().find("not valid JSON: number overflow") != std::string::npos);
}

TEST_CASE("a study without a model source writes out as one that reads back", "[input]") {
    // Found by fuzz_study_reader: the empty model object was written as null, which reads as an error.
    const study::StudyReadResult s =
        study::read_study_json(R"({"bifscope_study": 1, "model": {}, "analysis": {"kind": "bifurcation"}})");
    REQUIRE(s.study);
    CHECK_FALSE(study::has_errors(s.problems));
    const study::StudyReadResult again = study::read_study_json(study::write_study_json(*s.study));
    CHECK_FALSE(study::has_errors(again.problems));
}
