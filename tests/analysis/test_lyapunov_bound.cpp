// Lyapunov runs under the model's bound (XPPAUT's `bound`, solver.bound): the bound watches the
// model's own states, never the tangent vectors, which grow far beyond it between
// renormalisations. And the bundled ball on a vibrating table (resources/studies/
// bouncing_ball_lyapunov.json), whose 64 of 600 systems used to end `escaped`: not a tangent
// vector but the ball itself left the bound, fallen through the table after chattering to rest
// (a Zeno point of its impacts, which the model has no sticking law for). Checked:
//   - Lorenz with a bound just above its attractor: its largest exponent with a tangent vector
//     growing ~e^9 past the bound between renormalisations, and its spectrum, the same bit for bit
//     as without a bound; the spectrum sums to the constant trace -(sigma + 1 + beta);
//   - the bundled study: no system escapes; a system either runs its whole averaging time or stops
//     with `events_accumulate` where the ball would fall through;
//   - every system of a spread over the study's range, run here at the kernel level where impacts
//     can be counted: lambda1 + lambda2 = 2 ln(e) * impacts / time (Holmes 1982: each impact
//     multiplies areas by e^2, the flight keeps them), and the ball never ends below the table.
#include "analysis_support.h"
#include "bif/integrators.h"
#include "bif/lyapunov.h"
#include "engine/codegen/host_model.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace bif;

namespace {

double scalar(const study::Result& r, const char* name) {
    const study::NumberColumn* c = r.scalar(name);
    REQUIRE(c);
    return c->values.at(0);
}

// The largest exponent renormalised every 10 time units (the tangent vector grows by about e^9 between
// renormalisations, far beyond a bound of 50), or the spectrum renormalised every unit.
std::string lorenz_exponents(const char* exponents, int interval, const char* bound) {
    return std::string(R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
        "analysis": {"kind": "lyapunov", "exponents": ")") +
           exponents + R"(", "transient_time": 50, "averaging_time": 1000, "renormalization_interval": )" +
           std::to_string(interval) + R"(},
        "solver": {"method": "dopri5", "rtol": 1e-9, "atol": 1e-9, "initial_step": 1e-2, "bound": )" +
           bound + "}}";
}

std::string text_of(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string kStudiesDir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";

std::shared_ptr<const study::ResolvedStudy> bundled_ball_study() {
    std::string json = text_of(kStudiesDir + "/bouncing_ball_lyapunov.json");
    // a sanitizer build runs every tenth system of the sweep
    const std::string count = "\"count\": 600";
    REQUIRE(json.find(count) != std::string::npos);
    if (analysis_test::sanitized) json.replace(json.find(count), count.size(), "\"count\": 60");
    const study::StudyReadResult read = study::read_study_json(json);
    REQUIRE(read.study);
    REQUIRE(!study::has_errors(read.problems));
    const study::ResolveResult resolved = study::resolve_study(*read.study, kStudiesDir);
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

using View = codegen::HostModelView<4>;
using TM = TangentModel<View, 2>;

struct ImpactCounter {
    long impacts = 0;
    template <class V>
    void on_step(const V&) {}
    template <class Hit>
    void on_event(const Hit&) {
        ++impacts;
    }
};

// The ball's height above the table (the event function).
double gap(const View& m, double t, const double* y, const double* p) {
    double g[View::num_events] = {};
    m.events(t, y, p, g);
    return g[0];
}

struct BallRun {
    Status status = Status::Ok;
    double lambda_sum = 0; // lambda1 + lambda2 over the renormalised intervals
    double elapsed = 0;
    long impacts = 0; // within those intervals
    double lowest_gap = 0;
};

// The study's Lyapunov program at the kernel level (transient, then the tangent system renormalised
// every unit of time), with the study's solver settings, counting impacts.
BallRun ball_lyapunov(const study::ResolvedStudy& study, const View& m, double* p, double transient,
                      double averaging) {
    const double y0[2] = {study.initial_state.at(0), study.initial_state.at(1)};
    auto base_settings = make_settings<double, View::num_states>(1e-10, 1e-10);
    base_settings.initial_step = 1e-3;
    base_settings.min_step = study.study.solver.min_step;
    base_settings.max_shrink = study.study.solver.min_shrink;
    base_settings.bound = study.study.solver.bound;
    REQUIRE(base_settings.bound > 0); // the model's @ bound=1000
    auto base = make_state<View>(0.0, y0, m.dimension());
    Dopri5<View> base_stepper;
    BallRun run;
    run.status = integrate(m, base_stepper, base, p, transient, base_settings);
    if (run.status != Status::Ok) return run;

    const TM tm{m};
    SolverSettings<double, TM::num_states> set;
    set.set_tolerances(1e-10, 1e-10);
    set.initial_step = base_settings.initial_step;
    set.min_step = base_settings.min_step;
    set.max_shrink = base_settings.max_shrink;
    set.bound = base_settings.bound;
    set.bounded = m.dimension();
    auto s = make_state<TM>(base.t, base.y, m.dimension());
    s.h = base.h;
    lyapunov_start(tm, s.y);
    Dopri5<TM> st;
    EventSettings<double, TM::num_events> ev;
    LyapunovSums<2, double> sums;
    ImpactCounter counter;
    run.lowest_gap = gap(m, s.t, s.y, p);
    for (int i = 1; i <= int(averaging); ++i) {
        const long impacts_before = counter.impacts;
        run.status = integrate(tm, st, s, p, transient + i, set, ev, counter);
        if (run.status != Status::Ok) {
            counter.impacts = impacts_before; // the interval cut short is not averaged
            break;
        }
        run.lowest_gap = std::min(run.lowest_gap, gap(m, s.t, s.y, p));
        lyapunov_renormalise(tm, s.y, 1.0, sums);
        state_changed(s, st);
    }
    run.lambda_sum = (sums.sum[0] + sums.sum[1]) / sums.elapsed;
    run.elapsed = sums.elapsed;
    run.impacts = counter.impacts;
    return run;
}

} // namespace

TEST_CASE("Lyapunov: the bound watches the states, not the tangent vectors", "[engine][lyapunov][bound]") {
    // the attractor lies within |x| < 20, |y| < 28, 0 < z < 49
    const study::Result free = analysis_test::run(lorenz_exponents("largest", 10, "0"));
    const study::Result bounded = analysis_test::run(lorenz_exponents("largest", 10, "50"));
    REQUIRE(free.status[0] == study::SystemStatus::Ok);
    REQUIRE(bounded.status[0] == study::SystemStatus::Ok);
    for (const char* name : {"lambda1", "averaged_time"}) {
        INFO(name << ": without a bound " << scalar(free, name) << ", with bound 50 "
                  << scalar(bounded, name));
        CHECK(scalar(bounded, name) == scalar(free, name));
    }
    CHECK(scalar(bounded, "lambda1") == Approx(0.906).margin(0.05));

    const study::Result spectrum_free = analysis_test::run(lorenz_exponents("spectrum", 1, "0"));
    const study::Result spectrum = analysis_test::run(lorenz_exponents("spectrum", 1, "50"));
    REQUIRE(spectrum.status[0] == study::SystemStatus::Ok);
    for (const char* name : {"lambda1", "lambda2", "lambda3"})
        CHECK(scalar(spectrum, name) == scalar(spectrum_free, name));
    // the flow contracts volumes at the constant rate of its divergence
    const double sum =
        scalar(spectrum, "lambda1") + scalar(spectrum, "lambda2") + scalar(spectrum, "lambda3");
    CHECK(sum == Approx(-(10.0 + 1.0 + 8.0 / 3.0)).epsilon(1e-6));
}

TEST_CASE("Lyapunov: the bundled bouncing-ball study escapes nowhere", "[engine][lyapunov][bound][impacts]") {
    const auto study = bundled_ball_study();
    REQUIRE(study->study.solver.bound == 1000.0);
    const study::Result r = analysis_test::run(*study);
    std::size_t ok = 0, accumulated = 0;
    const study::NumberColumn* averaged = r.scalar("averaged_time");
    REQUIRE(averaged);
    for (std::size_t i = 0; i < r.status.size(); ++i) {
        INFO("system " << i << ": " << study::name_of(r.status[i]));
        REQUIRE(
            (r.status[i] == study::SystemStatus::Ok || r.status[i] == study::SystemStatus::EventsAccumulate));
        if (r.status[i] == study::SystemStatus::Ok) {
            ++ok;
            CHECK(averaged->values[i] == Approx(500.0));
        } else {
            ++accumulated;
        }
    }
    INFO(ok << " ok, " << accumulated << " stopped where the ball would fall through the table");
    CHECK(ok > r.status.size() / 2);
}

TEST_CASE("Lyapunov: bouncing ball systems obey the sum rule and stay above the table",
          "[engine][lyapunov][bound][impacts]") {
    const auto study = bundled_ball_study();
    codegen::HostModel host{study->codegen_request(codegen::Precision::Double)};
    const View m{host};
    REQUIRE(View::fits(host));
    double p[View::num_param_slots] = {};
    for (std::size_t i = 0; i < study->parameters.size(); ++i)
        p[i] = study->parameters[i];
    const int slot_a = study->model->parameter_index("a");
    const double e = p[study->model->parameter_index("e")];
    // a spread over the study's range and the values that used to escape at its start (a = 0.06,
    // 0.0604, 0.0614, 0.0618): a ball that chatters to rest there within the averaging time
    std::vector<double> amplitudes = {0.06, 0.0604007, 0.0614023, 0.0618030};
    const int spread = analysis_test::sanitized ? 4 : 24;
    for (int i = 0; i < spread; ++i)
        amplitudes.push_back(0.0625 + 0.0575 * i / (spread - 1));
    const double averaging = analysis_test::sanitized ? 100 : 300;
    int stopped = 0;
    for (const double a : amplitudes) {
        p[slot_a] = a;
        host.complete_parameters(p);
        const BallRun run = ball_lyapunov(*study, m, p, 50, averaging);
        INFO("a = " << a << ": status " << int(run.status) << ", " << run.impacts << " impacts in "
                    << run.elapsed << ", lambda1 + lambda2 = " << run.lambda_sum << ", lowest gap "
                    << run.lowest_gap);
        REQUIRE((run.status == Status::Ok || run.status == Status::EventsAccumulate));
        stopped += run.status == Status::EventsAccumulate;
        CHECK(run.lowest_gap > -1e-9);
        if (run.elapsed > 0) {
            const double expected = 2.0 * std::log(e) * double(run.impacts) / run.elapsed;
            CHECK(run.lambda_sum == Approx(expected).epsilon(1e-8).margin(1e-10));
        }
    }
    INFO(stopped << " of " << amplitudes.size() << " chattered to rest");
    CHECK(stopped < int(amplitudes.size()));
}
