// Equilibrium study files: reading, checks with JSON paths, running, and the CSV they give.
#include "engine/continuation/equilibrium_csv.h"
#include "engine/study/equilibrium_study.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace bif;

namespace {

std::string models() {
    return BIFSCOPE_MODELS_DIR;
}

study::EquilibriumResolveResult resolve(const std::string& json) {
    const study::EquilibriumStudyReadResult read = study::read_equilibrium_study_json(json);
    REQUIRE(read.study);
    study::EquilibriumResolveResult r = study::resolve_equilibrium_study(*read.study, models());
    r.problems.insert(r.problems.begin(), read.problems.begin(), read.problems.end());
    if (study::has_errors(read.problems)) r.resolved = nullptr; // as load_equilibrium_study_file
    return r;
}

std::string problem_text(const study::Problems& problems) {
    std::string text;
    for (const auto& p : problems)
        text += p.format() + "\n";
    return text;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& csv) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');)
            cells.push_back(cell);
        if (!line.empty() && line.back() == ',') cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

const char* lorenz_continuation = R"({"bifscope_study": 1,
  "model": {"path": "lorenz.ode"},
  "parameters": {"rho": 10, "beta": 2.6666666666666665},
  "analysis": {"kind": "continuation", "parameter": "rho", "from": 0.5, "to": 30,
               "box": {"x": [-20, 20], "y": [-20, 20], "z": [-5, 40]}, "starts": 200,
               "step": 0.05, "max_step": 0.5, "max_points": 400}})";

} // namespace

TEST_CASE("an equilibrium study is told apart from an ensemble study", "[continuation][study]") {
    CHECK(study::equilibrium_analysis_of(R"({"analysis": {"kind": "equilibria"}})") ==
          study::EquilibriumAnalysis::Equilibria);
    CHECK(study::equilibrium_analysis_of(R"({"analysis": {"kind": "continuation"}})") ==
          study::EquilibriumAnalysis::Continuation);
    CHECK_FALSE(study::equilibrium_analysis_of(R"({"analysis": {"kind": "bifurcation"}})"));
    CHECK_FALSE(study::equilibrium_analysis_of("not json"));
}

TEST_CASE("a continuation study reads, writes back the same and runs every branch", "[continuation][study]") {
    const auto r = resolve(lorenz_continuation);
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    const std::string written = study::write_equilibrium_study_json(r.resolved->study);
    const auto again = study::read_equilibrium_study_json(written);
    REQUIRE(again.study);
    CHECK(study::write_equilibrium_study_json(*again.study) == written);

    const cont::EquilibriumStudyOutcome outcome = cont::run_equilibrium_study(*r.resolved);
    // At r = 10: the origin and C+-, each continued both ways over [0.5, 30].
    REQUIRE(outcome.equilibria.size() == 3);
    REQUIRE(outcome.branches.size() == 3);
    std::ostringstream csv;
    cont::write_equilibrium_study_csv(csv, *r.resolved, outcome);
    const auto rows = csv_rows(csv.str());
    REQUIRE(rows.size() > 10);
    const std::vector<std::string> header = {"branch",    "rho",      "x",    "y",     "z",
                                             "stable",    "unstable", "type", "label", "first_lyapunov",
                                             "arclength", "re_1",     "im_1"};
    CHECK(std::vector<std::string>(rows[0].begin(), rows[0].begin() + 13) == header);
    CHECK(rows[0].size() == 17);
    // Per branch (0: C-, 1: the origin, 2: C+, sorted by state at r = 10): its rows' labels.
    std::vector<std::vector<const std::vector<std::string>*>> branches(3);
    const double r_hopf = 470.0 / 19.0; // sigma (sigma + beta + 3) / (sigma - beta - 1)
    for (std::size_t i = 1; i < rows.size(); ++i) {
        REQUIRE(rows[i].size() == 17);
        branches[std::size_t(std::stoi(rows[i][0]))].push_back(&rows[i]);
        if (rows[i][8] == "H") {
            CHECK(std::stod(rows[i][1]) == Approx(r_hopf).margin(1e-8));
            CHECK(std::stod(rows[i][9]) > 0.0);
        } else {
            CHECK(rows[i][9].empty());
        }
        if (rows[i][8] == "BP") CHECK(std::stod(rows[i][1]) == Approx(1.0).margin(1e-7));
    }
    auto count = [](const auto& branch, const std::string& label) {
        return std::count_if(branch.begin(), branch.end(),
                             [&](const auto* row) { return (*row)[8] == label; });
    };
    // The origin: from the box's lower end to its upper end, the pitchfork on the way.
    REQUIRE_FALSE(branches[1].empty());
    CHECK((*branches[1].front())[1] == "0.5");
    CHECK((*branches[1].back())[1] == "30");
    CHECK(count(branches[1], "BP") == 1);
    CHECK(count(branches[1], "H") == 0);
    // C+ and C- are one parabola through the pitchfork: each branch passes it and meets both Hopf points.
    for (std::size_t b : {0, 2}) {
        CHECK(count(branches[b], "H") == 2);
        CHECK(count(branches[b], "BP") == 1);
    }
    CHECK(outcome.notes.size() == 3);
}

TEST_CASE("an equilibria study's CSV: one row per equilibrium with its type", "[continuation][study]") {
    const auto r = resolve(R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
        "analysis": {"kind": "equilibria", "box": {"z": [-5, 50], "*": [-30, 30]}, "starts": 300}})");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    std::ostringstream csv;
    cont::write_equilibrium_study_csv(csv, *r.resolved, cont::run_equilibrium_study(*r.resolved));
    const auto rows = csv_rows(csv.str());
    REQUIRE(rows.size() == 4);
    CHECK(rows[0][0] == "equilibrium");
    CHECK(rows[2][4] == "saddle");
    CHECK(rows[2][6] == "1");
    CHECK(rows[1][4] == "saddle-focus");
    CHECK(rows[1][6] == "2");
}

TEST_CASE("bad equilibrium studies name the JSON path at fault", "[continuation][study]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "equilibria", "box": {"x": [-1, 1]}}})",
         "error: analysis.box: no range for state 'y'"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "equilibria", "box": {"w": [-1, 1], "*": [0, 1]}}})",
         "error: analysis.box.w: the model has no state 'w'"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "equilibria", "box": {"*": [1, -1]}}})",
         "error: analysis.box.*: needs finite bounds with lower <= upper"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "continuation", "parameter": "r", "from": 0, "to": 1, "start": {"x": 0}}})",
         "error: analysis.parameter: the model has no parameter 'r'"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "continuation", "parameter": "rho", "from": 0, "to": 10,
                          "start": {"x": 0, "y": 0, "z": 0}}})",
         "error: analysis.from: the continuation starts at rho = 28"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "continuation", "parameter": "rho", "from": 0, "to": 30,
                          "start": {"x": 0, "y": 0}}})",
         "error: analysis.start: no value for state 'z'"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "continuation", "parameter": "rho", "from": 0, "to": 30, "step": -1,
                          "start": {"x": 0, "y": 0, "z": 0}}})",
         "error: analysis.step: needs 0 < min_step <= step <= max_step"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "continuation", "parameter": "rho", "from": 0, "to": 30, "direction": "left",
                          "start": {"x": 0, "y": 0, "z": 0}}})",
         "error: analysis.direction: unknown value 'left'"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "curves", "parameter": "rho", "from": 0, "to": 30, "second_parameter": "rho",
                          "second_from": 0, "second_to": 30, "start": {"x": 0, "y": 0, "z": 0}}})",
         "error: analysis.second_parameter: must differ from the continued parameter"},
        {R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
             "analysis": {"kind": "curves", "parameter": "rho", "from": 0, "to": 30,
                          "start": {"x": 0, "y": 0, "z": 0}}})",
         "error: analysis.second_parameter: missing the second parameter's name"},
        {R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
             "analysis": {"kind": "equilibria", "box": {"*": [0, 1]}}})",
         "error: model: the model is a map"},
        {R"({"bifscope_study": 1, "model": {"text": "x'=-x+\ndone\n"},
             "analysis": {"kind": "equilibria", "box": {"*": [0, 1]}}})",
         "error: model.text: "},
    };
    for (const auto& [json, expected] : cases) {
        const auto r = resolve(json);
        INFO(json);
        CHECK_FALSE(r.resolved);
        CHECK_THAT(problem_text(r.problems), Catch::Contains(expected));
    }
}

TEST_CASE("a curves study continues each Hopf point in two parameters", "[continuation][study]") {
    const auto r = resolve(R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
        "parameters": {"rho": 10, "beta": 2.6666666666666665},
        "analysis": {"kind": "curves", "parameter": "rho", "from": 0.5, "to": 100,
                     "start": {"x": 4.898979485566356, "y": 4.898979485566356, "z": 9},
                     "second_parameter": "sigma", "second_from": 5, "second_to": 40,
                     "step": 0.05, "max_step": 0.5, "max_points": 400}})");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    const cont::EquilibriumStudyOutcome outcome = cont::run_equilibrium_study(*r.resolved);
    // From C+ at rho = 10 the branch meets its own Hopf point, passes the pitchfork into C- and meets
    // C-'s; the fold reported at the pitchfork is not a fold of equilibria and is not continued.
    REQUIRE(outcome.curves.size() == 2);
    std::ostringstream csv;
    cont::write_equilibrium_study_csv(csv, *r.resolved, outcome);
    const auto rows = csv_rows(csv.str());
    REQUIRE(rows.size() > 20);
    CHECK(rows[0] ==
          std::vector<std::string>{"curve", "kind", "rho", "sigma", "x", "y", "z", "label", "arclength"});
    const double beta = 8.0 / 3.0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        CHECK(rows[i][1] == "H");
        const double rho = std::stod(rows[i][2]), sigma = std::stod(rows[i][3]);
        CHECK(rho == Approx(sigma * (sigma + beta + 3) / (sigma - beta - 1)).epsilon(1e-9));
    }
    // Each curve runs from the sigma range's lower end (where rho leaves [0.5, 100] first) to its upper end.
    CHECK(rows.back()[7] == "EP");
    CHECK(std::stod(rows.back()[3]) == Approx(40.0));
}
