// bifscope-cli run on equilibrium and continuation studies: the CSV, exit statuses, messages.
#include "cli_process.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using bif::test::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string studies = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/equilibria";

std::vector<std::string> rows_labelled(const std::string& csv, const std::string& label) {
    std::vector<std::string> out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#' && line.find("," + label + ",") != std::string::npos)
            out.push_back(line);
    return out;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const fs::path path =
        fs::temp_directory_path() / ("bifscope-eq-" + std::to_string(getpid()) + "-" + name);
    std::ofstream(path) << text;
    return path.string();
}

} // namespace

TEST_CASE("run: a continuation study writes its branch with the Hopf point labelled", "[cli][continuation]") {
    const auto r = run_cli({"run", studies + "/brusselator_continuation.json", "--quiet"});
    REQUIRE(r.exit_status == 0);
    CHECK(r.out.find(
              "branch,b,x,y,stable,unstable,type,label,first_lyapunov,arclength,re_1,im_1,re_2,im_2\n") !=
          std::string::npos);
    const auto hopf = rows_labelled(r.out, "H");
    REQUIRE(hopf.size() == 1);
    // b = 1 + a^2 with a = 1.5
    CHECK(std::abs(std::stod(hopf[0].substr(2)) - 3.25) < 1e-8);
    CHECK(rows_labelled(r.out, "EP").size() == 1);
}

TEST_CASE("run: an equilibria study lists Lorenz's three equilibria", "[cli][continuation]") {
    const std::string out = write_temp("lorenz.csv", "");
    const auto r = run_cli({"run", studies + "/lorenz_equilibria.json", "--out", out});
    REQUIRE(r.exit_status == 0);
    std::ifstream in(out);
    const std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(csv.find("equilibrium,x,y,z,type,stable,unstable,complex_pairs") != std::string::npos);
    CHECK(rows_labelled(csv, "saddle-focus").size() == 2);
    CHECK(rows_labelled(csv, "saddle").size() == 1);
    CHECK(r.err.find("3 equilibria") != std::string::npos);
    fs::remove(out);
}

TEST_CASE("run: a bad equilibrium study names the path at fault and exits 1", "[cli][continuation]") {
    const std::string study = write_temp("bad.json", R"({"bifscope_study": 1,
        "model": {"text": "x'=r+x^2\npar r=-1\ndone\n"},
        "analysis": {"kind": "continuation", "parameter": "q", "from": -1, "to": 1, "start": {"x": -1}}})");
    const auto r = run_cli({"run", study});
    CHECK(r.exit_status == 1);
    CHECK(r.err.find("error: analysis.parameter: the model has no parameter 'q'") != std::string::npos);
    const auto forced = run_cli({"run", studies + "/brusselator_continuation.json", "--backend", "cuda"});
    CHECK(forced.exit_status == 2);
    CHECK(forced.err.find("runs on the CPU") != std::string::npos);
    const std::string timed = write_temp("timed.json", R"({"bifscope_study": 1,
        "model": {"text": "x'=-x+sin(t)\ndone\n"}, "analysis": {"kind": "equilibria", "box": {"x": [-1, 1]}}})");
    const auto t = run_cli({"run", timed});
    CHECK(t.exit_status == 1);
    CHECK(t.err.find("reads t") != std::string::npos);
    fs::remove(study);
    fs::remove(timed);
}

TEST_CASE("run: an orbit study writes the logistic map's branch with PD at r = 3",
          "[cli][continuation][orbit]") {
    const auto r = run_cli({"run", studies + "/logistic_orbit_continuation.json", "--quiet"});
    INFO(r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(r.out.find("\nr,x,period,stable,unstable,label,arclength,mu_abs_1,mu_re_1,mu_im_1\n") !=
          std::string::npos);
    const auto pd = rows_labelled(r.out, "PD");
    REQUIRE(pd.size() == 1);
    CHECK(std::abs(std::stod(pd[0].substr(0, pd[0].find(','))) - 3.0) < 1e-8);
    // mu_re_1 (the ninth column) is -1: the multiplier 2 - r of the fixed point 1 - 1/r.
    std::istringstream cells(pd[0]);
    std::string cell;
    for (int i = 0; i < 9; ++i)
        std::getline(cells, cell, ',');
    CHECK(std::stod(cell) == Approx(-1.0).margin(1e-8));
}

TEST_CASE("run: the forced Duffing period-1 branch has its folds and doublings labelled",
          "[cli][continuation][orbit]") {
    const std::string out = write_temp("duffing-orbit.csv", "");
    fs::remove(out);
    const auto r = run_cli({"run", studies + "/duffing_orbit_continuation.json", "--out", out});
    INFO(r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(r.err.find("stroboscopic orbit, b in [0, 2]") != std::string::npos);
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    fs::remove(out);
    CHECK(
        text.str().find("\nb,y1,y2,period,stable,unstable,label,arclength,mu_abs_1,mu_re_1,mu_im_1,mu_abs_2,"
                        "mu_re_2,mu_im_2\n") != std::string::npos);
    // The resonance curve's folds and the doublings: each with its critical multiplier +1 or -1.
    const auto folds = rows_labelled(text.str(), "LP");
    const auto doublings = rows_labelled(text.str(), "PD");
    CHECK_FALSE(folds.empty());
    CHECK_FALSE(doublings.empty());
    auto mu_re_1 = [](const std::string& row) {
        std::istringstream cells(row);
        std::string cell;
        for (int i = 0; i < 10; ++i)
            std::getline(cells, cell, ',');
        return std::stod(cell);
    };
    for (const auto& row : folds)
        CHECK(mu_re_1(row) == Approx(1.0).margin(1e-6));
    for (const auto& row : doublings)
        CHECK(mu_re_1(row) == Approx(-1.0).margin(1e-6));
}

TEST_CASE("run: a bad orbit study names the JSON path", "[cli][continuation][orbit]") {
    const std::string path = write_temp("bad-orbit.json", R"({"bifscope_study": 1,
  "model": {"text": "par r=3.2\nx(t+1)=r*x*(1-x)\ndone\n"},
  "analysis": {"kind": "orbit_continuation", "parameter": "r", "from": 2.5, "to": 3.9,
               "start": {"x": 0.5}, "orbit": {"kind": "stroboscopic", "forcing_period": "1"}}})");
    const auto r = run_cli({"run", path, "--check"});
    fs::remove(path);
    CHECK(r.exit_status == 1);
    CHECK(r.err.find("analysis.orbit.kind") != std::string::npos);
}

TEST_CASE("run: an orbit_curves study writes the Henon map's fold and flip curves with R1 and R2",
          "[cli][continuation][orbit][curve]") {
    const auto r = run_cli({"run", studies + "/henon_orbit_curves.json"});
    INFO(r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(r.err.find("2 curves") != std::string::npos);
    CHECK(r.out.find("\ncurve,kind,a,b,x,y,period,stable,unstable,label,arclength,") != std::string::npos);
    // R1 on the fold curve at (a, b) = (-1, -1), R2 on the flip curve at (3, -1)
    for (const auto& [label, a] : {std::pair<std::string, double>{"R1", -1.0}, {"R2", 3.0}}) {
        INFO(label);
        const auto rows = rows_labelled(r.out, label);
        REQUIRE(rows.size() == 1);
        std::istringstream cells(rows[0]);
        std::string curve, kind, alpha, beta;
        std::getline(cells, curve, ',');
        std::getline(cells, kind, ',');
        std::getline(cells, alpha, ',');
        std::getline(cells, beta, ',');
        CHECK(kind == (label == "R1" ? "LP" : "PD"));
        CHECK(std::stod(alpha) == Approx(a).epsilon(1e-8));
        CHECK(std::stod(beta) == Approx(-1.0).epsilon(1e-8));
    }
}
