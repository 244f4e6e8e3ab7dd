// Study defaults from `@` options: each option against the value written in the model text (read
// here by a separate, minimal reader of `@` lines), XPPAUT's method letters, the section options,
// and values that cannot be used keeping the Study default with a note.
#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "engine/study/resolved_study.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace bif;
using namespace bif::study;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// `@ a=1,b=2` lines of a model's text, by their full lower-case names (the bundled models spell
// every option in full), later ones overriding earlier ones.
std::map<std::string, std::string> at_options(const std::string& text) {
    std::map<std::string, std::string> options;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("@ ", 0) != 0) continue;
        std::istringstream pairs(line.substr(2));
        std::string pair;
        while (std::getline(pairs, pair, ',')) {
            const auto eq = pair.find('=');
            std::string name = pair.substr(0, eq);
            name.erase(0, name.find_first_not_of(' '));
            std::transform(name.begin(), name.end(), name.begin(), ::tolower);
            options[name] = pair.substr(eq + 1);
        }
    }
    return options;
}

model::Model parsed(const std::string& text) {
    model::ParseResult r = model::parse_model(text);
    REQUIRE(r.model);
    return std::move(*r.model);
}

bool has_note_starting(const ModelDefaults& d, const std::string& start) {
    return std::any_of(d.notes.begin(), d.notes.end(), [&](const auto& n) { return n.rfind(start, 0) == 0; });
}

const char* kDuffing = "y1'=y2\ny2'=-k*y2-y1^3+b*cos(omega*t)\npar k=0.2,b=0.3,omega=1\n";

} // namespace

TEST_CASE("bundled models: integration options become the study's solver and times", "[study][options]") {
    int models = 0;
    for (const auto& entry : fs::directory_iterator(BIFSCOPE_MODELS_DIR)) {
        if (entry.path().extension() != ".ode") continue;
        INFO(entry.path().filename().string());
        const std::string text = read_text(entry.path());
        const auto written = at_options(text);
        const model::Model model = parsed(text);
        const ModelDefaults d = model_defaults(model);
        const Study defaults;
        ++models;
        const auto number = [&](const char* name) { return std::stod(written.at(name)); };
        // a map steps one iterate at a time whatever its dt says, as XPPAUT does
        CHECK(d.study.solver.initial_step == (model.is_map()          ? 1.0
                                              : written.count("dt") ? number("dt")
                                                                    : defaults.solver.initial_step));
        CHECK(d.study.trajectory.t_end ==
              (written.count("total") ? number("total") : defaults.trajectory.t_end));
        CHECK(d.study.solver.rtol.all == (written.count("tol") ? number("tol") : defaults.solver.rtol.all));
        CHECK(d.study.solver.atol.all == (written.count("atol") ? number("atol") : defaults.solver.atol.all));
        CHECK(d.study.solver.max_step ==
              (written.count("dtmax") ? number("dtmax") : defaults.solver.max_step));
        CHECK(d.study.solver.min_step ==
              (written.count("dtmin") ? number("dtmin") : defaults.solver.min_step));
        const std::string meth = written.count("meth") ? written.at("meth") : "";
        if (meth == "rk4") CHECK(d.study.solver.method == Method::Rk4);
        if (meth == "qualrk") CHECK(d.study.solver.method == Method::Rkck45);
        if (meth == "stiff") CHECK(d.study.solver.method == Method::Rodas4);
        for (const auto& [name, value] : written)
            if (name == "meth" || name == "dt" || name == "total" || name == "bound")
                CHECK(has_note_starting(d, name + "=" + value));
        // What the options give must also pass the engine's own checks against the model.
        Study s = d.study;
        s.model.text = text;
        const ResolveResult r = resolve_study(s, "");
        INFO((r.problems.empty() ? std::string() : r.problems.front().format()));
        CHECK(r.resolved != nullptr);
    }
    CHECK(models >= 10);
}

TEST_CASE("duffing.ode's stroboscopic section and plotted axes", "[study][options]") {
    const ModelDefaults d = model_defaults(parsed(read_text(fs::path(BIFSCOPE_MODELS_DIR) / "duffing.ode")));
    CHECK(d.study.analysis == AnalysisKind::Bifurcation);
    CHECK(d.study.bifurcation.section.kind == SectionKind::Stroboscopic);
    CHECK(d.study.bifurcation.section.period == "6.283185307179586");
    CHECK(d.study.map.section.period == "6.283185307179586");
    CHECK(d.study.basins.section.period == "6.283185307179586");
    CHECK(d.study.trajectory.record == std::vector<std::string>{"y1", "y2"});
    REQUIRE(d.study.sweep.size() == 1);
    CHECK(d.study.sweep[0].name == "k"); // the first `par` of duffing.ode, k=0.25
    CHECK(d.study.sweep[0].from == 0.125);
    CHECK(d.study.sweep[0].to == 0.375);
}

TEST_CASE("XPPAUT's method letters", "[study][options]") {
    const std::pair<const char*, Method> table[] = {
        {"rk4", Method::Rk4},       {"runge-kutta", Method::Rk4}, {"Runge", Method::Rk4},
        {"qualrk", Method::Rkck45}, {"q", Method::Rkck45},        {"5", Method::Dopri5},
        {"8", Method::Dopri5},      {"2", Method::Rosenbrock23},  {"stiff", Method::Rodas4},
        {"cvode", Method::Rodas4},  {"gear", Method::Rodas4},     {"backeul", Method::Rosenbrock23},
        {"euler", Method::Rk4},     {"modeuler", Method::Rk4},    {"adams", Method::Rk4},
        {"ymp", Method::Rk4},
    };
    for (const auto& [value, method] : table) {
        INFO(value);
        const ModelDefaults d = model_defaults(parsed(std::string(kDuffing) + "@ meth=" + value + "\n"));
        CHECK(d.study.solver.method == method);
        CHECK(has_note_starting(d, std::string("meth=") + value + ": solver " + name_of(method)));
    }
    for (const char* value : {"volterra", "xyz"}) {
        INFO(value);
        const ModelDefaults d = model_defaults(parsed(std::string(kDuffing) + "@ meth=" + value + "\n"));
        CHECK(d.study.solver.method == Study().solver.method);
        CHECK(has_note_starting(d, std::string("meth=") + value + ": "));
    }
}

TEST_CASE("event sections from poivar, poipln and poisgn", "[study][options]") {
    const std::tuple<const char*, const char*, CrossingDirection> table[] = {
        {"@ poimap=section,poivar=y1,poipln=0.5,poisgn=1\n", "y1-(0.5)", CrossingDirection::Rising},
        {"@ poimap=section,poivar=Y2,poipln=0,poisgn=-1\n", "y2", CrossingDirection::Falling},
        {"@ poimap=section,poivar=y2,poipln=-1.5,poisgn=0\n", "y2-(-1.5)", CrossingDirection::Both},
        {"@ poimap=section,poivar=y1\n", "y1", CrossingDirection::Rising},
    };
    for (const auto& [options, condition, direction] : table) {
        INFO(options);
        const ModelDefaults d = model_defaults(parsed(std::string(kDuffing) + options));
        CHECK(d.study.analysis == AnalysisKind::Bifurcation);
        CHECK(d.study.bifurcation.section.kind == SectionKind::Event);
        CHECK(d.study.bifurcation.section.condition == condition);
        CHECK(d.study.bifurcation.section.direction == direction);
        CHECK(d.study.map.section.condition == condition);
    }
}

TEST_CASE("the stroboscopic section from the options resolves to the period written", "[study][options]") {
    Study s = study_defaults_from_model(parsed(std::string(kDuffing) + "@ poimap=s,poivar=t,poipln=2.5\n"));
    s.sweep = {{SweepTarget::Parameter, "b", 0.1, 0.5, 3, SweepScale::Linear}};
    s.model.text = std::string(kDuffing) + "@ poimap=s,poivar=t,poipln=2.5\n";
    const ResolveResult r = resolve_study(s, "");
    REQUIRE(r.resolved);
    const std::vector<double> p = r.resolved->parameter_slots(0);
    CHECK(r.resolved->model->pool.evaluate(r.resolved->formulas.period, r.resolved->initial_state.data(),
                                           p.data(), 0.0) == 2.5);
}

TEST_CASE("options that cannot be used keep the default with a note", "[study][options]") {
    const Study defaults;
    const ModelDefaults d = model_defaults(parsed(
        std::string(kDuffing) + "@ dt=-0.1,tol=abc,total=0,poivar=q,xp=nothere,yp=y2,t0=5,trans=10\n"));
    CHECK(d.study.solver.initial_step == defaults.solver.initial_step);
    CHECK(has_note_starting(d, "dt=-0.1: must be positive"));
    CHECK(d.study.solver.rtol.all == defaults.solver.rtol.all);
    CHECK(has_note_starting(d, "tol=abc: not a number"));
    CHECK(d.study.trajectory.t_end == defaults.trajectory.t_end);
    CHECK(has_note_starting(d, "total=0: must be positive"));
    CHECK(d.study.analysis == AnalysisKind::Trajectory);
    CHECK(has_note_starting(d, "poivar=q: not a state"));
    CHECK(d.study.trajectory.record == std::vector<std::string>{"y2"});
    CHECK(has_note_starting(d, "xp=nothere: not a state"));
    CHECK(d.study.t0 == 5.0);
    CHECK(d.study.lyapunov.transient_time == 10.0);
}

TEST_CASE("total counts from t0, as XPPAUT integrates", "[study][options]") {
    const Study s = study_defaults_from_model(parsed(std::string(kDuffing) + "@ t0=2,total=30\n"));
    CHECK(s.t0 == 2.0);
    CHECK(s.trajectory.t_end == 32.0);
}
