// `bifscope-cli run MODEL.ode` against XPPAUT 6.11's own batch mode (`xppaut MODEL.ode -silent`), run
// side by side on the same file in a temporary folder. Skips with a message where xppaut is missing.
//
// Tolerances: XPPAUT stores floats and prints 8 digits, so even identical double-precision RK4 steps
// agree only to ~6e-8 relative; 2e-7 is allowed. Chaotic models are compared up to a horizon where
// the round-off difference between two RK4 codes (~1e-16), amplified by e^(lambda t), is still far
// below that. Elsewhere the methods differ on purpose, and the bound says by how much, as a fraction
// of the column's largest magnitude: XPPAUT locates events and stroboscopic section points by linear
// interpolation inside a step (an O(dt^2) error per event), and its adaptive methods take other
// steps than Bifscope's with the same tolerance.
#include "cli_process.h"
#include "xppaut_process.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

using bif::test::have_xppaut;
using bif::test::read_rows;
using bif::test::read_text;
using bif::test::run_cli;
using bif::test::run_xppaut;
using bif::test::ScratchFolder;
namespace fs = std::filesystem;

namespace {

using Table = bif::test::Rows;

struct BifscopeRun {
    bif::test::CliOutcome outcome;
    Table rows;
};

BifscopeRun run_bifscope(const ScratchFolder& folder, const std::string& name) {
    const fs::path out = folder.path / (name + ".bif.dat");
    BifscopeRun r;
    r.outcome = run_cli({"run", (folder.path / (name + ".ode")).string(), "--out", out.string()});
    r.rows = read_rows(out);
    return r;
}

struct Agreement {
    double t_max = INFINITY; // rows after this time are not compared (chaos)
    double rtol = 2e-7;      // relative to the value
    double stol = 1e-9;      // relative to the column's largest magnitude
};

// Same row count, same times; values within the agreement up to its horizon.
void require_agreement(const Table& bif, const Table& xpp, const Agreement& a) {
    REQUIRE(!xpp.empty());
    REQUIRE(bif.size() == xpp.size());
    const std::size_t width = xpp[0].size();
    std::vector<double> scale(width, 0.0);
    for (const auto& row : xpp)
        for (std::size_t c = 0; c < width; ++c)
            scale[c] = std::max(scale[c], std::fabs(row[c]));
    std::size_t compared = 0;
    for (std::size_t i = 0; i < xpp.size(); ++i) {
        REQUIRE(bif[i].size() == width);
        INFO("row " << i << " t=" << xpp[i][0]);
        REQUIRE(bif[i][0] == Approx(xpp[i][0]).epsilon(2e-7).margin(1e-7));
        if (xpp[i][0] > a.t_max) continue;
        ++compared;
        for (std::size_t c = 1; c < width; ++c) {
            INFO("column " << c << ": bifscope " << bif[i][c] << ", xppaut " << xpp[i][c]);
            REQUIRE(std::fabs(bif[i][c] - xpp[i][c]) <= a.rtol * std::fabs(xpp[i][c]) + a.stol * scale[c]);
        }
    }
    CHECK(compared >= xpp.size() / 20);
}

} // namespace

TEST_CASE("every bundled model's batch run matches XPPAUT's output.dat", "[cli][xppaut]") {
    if (!have_xppaut()) {
        WARN("xppaut is not installed: the comparison with XPPAUT is skipped");
        return;
    }
    struct Case {
        const char* model;
        Agreement agreement;
    };
    const Case cases[] = {
        {"brusselator_forced", {}},
        {"hodgkin_huxley", {}},
        {"vanderpol", {}},
        {"lorenz", {15.0}},           // lambda ~ 0.9: e^13.5 * 1e-16 ~ 1e-10
        {"chua", {15.0}},             // double scroll, lambda ~ 0.3 (in these units, measured < 1)
        {"rossler", {100.0}},         // lambda ~ 0.07
        {"forced_vanderpol", {50.0}}, // sensitive on its chaotic band
        // Stroboscopic section every 2*pi, XPPAUT interpolating linearly between steps of 0.01:
        // dt^2/8 * |y''| ~ 3e-5; chaotic after t ~ 150.
        {"duffing", {150.0, 0.0, 2e-4}},
        // Impacts located by linear interpolation in XPPAUT: ~2e-7 of the scale per impact, growing
        // to ~1e-5 over the 50 time units.
        {"relief_valve", {INFINITY, 0.0, 5e-5}},
        // qualrk (Cash-Karp, tol 1e-10) and stiff (tol 1e-8): same tolerances, other step controllers.
        {"keller_miksis", {INFINITY, 0.0, 5e-6}},
        {"pleiades", {INFINITY, 0.0, 5e-6}},
        {"robertson", {INFINITY, 0.0, 5e-6}},
        // Maps, iterate for iterate; chaotic ones up to where round-off (1e-16 e^(lambda n)) stays small
        {"logistic", {100.0}},        // r = 3.7, lambda ~ 0.35 per iterate
        {"henon", {30.0}},            // lambda ~ 0.42
        {"standard_map", {40.0}},     // mixed phase space at k ~ 0.97
        {"coupled_logistic", {40.0}}, // r = 3.8, lambda ~ 0.43
    };
    for (const Case& c : cases) {
        SECTION(c.model) {
            ScratchFolder folder(c.model);
            const std::string text =
                read_text(fs::path(BIFSCOPE_MODELS_DIR) / (std::string(c.model) + ".ode"));
            const Table xpp = run_xppaut(folder, c.model, text);
            const BifscopeRun bif = run_bifscope(folder, c.model);
            INFO(bif.outcome.err);
            REQUIRE(bif.outcome.exit_status == 0);
            require_agreement(bif.rows, xpp, c.agreement);
        }
    }
}

TEST_CASE("the @ options shape the rows as in XPPAUT", "[cli][xppaut]") {
    if (!have_xppaut()) {
        WARN("xppaut is not installed: the comparison with XPPAUT is skipped");
        return;
    }
    struct Case {
        const char* name;
        const char* text;
        const char* output;
    };
    const Case cases[] = {
        // t0 and trans are absolute times; total not a multiple of njmp*dt
        {"timing",
         "x'=1\ny'=-y\ny(0)=1\npar a=2\naux q=a*t\n@ total=1.05,dt=0.1,njmp=3,t0=2,trans=2.3\ndone\n",
         "output.dat"},
        // bound applies to the aux columns too; the row beyond it is not written
        {"bound_aux", "x'=1\naux w=10*x\n@ total=2,dt=0.1,bound=14.5\ndone\n", "output.dat"},
        {"bound_state", "x'=x\nx(0)=1\n@ total=10,dt=0.1,bound=100\ndone\n", "output.dat"},
        // maxstor counts the first row
        {"maxstor", "x'=1\n@ total=2,dt=0.1,maxstor=5\ndone\n", "output.dat"},
        // adaptive methods write every dt whatever njmp says; @ output names the file
        {"adaptive",
         "x'=1\ny'=y\ny(0)=1\n@ total=3,dt=0.1,meth=qualrk,njmp=4,tol=1e-9,atol=1e-9,output=y.dat\ndone\n",
         "y.dat"},
        // maps: x(t+1) and meth=discrete forms, dt ignored, t0 and trans in iterates, njmp, derived
        // parameters, a parameter without a value, user functions, t in formulas, aux columns
        {"map_forms",
         "par r=3.2, q\n!s=r/2\nf(u)=2*s*u*(1-u)+q*t\nx(t+1)=f(x)\ny'=0.5*y+x\naux w=t+x\n"
         "init x=0.2, y=1\n@ total=23,dt=0.3,njmp=2,t0=3,trans=6\ndone\n",
         "output.dat"},
        {"map_discrete", "par a=0.9\nx'=a*x+1\nx(0)=0.5\n@ meth=discrete,total=12,dt=5\ndone\n",
         "output.dat"},
        {"map_bound", "x(t+1)=2*x\nx(0)=1\n@ total=20,bound=300\ndone\n", "output.dat"},
    };
    for (const Case& c : cases) {
        SECTION(c.name) {
            ScratchFolder folder(c.name);
            const Table xpp = run_xppaut(folder, c.name, c.text, c.output);
            const BifscopeRun bif = run_bifscope(folder, c.name);
            INFO(bif.outcome.err);
            REQUIRE(bif.outcome.exit_status == 0);
            require_agreement(bif.rows, xpp, {INFINITY, 2e-7, 1e-8});
        }
    }
}

TEST_CASE("a run that fails numerically says so and keeps the rows before it", "[cli]") {
    ScratchFolder folder("blowup");
    // x' = x^2 from x(0)=1 is 1/(1-t): infinite at t = 1; a huge bound lets it get there.
    std::ofstream(folder.path / "blowup.ode") << "x'=x^2\nx(0)=1\n@ total=2,dt=0.01,bound=1e308\ndone\n";
    const BifscopeRun r = run_bifscope(folder, "blowup");
    INFO(r.outcome.err);
    CHECK(r.outcome.exit_status == 4);
    CHECK(r.outcome.err.find("failed") != std::string::npos);
    REQUIRE(r.rows.size() > 50);
    REQUIRE(r.rows.back()[0] < 1.5); // RK4 passes the pole with finite values for a few steps
    // The rows written are the solution 1/(1-t), RK4 with h=0.01 being accurate to ~1e-6 away from
    // the pole.
    for (const auto& row : r.rows)
        if (row[0] < 0.9) CHECK(row[1] == Approx(1.0 / (1.0 - row[0])).epsilon(1e-5));
}

TEST_CASE("a batch run refuses to overwrite its model", "[cli]") {
    ScratchFolder folder("self");
    const std::string model = (folder.path / "m.ode").string();
    std::ofstream(model) << "x'=-x\n@ total=1\ndone\n";
    const auto r = run_cli({"run", model, "--out", model});
    CHECK(r.exit_status == 2);
    CHECK(read_text(model) == "x'=-x\n@ total=1\ndone\n");
}

namespace {

// Runs xppaut and bifscope-cli on `text` in two folders; returns the files each wrote (name ->
// table), the model itself left out.
struct BothRuns {
    std::map<std::string, Table> xpp, bif;
    bif::test::CliOutcome outcome;
};

std::map<std::string, Table> tables_in(const fs::path& folder) {
    std::map<std::string, Table> tables;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().extension() != ".ode")
            tables[entry.path().filename().string()] = read_rows(entry.path());
    return tables;
}

BothRuns run_both(const std::string& name, const std::string& text) {
    ScratchFolder xpp_folder(name + "-xpp"), bif_folder(name + "-bif");
    std::ofstream(xpp_folder.path / "m.ode") << text;
    std::ofstream(bif_folder.path / "m.ode") << text;
    const std::string command =
        "cd '" + xpp_folder.path.string() + "' && xppaut m.ode -silent > /dev/null 2>&1 < /dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
    BothRuns r;
    const std::string cli =
        "cd '" + bif_folder.path.string() + "' && " + BIFSCOPE_CLI + " run m.ode 2> bif.log";
    r.outcome.exit_status = WEXITSTATUS(std::system(cli.c_str()));
    r.outcome.err = read_text(bif_folder.path / "bif.log");
    fs::remove(bif_folder.path / "bif.log");
    r.xpp = tables_in(xpp_folder.path);
    r.bif = tables_in(bif_folder.path);
    return r;
}

void require_same_files(const BothRuns& r) {
    INFO(r.outcome.err);
    REQUIRE(r.outcome.exit_status == 0);
    std::vector<std::string> xpp_names, bif_names;
    for (const auto& [name, table] : r.xpp)
        xpp_names.push_back(name);
    for (const auto& [name, table] : r.bif)
        bif_names.push_back(name);
    REQUIRE(bif_names == xpp_names);
    for (const auto& [name, table] : r.xpp) {
        INFO(name);
        require_agreement(r.bif.at(name), table, {INFINITY, 2e-7, 1e-8});
    }
}

} // namespace

TEST_CASE("set blocks give a file per set, the sets applied on top of each other", "[cli][xppaut]") {
    if (!have_xppaut()) {
        WARN("xppaut is not installed: the comparison with XPPAUT is skipped");
        return;
    }
    // The second set keeps the first set's total and x(0) (XPPAUT applies them in turn); a value is
    // read like atof (a=2*3 is 2); an unknown name is ignored; no output.dat.
    const BothRuns r = run_both("sets", "par a=1\nx'=-a*x\ny'=a\nx(0)=1\n"
                                        "set fast {a=2*3,x=2,total=2,zz=1}\nset Slow {a=0.5}\n"
                                        "@ total=1,dt=0.1\ndone\n");
    require_same_files(r);
    CHECK(r.bif.size() == 2);
    CHECK(r.bif.at("Slow.dat").size() == 21);
    CHECK(r.outcome.err.find("zz is no parameter") != std::string::npos);
}

TEST_CASE("range integration runs the model once per value, as XPPAUT appends or splits the runs",
          "[cli][xppaut]") {
    if (!have_xppaut()) {
        WARN("xppaut is not installed: the comparison with XPPAUT is skipped");
        return;
    }
    SECTION("a map over a parameter, a file per run (rangereset's default)") {
        const BothRuns r = run_both("range-split", "x(t+1)=r*x*(1-x)\npar r=2.8\ninit x=.1\n"
                                                   "@ total=50, range=1, rangeover=r, rangestep=20, "
                                                   "rangelow=2.8, rangehigh=3.5\ndone\n");
        require_same_files(r);
        CHECK(r.bif.size() == 21);
        CHECK(r.bif.at("output.dat.20").size() == 51);
    }
    SECTION("a flow over a parameter, runs appended, each from where the last ended") {
        const BothRuns r = run_both("range-append", "par a=1\n!b=2*a\nx'=b\ny'=-y\ninit x=0,y=1\naux w=a\n"
                                                    "@ total=1,dt=0.5, range=1, rangeover=a, rangestep=2, "
                                                    "rangelow=0, rangehigh=1, rangereset=no, rangeoldic=no\n"
                                                    "done\n");
        require_same_files(r);
        CHECK(r.bif.at("output.dat").size() == 9);
    }
    SECTION("over an initial value, from the initial values each time") {
        const BothRuns r = run_both("range-ic", "x'=-x+y\ny'=-y\ninit x=0,y=1\n"
                                                "@ total=2,dt=0.1, range=1, rangeover=Y, rangestep=4, "
                                                "rangelow=-1, rangehigh=1, rangereset=no\ndone\n");
        require_same_files(r);
        CHECK(r.bif.at("output.dat").size() == 5 * 21);
    }
}

TEST_CASE("events write XPPAUT's out_put rows and stop at arret", "[cli][xppaut]") {
    if (!have_xppaut()) {
        WARN("xppaut is not installed: the comparison with XPPAUT is skipped");
        return;
    }
    // Linear motion, so that XPPAUT's linear interpolation inside a step is exact too.
    SECTION("a row at each firing, before the resets written after out_put") {
        const BothRuns r =
            run_both("output-before", "x'=1\ny'=2\ninit x=0,y=1\nglobal 1 x-0.33 {out_put=1;x=0}\n"
                                      "@ total=1,dt=0.1\ndone\n");
        require_same_files(r);
        CHECK(r.bif.at("output.dat").size() == 14); // 11 steps and 3 firings
    }
    SECTION("after the state resets written before out_put, and whatever TRANS says") {
        const BothRuns r =
            run_both("output-after", "x'=1\ny'=2\ninit x=0,y=1\nglobal 1 x-0.33 {x=0;out_put=1}\n"
                                     "@ total=1,dt=0.1,trans=0.5\ndone\n");
        require_same_files(r);
    }
    SECTION("arret: the rows end before the step of the firing") {
        const BothRuns r =
            run_both("arret", "x'=1\ninit x=0\nglobal 1 x-0.33 {arret=1}\n@ total=1,dt=0.1\ndone\n");
        require_same_files(r);
        CHECK(r.bif.at("output.dat").size() == 4);
    }
    SECTION("a kneading run: the one row where out_put and arret fire, the rest in the transient") {
        const BothRuns r =
            run_both("kneading", "x'=1\ny'=-1\ninit x=0,y=2\nglobal 1 x-0.33 {out_put=1;arret=1}\n"
                                 "@ total=1,dt=0.1,trans=1\ndone\n");
        require_same_files(r);
        CHECK(r.bif.at("output.dat").size() == 1);
    }
}
