// bifscope-cli as a user runs it: exit statuses, diagnostics' form, CSV output, Ctrl-C.
#include "cli_process.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using bif::test::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string models = BIFSCOPE_MODELS_DIR;

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("bifscope-cli-test-" + std::to_string(getpid()));
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

std::vector<std::string> data_lines(const std::string& csv) {
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') lines.push_back(line);
    return lines;
}

// x' = -(x - a) from x = 0, one stroboscopic section at t = 1: x(1) = a (1 - 1/e).
const char* relaxation_study = R"({"bifscope_study": 1,
    "model": {"text": "x'=-(x-a)\npar a=0\ninit x=0\ndone\n"},
    "sweep": [{"parameter": "a", "from": 1, "to": 4, "count": 4}],
    "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                 "recorded_sections": 1, "record": ["x"]},
    "solver": {"method": "dopri5", "rtol": 1e-12, "atol": 1e-12}})";

} // namespace

TEST_CASE("check: a clean model gives its summary and exit 0", "[cli]") {
    const auto r = run_cli({"check", models + "/lorenz.ode"});
    CHECK(r.exit_status == 0);
    CHECK(r.out.find("3 states, 3 parameters, 0 events") != std::string::npos);
    CHECK(r.out.find("0 errors, 0 warnings") != std::string::npos);
}

TEST_CASE("check: errors as file:line:col with the source line and a caret, exit 1", "[cli]") {
    TempDir dir;
    const std::string path = dir.write("bad.ode", "par a=1\nx'=a*(x+\ny'=x\n");
    const auto r = run_cli({"check", path});
    CHECK(r.exit_status == 1);
    INFO(r.out);
    CHECK(r.out.find(path + ":2:") != std::string::npos);
    CHECK(r.out.find(": error: ") != std::string::npos);
    CHECK(r.out.find("x'=a*(x+\n") != std::string::npos);
    CHECK(r.out.find("^") != std::string::npos);
    CHECK(r.out.find("1 error") != std::string::npos);
}

TEST_CASE("check: a missing file is an error, not a crash", "[cli]") {
    const auto r = run_cli({"check", "/nonexistent/model.ode"});
    CHECK(r.exit_status == 1);
    CHECK(r.out.find("cannot read") != std::string::npos);
}

TEST_CASE("bad command lines exit with 2", "[cli]") {
    CHECK(run_cli({}).exit_status == 2);
    CHECK(run_cli({"frobnicate"}).exit_status == 2);
    CHECK(run_cli({"check"}).exit_status == 2);
    CHECK(run_cli({"codegen", models + "/lorenz.ode", "--type-name", "a b"}).exit_status == 2);
    CHECK(run_cli({"run", "x.json", "--backend", "gpu"}).exit_status == 2);
    CHECK(run_cli({"help"}).exit_status == 0);
}

TEST_CASE("codegen prints the model struct in double or float", "[cli]") {
    const auto d = run_cli({"codegen", models + "/lorenz.ode"});
    CHECK(d.exit_status == 0);
    CHECK(d.out.find("struct BifModel") != std::string::npos);
    CHECK(d.out.find("num_states = 3;") != std::string::npos);
    CHECK(d.out.find("using real = double;") != std::string::npos);
    const auto f = run_cli({"codegen", models + "/lorenz.ode", "--float", "--type-name", "Lorenz"});
    CHECK(f.exit_status == 0);
    CHECK(f.out.find("struct Lorenz") != std::string::npos);
    CHECK(f.out.find("using real = float;") != std::string::npos);
}

TEST_CASE("run writes the CSV: the study as a comment block, a header, one row per point", "[cli]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const std::string out = (dir.path / "relax.csv").string();
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", out, "--threads", "2"});
    INFO(r.err);
    REQUIRE(r.exit_status == 0);
    std::stringstream csv;
    csv << std::ifstream(out).rdbuf();
    CHECK(csv.str().find("# ") == 0);
    CHECK(csv.str().find("\"bifscope_study\": 1") != std::string::npos);
    const auto lines = data_lines(csv.str());
    REQUIRE(lines.size() == 5);
    CHECK(lines[0] == "a,status,point,x");
    for (int i = 0; i < 4; ++i) {
        const double a = 1 + i;
        std::istringstream row(lines[std::size_t(i) + 1]);
        std::string field[4];
        for (auto& f : field)
            std::getline(row, f, ',');
        CHECK(std::stod(field[0]) == Approx(a));
        CHECK(field[1] == "ok");
        CHECK(std::stod(field[3]) == Approx(a * (1 - std::exp(-1.0))).epsilon(1e-9));
    }
}

TEST_CASE("run: --block-systems takes block sizes of millions and refuses what is not a count", "[cli]") {
    TempDir dir;
    const std::string study = dir.write("relax.json", relaxation_study);
    const std::string small = (dir.path / "small.csv").string(), big = (dir.path / "big.csv").string();
    // 2^21 systems per block (the size a GPU run streams with) and 1 per block: the same rows
    const auto a = run_cli({"run", study, "--backend", "cpu", "--block-systems", "2097152", "--out", big});
    INFO(a.err);
    REQUIRE(a.exit_status == 0);
    REQUIRE(run_cli({"run", study, "--backend", "cpu", "--block-systems", "1", "--out", small}).exit_status ==
            0);
    std::stringstream x, y;
    x << std::ifstream(big).rdbuf();
    y << std::ifstream(small).rdbuf();
    CHECK(data_lines(x.str()) == data_lines(y.str()));
    CHECK(data_lines(x.str()).size() == 5);
    for (const char* bad : {"0", "-4", "2e6", "1234567890123"})
        CHECK(
            run_cli({"run", study, "--backend", "cpu", "--block-systems", bad, "--out", small}).exit_status ==
            2);
}

TEST_CASE("run: a study with errors names the JSON path and exits 1", "[cli]") {
    TempDir dir;
    std::string text = relaxation_study;
    text.replace(text.find("\"parameter\": \"a\""), 16, "\"parameter\": \"zz\"");
    const auto r = run_cli({"run", dir.write("bad.json", text), "--backend", "cpu"});
    CHECK(r.exit_status == 1);
    CHECK(r.err.find("sweep[0]") != std::string::npos);
}

TEST_CASE("run: an unwritable output is an I/O failure, exit 3", "[cli]") {
    TempDir dir;
    const auto r = run_cli({"run", dir.write("relax.json", relaxation_study), "--backend", "cpu", "--out",
                            "/nonexistent/dir/out.csv"});
    CHECK(r.exit_status == 3);
}

TEST_CASE("run: Ctrl-C stops the job cleanly with exit 130 and writes nothing", "[cli]") {
    TempDir dir;
    // Long enough that it is still running when interrupted: 20000 Lorenz systems for t = 2000.
    const std::string study = dir.write("long.json", R"({"bifscope_study": 1,
        "model": {"text": "x'=10*(y-x)\ny'=x*(r-z)-y\nz'=x*y-8/3*z\npar r=28\ninit x=1\ndone\n"},
        "sweep": [{"parameter": "r", "from": 20, "to": 30, "count": 20000}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                     "transient_sections": 2000, "recorded_sections": 1, "record": ["x"]},
        "solver": {"method": "rk4", "initial_step": 0.001}})");
    const std::string out = (dir.path / "long.csv").string();
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", out}, 1500);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.err);
    CHECK(r.exit_status == 130);
    CHECK_FALSE(fs::exists(out));
    CHECK(seconds < 60); // the whole run would take many minutes on two cores
}

namespace {

// The relaxation study with its inline model replaced by `model` (a JSON object).
std::string relaxation_study_with_model(const std::string& model) {
    const std::string inline_model = R"({"text": "x'=-(x-a)\npar a=0\ninit x=0\ndone\n"})";
    std::string text = relaxation_study;
    return text.replace(text.find(inline_model), inline_model.size(), model);
}

std::string read_text(const fs::path& path) {
    std::stringstream text;
    text << std::ifstream(path, std::ios::binary).rdbuf();
    return text.str();
}

// Long enough that a run not refused up front would still be going when the test gives up on it.
const char* long_lorenz_study = R"({"bifscope_study": 1,
    "model": {"text": "x'=10*(y-x)\ny'=x*(r-z)-y\nz'=x*y-8/3*z\npar r=28\ninit x=1\ndone\n"},
    "sweep": [{"parameter": "r", "from": 20, "to": 30, "count": 20000}],
    "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                 "transient_sections": 2000, "recorded_sections": 1, "record": ["x"]},
    "solver": {"method": "rk4", "initial_step": 0.001}})";

} // namespace

TEST_CASE("run: --out naming an input of the run, however spelled, is refused and the input kept", "[cli]") {
    TempDir dir;
    const std::string model_text = "x'=-(x-a)\npar a=0\ninit x=0\ndone\n";
    dir.write("relax.ode", model_text);
    const std::string text = relaxation_study_with_model(R"({"path": "relax.ode"})");
    const std::string study = dir.write("relax.json", text);
    fs::create_symlink(dir.path / "relax.json", dir.path / "link.json");
    fs::create_hard_link(dir.path / "relax.json", dir.path / "hard.json");
    fs::create_directory(dir.path / "sub");
    const std::string cwd_spelling = fs::relative(dir.path, fs::current_path()).string() + "/./relax.json";
    for (const std::string& out :
         {study, (dir.path / "sub" / ".." / "relax.json").string(), (dir.path / "link.json").string(),
          (dir.path / "hard.json").string(), cwd_spelling, (dir.path / "relax.ode").string()}) {
        INFO(out);
        const auto r = run_cli({"run", study, "--backend", "cpu", "--out", out}, -1, 30);
        INFO(r.err);
        CHECK(r.exit_status == 2);
        CHECK(r.err.find("refusing") != std::string::npos);
        CHECK(r.err.find(" systems in ") == std::string::npos); // nothing ran
        CHECK(read_text(dir.path / "relax.json") == text);
        CHECK(read_text(dir.path / "relax.ode") == model_text);
    }
    // A different file in the same folder is fine, and the probe leaves nothing behind.
    const auto r = run_cli({"run", study, "--backend", "cpu", "--out", (dir.path / "r.csv").string()});
    INFO(r.err);
    CHECK(r.exit_status == 0);
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir.path))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names ==
          std::vector<std::string>{"hard.json", "link.json", "r.csv", "relax.json", "relax.ode", "sub"});
}

TEST_CASE("run: an output that cannot be created is refused before the work starts", "[cli]") {
    TempDir dir;
    const std::string study = dir.write("long.json", long_lorenz_study);
    for (const std::string& out : {std::string("/nonexistent/dir/r.csv"), dir.path.string()}) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = run_cli({"run", study, "--backend", "cpu", "--out", out}, -1, 30);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        INFO(r.err);
        CHECK(r.exit_status == 3);
        CHECK(r.err.find("cannot write " + out) != std::string::npos);
        CHECK(r.err.find("systems,") == std::string::npos); // no progress line: nothing ran
        CHECK(seconds < 10);
    }
}

TEST_CASE("check and run refuse devices, pipes and oversized files with the path, at once", "[cli]") {
    TempDir dir;
    const std::string fifo = (dir.path / "pipe.ode").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    for (const std::string& path : {std::string("/dev/zero"), fifo}) {
        const auto r = run_cli({"check", path}, -1, 10);
        CHECK(r.exit_status == 1);
        CHECK(r.out.find(path + ": error: cannot read the model file: it is a") != std::string::npos);
        CHECK(r.out.find("not a regular file") != std::string::npos);

        const auto s = run_cli({"run", path, "--check"}, -1, 10);
        CHECK(s.exit_status == 3);
        CHECK(s.err.find("cannot read " + path + ": it is a") != std::string::npos);
    }
    // A study whose model path is a device.
    const std::string text = relaxation_study_with_model(R"({"path": "/dev/zero"})");
    const auto s = run_cli({"run", dir.write("device.json", text), "--check"}, -1, 10);
    CHECK(s.exit_status == 1);
    CHECK(s.err.find("/dev/zero") != std::string::npos);
    CHECK(s.err.find("not a regular file") != std::string::npos);

    // Just over 16 MB of comment lines: a model reader that read it would find no error in it.
    const std::string line = "# " + std::string(97, '-') + "\n";
    std::string big = "x'=-x\ninit x=1\n";
    while (big.size() <= (16u << 20))
        big += line;
    const std::string big_model = dir.write("big.ode", big + "done\n");
    const auto b = run_cli({"check", big_model}, -1, 20);
    CHECK(b.exit_status == 1);
    CHECK(b.out.find(big_model + ": error: cannot read the model file: it is larger than the 16 MB limit") !=
          std::string::npos);
    const std::string big_study =
        dir.write("big.json", std::string(relaxation_study) + std::string(16u << 20, ' '));
    const auto bs = run_cli({"run", big_study, "--check"}, -1, 20);
    CHECK(bs.exit_status == 3);
    CHECK(bs.err.find("cannot read " + big_study + ": it is larger than the 16 MB limit") !=
          std::string::npos);
}

TEST_CASE("run --backend cuda runs on the GPU or fails with exit 4, never on the CPU", "[cli]") {
    TempDir dir;
    const std::string out = (dir.path / "relax.csv").string();
    const auto r =
        run_cli({"run", dir.write("relax.json", relaxation_study), "--backend", "cuda", "--out", out});
    INFO(r.err);
    CHECK(r.err.find("running on the CPU") == std::string::npos);
    if (r.exit_status == 0) {
        CHECK(r.err.find("(cuda, ") != std::string::npos);
    } else {
        CHECK(r.exit_status == 4);
        CHECK(r.err.find("bifscope-cli: the run failed: cuda: ") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1); // the one-line reason only
        CHECK_FALSE(fs::exists(out));
    }
}
