// A table of bad studies: each names the JSON path at fault and a message that says what is wrong.
// The base study is valid; each case changes one thing.
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

using namespace bif::study;
using nlohmann::json;

namespace {

json base_study() {
    return json::parse(R"({
      "bifscope_study": 1,
      "model": {"text": "y1'=y2\ny2'=delta*y1-y1^3-k*y2+b*cos(omega*t)\npar k=0.25,b=0.3,delta=1,omega=1\n!w2=2*omega\ninit y1=0.1\ndone\n"},
      "parameters": {"b": 0.3},
      "initial": {"y2": 0},
      "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 11, "scale": "linear"}],
      "analysis": {"kind": "bifurcation",
                   "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                   "transient_sections": 10, "recorded_sections": 4, "record": ["y1"]},
      "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9},
      "precision": "double"
    })");
}

Problems problems_of(const std::string& text) {
    StudyReadResult read = read_study_json(text);
    if (!read.study) return read.problems;
    // Resolving goes on after shape errors, so that every problem is reported at once.
    ResolveResult resolved = resolve_study(*read.study, "");
    Problems all = read.problems;
    all.insert(all.end(), resolved.problems.begin(), resolved.problems.end());
    return all;
}

struct BadCase {
    const char* what;
    std::function<void(json&)> change;
    ProblemSeverity severity;
    const char* path;
    const char* message_part;
};

const BadCase bad_cases[] = {
    {"unknown analysis", [](json& j) { j["analysis"]["kind"] = "bifurcaton"; }, ProblemSeverity::Error,
     "analysis.kind",
     "unknown value 'bifurcaton'; expected one of bifurcation, lyapunov, map, basins, trajectory, "
     "phase_plane"},
    {"count below 1", [](json& j) { j["sweep"][0]["count"] = 0; }, ProblemSeverity::Error, "sweep[0].count",
     "must be at least 1, got 0"},
    {"log range through zero",
     [](json& j) {
         j["sweep"][0]["scale"] = "log";
         j["sweep"][0]["from"] = -1;
     },
     ProblemSeverity::Error, "sweep[0].from", "a log sweep needs positive bounds, got -1"},
    {"unknown swept parameter", [](json& j) { j["sweep"][0]["parameter"] = "kk"; }, ProblemSeverity::Error,
     "sweep[0].parameter", "unknown parameter 'kk'; the model's parameters are: k, b, delta, omega"},
    {"unknown method", [](json& j) { j["solver"]["method"] = "rk45"; }, ProblemSeverity::Error,
     "solver.method", "unknown value 'rk45'; expected one of rk4, rkck45, dopri5, rkc, rosenbrock23, rodas4"},
    {"tolerance too small for float", [](json& j) { j["precision"] = "float"; }, ProblemSeverity::Warning,
     "solver.rtol", "float precision cannot honour a tolerance below about 1e-6"},
    {"missing model", [](json& j) { j.erase("model"); }, ProblemSeverity::Error, "model", "missing model"},
    {"model path and text", [](json& j) { j["model"]["path"] = "x.ode"; }, ProblemSeverity::Error, "model",
     "not both"},
    {"missing schema version", [](json& j) { j.erase("bifscope_study"); }, ProblemSeverity::Error,
     "bifscope_study", "missing schema version"},
    {"newer schema version", [](json& j) { j["bifscope_study"] = 2; }, ProblemSeverity::Warning,
     "bifscope_study", "written for schema version 2"},
    {"derived parameter set", [](json& j) { j["parameters"]["w2"] = 1; }, ProblemSeverity::Error,
     "parameters.w2", "is a derived parameter"},
    {"state set as parameter", [](json& j) { j["parameters"]["y1"] = 1; }, ProblemSeverity::Error,
     "parameters.y1", "is a state variable, not a parameter"},
    {"unknown initial value", [](json& j) { j["initial"]["z"] = 1; }, ProblemSeverity::Error, "initial.z",
     "unknown state variable 'z'; the model's states are: y1, y2"},
    {"period with an unknown name", [](json& j) { j["analysis"]["section"]["period"] = "2*pi/omegaa"; },
     ProblemSeverity::Error, "analysis.section.period", "at column "},
    {"period depends on the state", [](json& j) { j["analysis"]["section"]["period"] = "y1+1"; },
     ProblemSeverity::Error, "analysis.section.period", "may depend on parameters only"},
    {"negative period", [](json& j) { j["analysis"]["section"]["period"] = "-omega"; },
     ProblemSeverity::Error, "analysis.section.period", "it must be positive"},
    {"tolerance of the wrong type", [](json& j) { j["solver"]["rtol"] = "small"; }, ProblemSeverity::Error,
     "solver.rtol", "expected a number or an object of state: number pairs, got a string"},
    {"tolerance for an unknown state",
     [](json& j) {
         j["solver"]["atol"] = json{{"q", 1e-6}};
     },
     ProblemSeverity::Error, "solver.atol.q", "unknown state variable 'q'"},
    {"misspelt key", [](json& j) { j["solvr"] = json::object(); }, ProblemSeverity::Warning, "solvr",
     "unknown key, ignored"},
    {"two axes for a diagram",
     [](json& j) {
         j["sweep"].push_back(json{{"parameter", "b"}, {"from", 0}, {"to", 1}, {"count", 2}});
     },
     ProblemSeverity::Error, "sweep", "a bifurcation diagram sweeps exactly one parameter, got 2 axes"},
    {"no recorded sections", [](json& j) { j["analysis"]["recorded_sections"] = 0; }, ProblemSeverity::Error,
     "analysis.recorded_sections", "must be at least 1, got 0"},
    {"fractional count", [](json& j) { j["sweep"][0]["count"] = 2.5; }, ProblemSeverity::Error,
     "sweep[0].count", "expected a whole number, got 2.5"},
    {"event section without condition",
     [](json& j) {
         j["analysis"]["section"] = json{{"kind", "event"}, {"direction", "falling"}};
     },
     ProblemSeverity::Error, "analysis.section.condition", "an event section needs the formula"},
    {"unknown crossing direction",
     [](json& j) {
         j["analysis"]["section"] = json{{"kind", "event"}, {"condition", "y2"}, {"direction", "down"}};
     },
     ProblemSeverity::Error, "analysis.section.direction",
     "unknown value 'down'; expected one of rising, falling, both"},
    {"constant event condition",
     [](json& j) {
         j["analysis"]["section"] = json{{"kind", "event"}, {"condition", "omega-1"}};
     },
     ProblemSeverity::Warning, "analysis.section.condition", "never crosses zero"},
    {"bad recorded formula", [](json& j) { j["analysis"]["record"] = json::array({"y1+"}); },
     ProblemSeverity::Error, "analysis.record[0]", "at column "},
    {"model with an error", [](json& j) { j["model"]["text"] = "y1'=y2+\npar k=1\ndone\n"; },
     ProblemSeverity::Error, "model.text", "<study model>:1:"},
    {"missing model file",
     [](json& j) {
         j["model"].erase("text");
         j["model"]["path"] = "/nonexistent/none.ode";
     },
     ProblemSeverity::Error, "model.path", "none.ode"},
    {"min step above max step",
     [](json& j) {
         j["solver"]["min_step"] = 1;
         j["solver"]["max_step"] = 0.1;
     },
     ProblemSeverity::Error, "solver.min_step", "must not exceed max_step 0.1"},
    {"shrink factor out of range", [](json& j) { j["solver"]["min_shrink"] = 2; }, ProblemSeverity::Error,
     "solver.min_shrink", "must lie between 0 and 1, got 2"},
    {"unknown precision", [](json& j) { j["precision"] = "half"; }, ProblemSeverity::Error, "precision",
     "unknown value 'half'; expected one of auto, float, double"},
    {"gpus not a list", [](json& j) { j["gpus"] = 1; }, ProblemSeverity::Error, "gpus",
     "expected an array of GPU numbers, got a number"},
    {"negative gpu",
     [](json& j) {
         j["gpus"] = {0, -1};
     },
     ProblemSeverity::Error, "gpus[1]", "expected a GPU number (0, 1, ...), got -1"},
    {"sweep axis without a target", [](json& j) { j["sweep"][0].erase("parameter"); }, ProblemSeverity::Error,
     "sweep[0]", "a sweep axis names what it sweeps"},
};

} // namespace

TEST_CASE("the base study of the table is valid", "[study][problems]") {
    const Problems problems = problems_of(base_study().dump());
    for (const auto& p : problems)
        INFO(p.format());
    CHECK(problems.empty());
}

TEST_CASE("each bad study names the path and says what is wrong", "[study][problems]") {
    for (const BadCase& c : bad_cases) {
        json j = base_study();
        c.change(j);
        const Problems problems = problems_of(j.dump());
        std::string all;
        for (const auto& p : problems)
            all += p.format() + "\n";
        INFO(c.what << "\n" << all);
        const bool found = std::any_of(problems.begin(), problems.end(), [&](const Problem& p) {
            return p.severity == c.severity && p.path == c.path &&
                   p.message.find(c.message_part) != std::string::npos;
        });
        CHECK(found);
    }
}

TEST_CASE("not JSON at all", "[study][problems]") {
    const Problems problems = problems_of("{\"bifscope_study\": 1,");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].path.empty());
    CHECK(problems[0].message.rfind("not valid JSON: ", 0) == 0);
    CHECK(problems[0].message.find("line 1") != std::string::npos);
}

TEST_CASE("every problem is reported, not only the first", "[study][problems]") {
    json j = base_study();
    j["sweep"][0]["count"] = 0;
    j["solver"]["method"] = "euler";
    j["analysis"]["recorded_sections"] = -3;
    j["parameters"]["nope"] = 1;
    const Problems problems = problems_of(j.dump());
    std::set<std::string> paths;
    for (const auto& p : problems)
        paths.insert(p.path);
    CHECK(paths == std::set<std::string>{"sweep[0].count", "solver.method", "analysis.recorded_sections",
                                         "parameters.nope"});
}
