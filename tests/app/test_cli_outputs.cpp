// `--out` by what the path names, as a user's shell would use it: a FIFO read by another process, a
// character device such as /dev/null, a full disk (/dev/full), standard output ("-"). A device or a
// pipe is written in place and stays what it is; a failed write is exit 3 with its reason.
#include "cli_process.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

using bif::test::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string models = BIFSCOPE_MODELS_DIR;

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("bifscope-cli-outputs-" + std::to_string(getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

mode_t mode_of(const std::string& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mode;
}

// x' = -(x - a), 300 values of a, one stroboscopic section: a few hundred rows.
const char* relaxation_study = R"({"bifscope_study": 1,
    "model": {"text": "x'=-(x-a)\npar a=0\ninit x=0\ndone\n"},
    "sweep": [{"parameter": "a", "from": 1, "to": 4, "count": 300}],
    "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                 "recorded_sections": 1, "record": ["x"]},
    "solver": {"method": "dopri5", "rtol": 1e-9, "atol": 1e-9}})";

// The CSV the run writes to a regular file: what every other target must receive too.
std::string reference_csv(const TempDir& dir, const std::string& study) {
    const std::string out = (dir.path / "reference.csv").string();
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", out});
    REQUIRE(r.exit_status == 0);
    return read(out);
}

// Drops the run's own figures (times, backend notes) so two runs' CSVs compare by their rows.
std::string rows_of(const std::string& csv) {
    std::istringstream in(csv);
    std::string rows;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') rows += line + "\n";
    return rows;
}

} // namespace

TEST_CASE("run --out FIFO: the reading process gets every row and the FIFO stays a FIFO", "[cli][output]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const std::string expected = rows_of(reference_csv(dir, study));
    const fs::path fifo = dir.path / "rows.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read(fifo); });
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", fifo.string()});
    // a run that never opened the FIFO would leave the reader waiting: a writer's open ends that
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
    reader.join();
    INFO(r.err);
    CHECK(r.exit_status == 0);
    CHECK(rows_of(received) == expected);
    CHECK(std::count(expected.begin(), expected.end(), '\n') == 301);
    CHECK(S_ISFIFO(mode_of(fifo.string())));
    CHECK_FALSE(fs::exists(fifo.string() + ".partial"));
}

TEST_CASE("run --out to a character device writes in place and leaves the device a device", "[cli][output]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    // A node of its own for /dev/null's device (as root), so that a regression could not replace the
    // system's /dev/null; where nodes cannot be made, /dev/null itself, as a user would time a run.
    std::string device = (dir.path / "null").string();
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) device = "/dev/null";
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", device});
    INFO(r.err);
    CHECK(r.exit_status == 0);
    CHECK(S_ISCHR(mode_of(device)));
    CHECK_FALSE(fs::exists(device + ".partial"));
}

TEST_CASE("run --out /dev/full fails with exit 3 and the reason", "[cli][output]") {
    if (!fs::exists("/dev/full")) return;
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", "/dev/full"});
    CHECK(r.exit_status == 3);
    CHECK(r.err.find(std::strerror(ENOSPC)) != std::string::npos);
    CHECK(S_ISCHR(mode_of("/dev/full")));
    // and XPPAUT's batch mode likewise
    const auto b = run_cli({"run", models + "/lorenz.ode", "--out", "/dev/full"});
    CHECK(b.exit_status == 3);
    CHECK(b.err.find(std::strerror(ENOSPC)) != std::string::npos);
}

TEST_CASE("run --out - streams the CSV to standard output", "[cli][output]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const std::string expected = rows_of(reference_csv(dir, study));
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", "-"});
    INFO(r.err);
    CHECK(r.exit_status == 0);
    CHECK(r.out.find("# ") == 0);
    CHECK(rows_of(r.out) == expected);
    CHECK_FALSE(fs::exists("-"));
}

TEST_CASE("run: HDF5 to anything but a regular file is refused before the run", "[cli][output]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const fs::path fifo = dir.path / "result.h5";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", fifo.string()}, -1, 30);
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("regular file") != std::string::npos);
    CHECK(S_ISFIFO(mode_of(fifo.string())));
}
