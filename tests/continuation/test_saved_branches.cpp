// Branches saved in a document (engine/continuation/saved_branch.h): written into a study file and
// read back bit for bit, the study's own members untouched; documents from before branches were saved
// read without any; each kind of damage reported at its JSON path, the other branches still read.
#include "engine/continuation/saved_branch.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace bif;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string logistic_study =
    read_file(BIFSCOPE_SOURCE_DIR "/resources/studies/logistic_bifurcation.json");
const std::string logistic_seed =
    read_file(BIFSCOPE_SOURCE_DIR "/resources/studies/equilibria/logistic_orbit_continuation.json");

// Equal as bits: a NaN equals a NaN, -0 differs from +0.
bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The logistic map's fixed point 1 - 1/r with its multiplier 2 - r: the values of a real branch, with
// the digits that a decimal printing of fewer than 17 places would lose.
cont::SavedBranch orbit_branch() {
    cont::SavedBranch b;
    b.name = "orbit of period 1";
    b.parameter = "r";
    b.states = {"x"};
    for (int i = 0; i <= 40; ++i) {
        cont::SavedBranchPoint p;
        p.parameter = 2.5 + i / 40.0 + 1.0 / 3.0 * 1e-9;
        p.state = {1 - 1 / p.parameter};
        p.stable = p.parameter < 3;
        p.details =
            "multipliers " + std::to_string(2 - p.parameter) + " · " + (p.stable ? "stable" : "unstable");
        b.points.push_back(p);
    }
    b.points[20].label = "PD";
    b.points[20].details = "multipliers −1 · |μ| = e^1e-300 · unstable (1 outside the unit circle)";
    b.points.back().label = "EP";
    b.points.front().state = {5e-324}; // a denormal
    auto seed = study::read_equilibrium_study_json(logistic_seed);
    REQUIRE(seed.study);
    b.seed = seed.study;
    return b;
}

cont::SavedBranch hopf_curve() {
    cont::SavedBranch c;
    c.name = "H curve 0";
    c.kind = cont::SavedBranchKind::Curve;
    c.parameter = "rho";
    c.second_parameter = "sigma";
    c.states = {"x", "y", "z"};
    for (double sigma : {6.0, 10.0, 20.0}) {
        const double beta = 8.0 / 3, rho = sigma * (sigma + beta + 3) / (sigma - beta - 1);
        cont::SavedBranchPoint p;
        p.parameter = rho;
        p.second = sigma;
        p.state = {std::sqrt(beta * (rho - 1)), std::sqrt(beta * (rho - 1)), rho - 1};
        p.details = "H point";
        c.points.push_back(p);
    }
    c.points[1].state[2] = std::nan(""); // not finite: written as null
    return c;
}

void check_same(const cont::SavedBranch& a, const cont::SavedBranch& b) {
    CHECK(a.name == b.name);
    CHECK(a.kind == b.kind);
    CHECK(a.parameter == b.parameter);
    CHECK(a.second_parameter == b.second_parameter);
    CHECK(a.states == b.states);
    REQUIRE(a.points.size() == b.points.size());
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        const auto &p = a.points[i], &q = b.points[i];
        INFO("point " << i);
        CHECK(same_bits(p.parameter, q.parameter));
        CHECK((same_bits(p.second, q.second) || (std::isnan(p.second) && std::isnan(q.second))));
        REQUIRE(p.state.size() == q.state.size());
        for (std::size_t k = 0; k < p.state.size(); ++k)
            CHECK((same_bits(p.state[k], q.state[k]) || (std::isnan(p.state[k]) && std::isnan(q.state[k]))));
        CHECK(p.stable == q.stable);
        CHECK(p.label == q.label);
        CHECK(p.details == q.details);
    }
    REQUIRE(a.seed.has_value() == b.seed.has_value());
    if (a.seed)
        CHECK(study::write_equilibrium_study_json(*a.seed) == study::write_equilibrium_study_json(*b.seed));
}

// The document with one branch's JSON replaced by `branch_json` (the valid curve stays beside it).
std::string with_damaged_branch(const std::string& branch_json) {
    const std::string document = cont::with_saved_branches(logistic_study, {hopf_curve()});
    const auto at = document.find("\"overlays\": [");
    REQUIRE(at != std::string::npos);
    const auto open = at + std::strlen("\"overlays\": [");
    return document.substr(0, open) + branch_json + "," + document.substr(open);
}

bool has_problem(const study::Problems& problems, const std::string& path, const std::string& words) {
    for (const auto& p : problems)
        if (p.severity == study::ProblemSeverity::Error && p.path == path &&
            p.message.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_CASE("a document's branches read back bit for bit, the study beside them unchanged", "[branches]") {
    const std::vector<cont::SavedBranch> saved = {orbit_branch(), hopf_curve()};
    const std::string document = cont::with_saved_branches(logistic_study, saved);
    const auto read = cont::read_saved_branches(document);
    CHECK(read.problems.empty());
    REQUIRE(read.branches.size() == 2);
    check_same(read.branches[0], saved[0]);
    check_same(read.branches[1], saved[1]);

    // The study reads as it did, with no warning about the branches it does not read itself.
    const auto before = study::read_study_json(logistic_study), after = study::read_study_json(document);
    REQUIRE(after.study);
    CHECK(after.problems.empty());
    CHECK(study::write_study_json(*after.study) == study::write_study_json(*before.study));

    // Saving again replaces the branches; saving none removes the member.
    const std::string again = cont::with_saved_branches(document, {hopf_curve()});
    REQUIRE(cont::read_saved_branches(again).branches.size() == 1);
    const std::string none = cont::with_saved_branches(again, {});
    CHECK(none.find("\"branches\"") == std::string::npos);
    CHECK(cont::read_saved_branches(none).branches.empty());
}

TEST_CASE("documents without branches, and text that is no document", "[branches]") {
    const auto old = cont::read_saved_branches(logistic_study);
    CHECK(old.branches.empty());
    CHECK(old.problems.empty());
    CHECK(cont::read_saved_branches("not json {").problems.empty());
    CHECK_THROWS_AS(cont::with_saved_branches("[1, 2]", {hopf_curve()}), std::invalid_argument);
}

TEST_CASE("damaged branches are reported at their path and left out; the others still read", "[branches]") {
    struct Case {
        const char* branch;
        const char* path;
        const char* words;
    };
    const Case cases[] = {
        {R"({"kind": "branch", "parameter": "r", "states": ["x"], "points": []})",
         "branches.overlays[0].name", "missing"},
        {R"({"name": "b", "kind": "spiral", "parameter": "r", "states": ["x"], "points": []})",
         "branches.overlays[0].kind", "unknown value 'spiral'"},
        {R"({"name": "b", "kind": "branch", "states": ["x"], "points": []})",
         "branches.overlays[0].parameter", "missing"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "points": []})", "branches.overlays[0].states",
         "missing"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"], "points": {}})",
         "branches.overlays[0].points", "expected an array"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"],
             "points": [{"parameter": 1, "state": [0.5]}, {"parameter": "2.5", "state": [0.6]}]})",
         "branches.overlays[0].points[1].parameter", "expected a number"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"],
             "points": [{"parameter": 1, "state": [0.5, 0.1]}]})",
         "branches.overlays[0].points[0].state", "has 2 values for the branch's 1 states"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"],
             "points": [{"parameter": 1, "state": ["x"]}]})",
         "branches.overlays[0].points[0].state[0]", "expected a number"},
        {R"({"name": "b", "kind": "curve", "parameter": "a", "second_parameter": "b", "states": ["x"],
             "points": [{"parameter": 1, "state": [0.5]}]})",
         "branches.overlays[0].points[0].second", "missing"},
        {R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"],
             "points": [{"parameter": 1, "state": [0.5], "stable": "yes"}]})",
         "branches.overlays[0].points[0].stable", "expected true or false"},
        {R"(42)", "branches.overlays[0]", "expected an object"},
    };
    for (const Case& c : cases) {
        INFO(c.branch);
        const auto read = cont::read_saved_branches(with_damaged_branch(c.branch));
        CHECK(has_problem(read.problems, c.path, c.words));
        CHECK(has_problem(read.problems, "branches.overlays[0]", "cannot be read and is left out"));
        REQUIRE(read.branches.size() == 1);
        check_same(read.branches[0], hopf_curve());
    }
}

TEST_CASE("a branch whose seed is damaged is drawn without it; damaged or newer versions", "[branches]") {
    const auto bad_seed = cont::read_saved_branches(with_damaged_branch(
        R"({"name": "b", "kind": "branch", "parameter": "r", "states": ["x"], "seed": {"analysis": 3},
            "points": [{"parameter": 1, "state": [0.5]}]})"));
    REQUIRE(bad_seed.branches.size() == 2);
    CHECK_FALSE(bad_seed.branches[0].seed);
    CHECK_FALSE(study::has_errors(bad_seed.problems));
    bool said = false;
    for (const auto& p : bad_seed.problems)
        said = said || (p.path.rfind("branches.overlays[0].seed", 0) == 0 &&
                        p.message.find("cannot be continued") != std::string::npos);
    CHECK(said);

    const auto no_version =
        cont::read_saved_branches(R"({"bifscope_study": 1, "branches": {"overlays": []}})");
    CHECK(has_problem(no_version.problems, "branches.version", "missing"));
    const auto not_object = cont::read_saved_branches(R"({"bifscope_study": 1, "branches": [1]})");
    CHECK(has_problem(not_object.problems, "branches", "expected an object"));

    std::string newer = cont::with_saved_branches(logistic_study, {hopf_curve()});
    const auto at = newer.find("\"version\": 1");
    REQUIRE(at != std::string::npos);
    newer.replace(at, std::strlen("\"version\": 1"), "\"version\": 7");
    const auto read = cont::read_saved_branches(newer);
    REQUIRE(read.branches.size() == 1);
    CHECK_FALSE(study::has_errors(read.problems));
    REQUIRE(!read.problems.empty());
    CHECK(read.problems[0].path == "branches.version");
}
