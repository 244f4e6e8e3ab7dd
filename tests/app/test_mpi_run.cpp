// `mpirun -n 3 bifscope-cli run` against the same run in one process: the output files must agree
// byte for byte apart from the timing line, with blocks small enough that many travel between ranks;
// a rank that dies or hangs mid-run must end the run within seconds, never hang it.
// Exits 77 (skipped) where mpirun is missing.
#include "catch_session.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path work = fs::temp_directory_path() / ("bifscope-mpi-test-" + std::to_string(getpid()));

struct Ran {
    int status = -1;
    double seconds = 0;
    std::string err;
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs a shell command with stderr to a file, killed after 60 s (the hang guard).
Ran run(const std::string& command) {
    const fs::path err = work / "stderr.txt";
    const auto start = std::chrono::steady_clock::now();
    const int raw = std::system(("timeout -k 5 60 " + command + " 2>" + err.string()).c_str());
    Ran r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = read_file(err);
    return r;
}

std::string mpirun(int ranks) {
    return "mpirun --allow-run-as-root --oversubscribe -n " + std::to_string(ranks) +
           " " BIFSCOPE_CLI " run ";
}

// The file without its "# seconds:" line, the one that differs between runs.
// The output without what differs between two runs of the same study: the seconds, and whether the
// model was compiled or found in the cache ("code: native (compiled)" / "(cache hit)").
std::string without_timings(const std::string& csv) {
    std::istringstream in(csv);
    std::string kept;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("# seconds:")) continue;
        if (line.starts_with("# backend:")) line = line.substr(0, line.find(" ("));
        kept += line + "\n";
    }
    return kept;
}

fs::path write_study(const std::string& name, const std::string& text) {
    fs::create_directories(work);
    std::ofstream(work / name) << text;
    return work / name;
}

const std::string duffing = std::string(BIFSCOPE_MODELS_DIR) + "/duffing.ode";

// 97 systems, so that the last block is short.
const std::string bifurcation_study = R"({"bifscope_study": 1, "model": {"path": ")" + duffing + R"("},
    "parameters": {"b": 0.3, "delta": 1, "omega": 1},
    "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 97}],
    "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                 "transient_sections": 16, "recorded_sections": 8, "record": ["y1", "y2"]},
    "solver": {"method": "rkck45", "rtol": 1e-8, "atol": 1e-8, "initial_step": 1e-2},
    "precision": "double"})";

const std::string map_study = R"({"bifscope_study": 1, "model": {"path": ")" + duffing + R"("},
    "parameters": {"delta": 1, "omega": 1},
    "sweep": [{"parameter": "k", "from": 0.1, "to": 0.4, "count": 11},
              {"parameter": "b", "from": 0.1, "to": 0.5, "count": 7}],
    "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                 "transient_sections": 16, "recorded_sections": 16, "detect_period": true,
                 "period": {"tolerance": 1e-5, "max_period": 8}, "largest_exponent": true},
    "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8, "initial_step": 1e-2},
    "precision": "double"})";

// `env`: variables for every rank (a hang ends at 120 s, as a failure).
void check_same_as_one_process(const fs::path& study, const std::string& extra, const std::string& env = "") {
    const fs::path one = work / "one.csv", three = work / "three.csv";
    const Ran single = run(BIFSCOPE_CLI " run " + study.string() +
                           " --backend cpu --threads 1 --quiet --out " + one.string());
    REQUIRE(single.status == 0);
    const Ran spread =
        run((env.empty() ? "" : "timeout 120 env " + env + " ") + mpirun(3) + study.string() +
            " --backend cpu --threads 1 --out " + three.string() + " --block-systems 4 " + extra);
    INFO(spread.err);
    REQUIRE(spread.status == 0);
    CHECK(spread.err.find("blocks over 3 MPI ranks") != std::string::npos);
    const std::string expected = read_file(one);
    CHECK(expected.find("status") != std::string::npos);
    CHECK(without_timings(read_file(three)) == without_timings(expected));
}

bool have_mpirun() {
    return std::system("command -v mpirun >/dev/null 2>&1") == 0;
}

} // namespace

TEST_CASE("a bifurcation diagram over 3 ranks equals the one-process run", "[mpi]") {
    check_same_as_one_process(write_study("bifurcation.json", bifurcation_study), "");
}

TEST_CASE("a period map over 3 ranks equals the one-process run", "[mpi]") {
    check_same_as_one_process(write_study("map.json", map_study), "");
}

// A streamed CUDA run takes two blocks at once (the next one's inputs go up while one integrates);
// a rank that asked for its second block before it sent its first waited for ever, on GPUs. Forced
// here on the CPU backend: the ranks must still take one block at a time and end.
TEST_CASE("ranks whose backend streams two blocks at once give the one-process run", "[mpi]") {
    check_same_as_one_process(write_study("bifurcation_two.json", bifurcation_study), "",
                              "BIF_STREAM_BLOCKS_AT_ONCE=2");
}

TEST_CASE("a rank that aborts mid-run ends the run within seconds, named", "[mpi]") {
    const fs::path study = write_study("bifurcation.json", bifurcation_study);
    const fs::path out = work / "aborted.csv";
    const Ran r = run("env BIFSCOPE_MPI_TEST_FAULT=abort:2 " + mpirun(3) + study.string() +
                      " --backend cpu --threads 1 --quiet --block-systems 2 --out " + out.string());
    INFO(r.err);
    CHECK(r.status != 0);
    CHECK(r.status != 124); // not the hang guard
    CHECK(r.seconds < 20);
    CHECK(r.err.find("rank 2") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a rank that hangs mid-run loses its block to the others; the output is complete", "[mpi]") {
    const fs::path study = write_study("bifurcation.json", bifurcation_study);
    const fs::path one = work / "one.csv", out = work / "hung.csv";
    REQUIRE(run(BIFSCOPE_CLI " run " + study.string() + " --backend cpu --threads 1 --quiet --out " +
                one.string())
                .status == 0);
    const Ran r =
        run("env BIFSCOPE_MPI_TEST_FAULT=hang:2 " + mpirun(3) + study.string() +
            " --backend cpu --threads 1 --quiet --block-systems 2 --block-timeout 2 --out " + out.string());
    INFO(r.err);
    CHECK(r.status != 124);
    CHECK(r.seconds < 30);
    CHECK(r.err.find("rank 2 did not answer") != std::string::npos);
    CHECK(without_timings(read_file(out)) == without_timings(read_file(one)));
}

int main(int argc, char** argv) {
    if (!have_mpirun()) return 77;
    // CI runs as root, which mpirun refuses without these.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    const int failed = bif::test::run_catch_session(argc, argv);
    std::error_code ec;
    fs::remove_all(work, ec);
    return failed;
}
