// Continuation studies as jobs: the result a worker thread hands back, its completion callback, and
// cancel. References derived here: the logistic map's fixed point 1 - 1/r loses stability where its
// multiplier 2 - r reaches -1, at r = 3.
#include "engine/continuation/orbit_study_run.h"
#include "engine/jobs/continuation_job.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;

namespace {

std::shared_ptr<const study::ResolvedEquilibriumStudy> logistic_branch() {
    study::EquilibriumStudy s;
    s.model = {"", "par r=2.6\ninit x=0.2\nx(t+1)=r*x*(1-x)\ndone\n"};
    s.analysis = study::EquilibriumAnalysis::OrbitContinuation;
    s.parameter = std::string("r"); // (a literal assigned trips GCC 12 -Wrestrict, PR 105329)
    s.from = 2.5;
    s.to = 3.5;
    s.start = {{"x", 0.2}};
    s.orbit.kind = study::OrbitKind::Map;
    s.orbit.transient_periods = 200;
    s.step = 0.05;
    s.max_step = 0.1;
    const auto resolved = study::resolve_equilibrium_study(s, ".");
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

} // namespace

TEST_CASE("a continuation job hands back the orbit branch with its period doubling", "[jobs][continuation]") {
    std::atomic<int> callbacks{0};
    jobs::ContinuationJobOptions options;
    options.on_finished = [&](jobs::JobState state) {
        CHECK(state == jobs::JobState::Succeeded);
        ++callbacks;
    };
    const auto job = jobs::submit_continuation(logistic_branch(), options);
    job->wait();
    CHECK(callbacks == 1); // wait() returns after the callback
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    CHECK(job->failure().empty());
    const auto result = job->result();
    REQUIRE(result);
    CHECK_FALSE(result->cancelled);
    CHECK_FALSE(result->equilibria);
    REQUIRE(result->orbit);
    int doublings = 0;
    for (const auto& p : result->orbit->branch.points) {
        CHECK(p.unknowns[0] == Approx(1 - 1 / p.parameter).margin(1e-9));
        if (p.label == "PD") {
            CHECK(p.parameter == Approx(3.0).margin(1e-8));
            ++doublings;
        }
    }
    CHECK(doublings == 1);
}

TEST_CASE("a cancelled continuation job ends with what it had", "[jobs][continuation]") {
    auto study = logistic_branch();
    auto changed = std::make_shared<study::ResolvedEquilibriumStudy>(*study);
    changed->study.step = 1e-6; // a branch of many tiny steps: still running when cancelled
    changed->study.max_step = 1e-6;
    changed->study.max_points = 1000000;
    const auto job = jobs::submit_continuation(changed);
    job->cancel();
    job->wait();
    REQUIRE(job->state() == jobs::JobState::Cancelled);
    REQUIRE(job->result());
    CHECK(job->result()->cancelled);
}
