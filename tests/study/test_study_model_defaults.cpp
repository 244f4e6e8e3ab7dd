// A study file that leaves a setting out takes the model's `@` option for it: each case writes the
// study and the model text here, and checks the resolved values against the numbers in the text.
// Bundled studies give their settings, so resolving them changes nothing.
#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

namespace fs = std::filesystem;
using namespace bif::study;

namespace {

const char* kOscillator = "x'=y\\ny'=-x+a*(1-x^2)*y\\npar a=0.5\\ninit x=1\\n";

// A study file around an inline model: `options` are the model's `@` lines, `rest` the JSON members
// after "analysis" (with a leading comma).
std::string study_text(const std::string& options, const std::string& analysis,
                       const std::string& rest = "") {
    return std::string(R"({"bifscope_study": 1, "model": {"text": ")") + kOscillator + options + R"(done\n"},
                       "analysis": )" +
           analysis + rest + "}";
}

ResolveResult resolve_text(const std::string& json) {
    const StudyReadResult read = read_study_json(json);
    REQUIRE(read.study);
    INFO((read.problems.empty() ? std::string() : read.problems.front().format()));
    REQUIRE(read.problems.empty());
    ResolveResult r = resolve_study(*read.study, "");
    INFO((r.problems.empty() ? std::string() : r.problems.front().format()));
    REQUIRE(r.resolved);
    return r;
}

const Problem* warning_at(const Problems& problems, const std::string& path) {
    for (const auto& p : problems)
        if (p.severity == ProblemSeverity::Warning && p.path == path) return &p;
    return nullptr;
}

const char* kTrajectory = R"({"kind": "trajectory", "t_end": 10, "output_count": 11})";
const char* kBifurcation = R"({"kind": "bifurcation", "recorded_sections": 2})";
const char* kSweepA = R"(, "sweep": [{"parameter": "a", "from": 0.1, "to": 1, "count": 4}])";

} // namespace

TEST_CASE("a study without a solver takes the model's method and tolerance", "[study][options]") {
    const ResolveResult r = resolve_text(study_text("@ meth=qualrk, tol=1e-7\\n", kTrajectory));
    CHECK(r.resolved->study.solver.method == Method::Rkck45);
    CHECK(r.resolved->rtol == std::vector<double>{1e-7, 1e-7});
    // atol was neither given nor an option: the Study default.
    CHECK(r.resolved->atol == std::vector<double>(2, Tolerance{}.all));
    REQUIRE(warning_at(r.problems, "solver.method"));
    CHECK(warning_at(r.problems, "solver.method")->message.find("meth=qualrk") != std::string::npos);
    REQUIRE(warning_at(r.problems, "solver.rtol"));
    CHECK(warning_at(r.problems, "solver.rtol")->message.find("tol=1e-7") != std::string::npos);
    CHECK_FALSE(warning_at(r.problems, "solver.atol"));
    CHECK_FALSE(has_errors(r.problems));

    SECTION("a method other than the default, with XPPAUT's steps") {
        const ResolveResult s =
            resolve_text(study_text("@ meth=stiff, dt=0.05, dtmin=1e-9, dtmax=0.5\\n", kTrajectory));
        CHECK(s.resolved->study.solver.method == Method::Rodas4);
        CHECK(s.resolved->study.solver.initial_step == 0.05);
        CHECK(s.resolved->study.solver.min_step == 1e-9);
        CHECK(s.resolved->study.solver.max_step == 0.5);
    }
}

TEST_CASE("a setting the study gives is kept, key by key", "[study][options]") {
    const ResolveResult r = resolve_text(study_text("@ meth=stiff, tol=1e-7, atol=1e-9\\n", kTrajectory,
                                                    R"(, "solver": {"method": "dopri5", "atol": 1e-5})"));
    CHECK(r.resolved->study.solver.method == Method::Dopri5);
    CHECK(r.resolved->atol == std::vector<double>{1e-5, 1e-5});
    // rtol was left out of the solver block: the model's tol.
    CHECK(r.resolved->rtol == std::vector<double>{1e-7, 1e-7});
    CHECK_FALSE(warning_at(r.problems, "solver.method"));
    CHECK_FALSE(warning_at(r.problems, "solver.atol"));
    CHECK(warning_at(r.problems, "solver.rtol"));
}

TEST_CASE("a bifurcation study without a section takes the model's Poincaré section", "[study][options]") {
    SECTION("poivar=x, poipln=0: an event section on x, rising by XPPAUT's default") {
        const ResolveResult r =
            resolve_text(study_text("@ poimap=section,poivar=x,poipln=0\\n", kBifurcation, kSweepA));
        const Section& s = r.resolved->study.bifurcation.section;
        CHECK(s.kind == SectionKind::Event);
        CHECK(s.condition == "x");
        CHECK(s.direction == CrossingDirection::Rising);
        CHECK(r.resolved->formulas.section_event >= 0);
        CHECK(warning_at(r.problems, "analysis.section"));
    }
    SECTION("a plane away from zero, falling") {
        const ResolveResult r = resolve_text(
            study_text("@ poimap=section,poivar=y,poipln=0.25,poisgn=-1\\n", kBifurcation, kSweepA));
        const Section& s = r.resolved->study.bifurcation.section;
        CHECK(s.kind == SectionKind::Event);
        CHECK(s.direction == CrossingDirection::Falling);
        // The condition is zero exactly on the plane y = 0.25.
        const double y[] = {0.3, 0.25};
        std::vector<double> p = r.resolved->parameter_slots(0);
        bif::model::Model m = *r.resolved->model;
        const auto parsed = bif::model::parse_expression(m, s.condition);
        REQUIRE(parsed.node);
        CHECK(m.pool.evaluate(*parsed.node, y, p.data(), 0.0) == 0.0);
    }
    SECTION("poivar=t: stroboscopic, for a map study too") {
        const ResolveResult r =
            resolve_text(study_text("@ poimap=section,poivar=t,poipln=2.5\\n", R"({"kind": "map"})",
                                    R"(, "sweep": [{"parameter": "a", "from": 0.1, "to": 1, "count": 2},
                                      {"initial": "x", "from": 0, "to": 1, "count": 2}])"));
        CHECK(r.resolved->study.map.section.kind == SectionKind::Stroboscopic);
        CHECK(r.resolved->study.map.section.period == "2.5");
        CHECK(r.resolved->formulas.period_observable >= 0);
    }
    SECTION("a section the study gives is kept") {
        const ResolveResult r = resolve_text(study_text(
            "@ poivar=x,poipln=0\\n",
            R"({"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "3"}})", kSweepA));
        CHECK(r.resolved->study.bifurcation.section.kind == SectionKind::Stroboscopic);
        CHECK(r.resolved->study.bifurcation.section.period == "3");
        CHECK_FALSE(warning_at(r.problems, "analysis.section"));
    }
}

TEST_CASE("a trajectory without an end runs TOTAL from its own t0 and records XP and YP",
          "[study][options]") {
    const ResolveResult r =
        resolve_text(study_text("@ total=30,xp=y,yp=x\\n", R"({"kind": "trajectory"})", R"(, "t0": 5)"));
    CHECK(r.resolved->study.t0 == 5.0);
    CHECK(r.resolved->study.trajectory.t_end == 35.0);
    CHECK(r.resolved->study.trajectory.record == std::vector<std::string>{"y", "x"});
    CHECK(r.resolved->formulas.recorded.size() == 2);

    SECTION("the model's t0 when the study gives none") {
        const ResolveResult s = resolve_text(study_text("@ t0=2,total=30\\n", R"({"kind": "trajectory"})"));
        CHECK(s.resolved->study.t0 == 2.0);
        CHECK(s.resolved->study.trajectory.t_end == 32.0);
    }
    SECTION("settings of other analyses are not taken") {
        const ResolveResult s = resolve_text(study_text("@ total=30,trans=7\\n", kTrajectory));
        CHECK(s.resolved->study.trajectory.t_end == 10.0);
        CHECK(s.resolved->study.lyapunov.transient_time == LyapunovSettings{}.transient_time);
    }
}

TEST_CASE("a study made in code is taken as it is", "[study][options]") {
    Study s;
    s.model.text = std::string("x'=-x\n@ meth=stiff,tol=1e-3\ndone\n");
    s.analysis = AnalysisKind::Trajectory;
    const ResolveResult r = resolve_study(s, "");
    REQUIRE(r.resolved);
    CHECK(r.resolved->study.solver.method == Method::Rkck45);
    CHECK(r.resolved->rtol == std::vector<double>{1e-6});
    CHECK(r.problems.empty());
}

TEST_CASE("a study written after resolving holds the values used and round-trips", "[study][options]") {
    const ResolveResult first =
        resolve_text(study_text("@ meth=stiff,tol=1e-7,dt=0.05,poivar=x,poipln=0\\n", kBifurcation, kSweepA));
    CHECK_FALSE(first.resolved->study.given);
    const std::string written = write_study_json(first.resolved->study);
    const StudyReadResult again = read_study_json(written);
    REQUIRE(again.study);
    const ResolveResult second = resolve_study(*again.study, "");
    REQUIRE(second.resolved);
    // Everything is given now: nothing more is taken from the model.
    CHECK(second.problems.empty());
    CHECK(write_study_json(second.resolved->study) == written);
    CHECK(second.resolved->study.solver.method == Method::Rodas4);
}

TEST_CASE("bundled studies give their settings: resolving changes none", "[study][options][examples]") {
    int studies = 0;
    for (const auto& entry : fs::directory_iterator(BIFSCOPE_STUDIES_DIR)) {
        if (entry.path().extension() != ".json") continue;
        INFO(entry.path().filename().string());
        ++studies;
        const StudyReadResult read = read_study_file(entry.path().string());
        REQUIRE(read.study);
        const ResolveResult r = load_study_file(entry.path().string());
        REQUIRE(r.resolved);
        CHECK(r.problems.empty());
        // the one setting a study takes from its model unasked: the model's own @ bound (XPPAUT's
        // reading of the file), checked against the model and then left out of the comparison
        Study resolved = r.resolved->study;
        if (read.study->solver.bound == 0.0) {
            const auto model_bound = model_defaults(*r.resolved->model).study.solver.bound;
            CHECK(resolved.solver.bound == model_bound);
            resolved.solver.bound = 0.0;
        }
        CHECK(write_study_json(resolved) == write_study_json(*read.study));
    }
    CHECK(studies >= 10);
}
