// Lyapunov exponents of an impacting system: the bundled ball on a vibrating table
// (resources/models/bouncing_ball.ode), tangent vectors mapped through every impact by the
// saltation matrix (bif/lyapunov.h). Checked against
//   - an exact identity: each impact multiplies areas by e^2 (Holmes, J. Sound Vib. 84 (1982) 173)
//     and the free flight preserves them, so lambda1 + lambda2 = 2 ln(e) * impacts / time on any
//     trajectory, with the impacts counted here;
//   - a second method written here: Benettin's two-trajectory estimate (a neighbour at distance
//     d0, renormalised every interval, no tangent vectors), for the largest exponent;
//   - the published period-one orbit (Holmes 1982; Tufillaro, Abbott & Reilly 1992, ch. 1): it
//     exists from the normalised table acceleration a w^2 = pi (1 - e)/(1 + e) on, and its two
//     Floquet multipliers, in closed form, give both exponents, not just their sum;
//   - the same study on the native and the compiler-free code paths.
// The models run through the compiler-free evaluator (HostModel) at the kernel level, so that the
// test can count impacts and run the second method alongside.
#include "analysis_support.h"
#include "bif/integrators.h"
#include "bif/lyapunov.h"
#include "engine/codegen/host_model.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;

namespace {

using View = codegen::HostModelView<4>;
constexpr int kParams = View::num_param_slots;

const char* const kBallStudy = R"({"bifscope_study": 1, "model": {"path": "bouncing_ball.ode"},
    "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 20,
                 "averaging_time": 100, "renormalization_interval": 1}})";

struct Ball {
    std::shared_ptr<const study::ResolvedStudy> study = analysis_test::resolve(kBallStudy);
    codegen::HostModel host{study->codegen_request(codegen::Precision::Double)};
    View view{host};
    double p[kParams] = {};
    double y0[2] = {};
    double e = 0;

    Ball() {
        REQUIRE(View::fits(host));
        for (std::size_t i = 0; i < study->parameters.size(); ++i)
            p[i] = study->parameters[i];
        host.complete_parameters(p);
        y0[0] = study->initial_state.at(0);
        y0[1] = study->initial_state.at(1);
        e = p[study->model->parameter_index("e")];
    }
};

struct ImpactCounter {
    long impacts = 0;
    template <class View>
    void on_step(const View&) {}
    template <class Hit>
    void on_event(const Hit&) {
        ++impacts;
    }
};

// The model alone from y0 through `time`; y0 becomes the end state.
void settle(const View& m, double* y0, double* p, double time) {
    auto s = make_state<View>(0.0, y0, m.dimension());
    Dopri5<View> st;
    REQUIRE(integrate(m, st, s, p, time, make_settings<double, View::num_states>(1e-12, 1e-12)) ==
            Status::Ok);
    y0[0] = s.y[0];
    y0[1] = s.y[1];
}

// The ball's height above the table (the event function); below zero only when an impact was missed.
double gap(const View& m, double t, const double* y, const double* p) {
    double g[View::num_events] = {};
    m.events(t, y, p, g);
    return g[0];
}

struct Spectrum {
    double lambda[2] = {};
    double elapsed = 0;
    long impacts = 0;
};

// Both exponents by the tangent method with renormalisation every `interval`.
Spectrum tangent_spectrum(const View& m, const double* y0, double* p, double span, double interval,
                          double t0 = 0) {
    using TM = TangentModel<View, 2>;
    const TM tm{m};
    double y[TM::num_states] = {y0[0], y0[1]};
    lyapunov_start(tm, y);
    auto s = make_state<TM>(t0, y, tm.dimension());
    Dopri5<TM> st;
    const auto set = make_settings<double, TM::num_states>(1e-12, 1e-12);
    EventSettings<double, TM::num_events> ev;
    ImpactCounter counter;
    LyapunovSums<2, double> sums;
    for (int i = 1; i * interval <= span + 1e-9; ++i) {
        REQUIRE(integrate(tm, st, s, p, t0 + i * interval, set, ev, counter) == Status::Ok);
        REQUIRE(gap(m, s.t, s.y, p) > -1e-9);
        lyapunov_renormalise(tm, s.y, interval, sums);
        state_changed(s, st);
    }
    return {{sums.sum[0] / sums.elapsed, sums.sum[1] / sums.elapsed}, sums.elapsed, counter.impacts};
}

// Benettin's two-trajectory estimate: a neighbour at distance d0, pulled back to d0 along the
// separation every interval. A measurement between the two trajectories' impacts would see the
// velocity jump, not the linear separation, so it waits until both have had the same impacts.
double two_trajectory_largest(const View& m, const double* y0, double* p, double span, double interval,
                              double d0) {
    const double y1[2] = {y0[0] + d0 / std::sqrt(2.0), y0[1] + d0 / std::sqrt(2.0)};
    auto a = make_state<View>(0.0, y0, m.dimension());
    auto b = make_state<View>(0.0, y1, m.dimension());
    Dopri5<View> sa, sb;
    const auto set = make_settings<double, View::num_states>(1e-12, 1e-12);
    double sum = 0, t = 0;
    int lost = 0;
    while (t < span - 1e-9) {
        t += interval;
        for (int wait = 0;; ++wait) {
            REQUIRE(integrate(m, sa, a, p, t, set) == Status::Ok);
            REQUIRE(integrate(m, sb, b, p, t, set) == Status::Ok);
            if (a.event_count[0] == b.event_count[0]) break;
            if (wait == 100) {
                // one of them grazed the table where the other missed it: no longer neighbours.
                ++lost;
                break;
            }
            t += 1e-3;
        }
        if (a.event_count[0] != b.event_count[0]) {
            b = make_state<View>(t, a.y, m.dimension());
            b.y[0] += d0 / std::sqrt(2.0);
            b.y[1] += d0 / std::sqrt(2.0);
            b.event_count[0] = a.event_count[0];
            sb.ready = false;
            continue;
        }
        REQUIRE(gap(m, a.t, a.y, p) > -1e-9);
        const double dx = b.y[0] - a.y[0], dv = b.y[1] - a.y[1];
        const double d = std::hypot(dx, dv);
        sum += std::log(d / d0);
        b.y[0] = a.y[0] + dx * d0 / d;
        b.y[1] = a.y[1] + dv * d0 / d;
        state_changed(b, sb);
    }
    CHECK(lost <= 2);
    return sum / t;
}

double scalar(const study::Result& r, const char* name) {
    const study::NumberColumn* c = r.scalar(name);
    REQUIRE(c);
    return c->values.at(0);
}

} // namespace

TEST_CASE("bouncing ball: the exponents sum to 2 ln(e) times the impact rate",
          "[engine][lyapunov][impacts]") {
    Ball ball;
    double y0[2] = {ball.y0[0], ball.y0[1]};
    settle(ball.view, y0, ball.p, 20.0);
    const Spectrum s = tangent_spectrum(ball.view, y0, ball.p, analysis_test::sanitized ? 100 : 400, 1.0);
    INFO("exponents " << s.lambda[0] << " " << s.lambda[1] << ", " << s.impacts << " impacts");
    REQUIRE(s.impacts > 20); // about 0.3 impacts per unit time on this attractor
    const double expected = 2.0 * std::log(ball.e) * double(s.impacts) / s.elapsed;
    CHECK(s.lambda[0] + s.lambda[1] == Approx(expected).epsilon(1e-8));
    // the flight alone conserves areas, so without the saltation matrix the sum would be 0 or
    // 2 ln(e) per impact only through DR; a chaotic attractor here: one exponent positive
    CHECK(s.lambda[0] > 0.05);
}

TEST_CASE("bouncing ball: the largest exponent agrees with the two-trajectory estimate",
          "[engine][lyapunov][impacts]") {
    Ball ball;
    double y0[2] = {ball.y0[0], ball.y0[1]};
    settle(ball.view, y0, ball.p, 20.0);
    const double span = analysis_test::sanitized ? 200 : 300;
    const Spectrum tangent = tangent_spectrum(ball.view, y0, ball.p, span, 1.0);
    const double benettin = two_trajectory_largest(ball.view, y0, ball.p, span, 1.0, 1e-8);
    INFO("tangent " << tangent.lambda[0] << ", two trajectories " << benettin);
    // two estimates over a finite time of a chaotic trajectory that separates once the step sizes differ
    CHECK(tangent.lambda[0] == Approx(benettin).epsilon(0.03));
}

// The period-one orbit with the table's period T = 2 pi / w = 1 (gravity 1, table s = a sin(w t)).
// The ball leaves the table at t* with velocity T/2 and meets it again at t* + T, where it arrives
// with -T/2; the impact law then asks s'(t*) = u = (T/2)(1 - e)/(1 + e), so a w^2 cos(w t*) = w u,
// which is Holmes' threshold a w^2 >= pi (1 - e)/(1 + e). Linearising the exact impact map
// (t_n, v_n) -> (t_n+1, v_n+1) there (implicit flight time, impact law) gives multipliers with
// det = e^2 and trace = 1 + e^2 + (1 + e)^2 s''(t*), s''(t*) = -a w^2 sin(w t*); the orbit is stable
// for -2 (1 + e^2)/(1 + e)^2 < s'' < 0, Tufillaro et al.'s upper limit of a w^2. The exponents
// per unit time are ln|mu| / T: for complex multipliers both are ln(e).
struct PeriodOne {
    double e, w, a, t_star;
    // the orbit whose impacts see the table decelerating at `decel` = -s''(t*) > 0
    PeriodOne(double e_, double w_, double decel) : e(e_), w(w_) {
        const double T = 2 * M_PI / w, u = T / 2 * (1 - e) / (1 + e);
        const double along = w * u; // a w^2 cos(w t*)
        a = std::hypot(along, decel) / (w * w);
        t_star = std::atan2(decel, along) / w;
    }
    double period() const { return 2 * M_PI / w; }
    // the exponents from the closed-form multipliers, largest first
    std::pair<double, double> exponents() const {
        const double q = -a * w * w * std::sin(w * t_star);
        const double trace = 1 + e * e + (1 + e) * (1 + e) * q, det = e * e;
        const double disc = trace * trace - 4 * det;
        if (disc < 0) return {std::log(e) / period(), std::log(e) / period()};
        const double m1 = (trace + std::copysign(std::sqrt(disc), trace)) / 2, m2 = det / m1;
        const double l1 = std::log(std::fabs(m1)) / period(), l2 = std::log(std::fabs(m2)) / period();
        return {std::max(l1, l2), std::min(l1, l2)};
    }
};

TEST_CASE("bouncing ball: both exponents of the period-one orbit from its Floquet multipliers",
          "[engine][lyapunov][impacts]") {
    Ball ball;
    const double w = ball.p[ball.study->model->parameter_index("w")];
    REQUIRE(w == Approx(2 * M_PI)); // the bundled table period is 1
    const double span = analysis_test::sanitized ? 600 : 2000;
    // complex multipliers (both exponents ln e), real ones (0.95 and 0.67; -0.92 and -0.69 near the flip: the
    // saltation matrix must get each direction right, the sum alone would not show it)
    for (const double decel : {0.5, 0.005, 1.005}) {
        const PeriodOne orbit(ball.e, w, decel);
        ball.p[ball.study->model->parameter_index("a")] = orbit.a;
        // start at the apex of the flight that follows an impact at t*
        const double t0 = orbit.t_star + orbit.period() / 2;
        const double y0[2] = {orbit.a * std::sin(w * orbit.t_star) + orbit.period() * orbit.period() / 8,
                              0.0};
        const Spectrum s = tangent_spectrum(ball.view, y0, ball.p, span, orbit.period(), t0);
        // the second half alone: the first tangent vectors' projections onto the orbit's
        // directions add a term that decays only as 1/time, and the difference removes it
        const Spectrum half = tangent_spectrum(ball.view, y0, ball.p, span / 2, orbit.period(), t0);
        double lambda[2];
        for (int i = 0; i < 2; ++i)
            lambda[i] =
                (s.lambda[i] * s.elapsed - half.lambda[i] * half.elapsed) / (s.elapsed - half.elapsed);
        const auto [l1, l2] = orbit.exponents();
        INFO("table deceleration " << decel << ", a = " << orbit.a << ": exponents " << lambda[0] << " "
                                   << lambda[1] << ", closed form " << l1 << " " << l2 << ", " << s.impacts
                                   << " impacts");
        // one impact per period: the ball stays on the orbit
        CHECK(std::abs(double(s.impacts) - span / orbit.period()) <= 1);
        // the sum is exact on any orbit: every impact multiplies areas by e^2
        CHECK(lambda[0] + lambda[1] == Approx(l1 + l2).epsilon(1e-6));
        if (l1 > l2) {
            // real multipliers: the differenced estimates converge at the rate of the gap between them
            CHECK(lambda[0] == Approx(l1).margin(2e-4));
            CHECK(lambda[1] == Approx(l2).margin(2e-4));
        } else {
            // complex ones: the tangent vectors rotate, and each estimate keeps a bounded term of
            // order 1 over the averaging time (measured up to 1e-3 over 300 periods, 2e-5 over 1000)
            CHECK(lambda[0] == Approx(l1).margin(3e-3));
            CHECK(lambda[1] == Approx(l2).margin(3e-3));
        }
    }
}

TEST_CASE("bouncing ball: the evaluator gives the native code's exponents", "[engine][lyapunov][impacts]") {
    // a short average: both paths follow the same chaotic trajectory only while their rounding
    // differences (1e-13 relative) have not grown to the tolerance
    const std::string json = R"({"bifscope_study": 1, "model": {"path": "bouncing_ball.ode"},
        "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 5,
                     "averaging_time": 20, "renormalization_interval": 1},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})";
    const study::Result native = analysis_test::run(json, true);
    const study::Result evaluator = analysis_test::run(json, false);
    REQUIRE(native.status[0] == study::SystemStatus::Ok);
    REQUIRE(evaluator.status[0] == study::SystemStatus::Ok);
    CHECK(evaluator.info.code_path == study::CodePath::Evaluator);
    for (const char* name : {"lambda1", "lambda2"}) {
        INFO(name << ": native " << scalar(native, name) << ", evaluator " << scalar(evaluator, name));
        CHECK(scalar(evaluator, name) == Approx(scalar(native, name)).margin(1e-6));
    }
    CHECK(scalar(native, "lambda1") > 0.05);
}

// Rodas4 studies generate the tangent system's second derivatives (codegen::Request::
// tangent_derivatives); on a limit cycle the exponents are deterministic, so the methods and
// the code paths must agree closely.
TEST_CASE("van der Pol: Rodas4 exponents agree with RKCK45 on both code paths",
          "[engine][lyapunov][rosenbrock]") {
    auto study = [](const char* method, const char* tolerance) {
        return std::string(R"({"bifscope_study": 1, "model": {"path": "vanderpol.ode"},
            "parameters": {"mu": 1.5},
            "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 50,
                         "averaging_time": 300, "renormalization_interval": 1},
            "solver": {"method": ")") +
               method + R"(", "rtol": )" + tolerance + R"(, "atol": )" + tolerance + "}}";
    };
    REQUIRE(analysis_test::resolve(study("rodas4", "1e-9"))
                ->codegen_request(codegen::Precision::Double)
                .tangent_derivatives);
    const study::Result reference = analysis_test::run(study("rkck45", "1e-12"), true);
    const study::Result native = analysis_test::run(study("rodas4", "1e-9"), true);
    const study::Result evaluator = analysis_test::run(study("rodas4", "1e-9"), false);
    for (const char* name : {"lambda1", "lambda2"}) {
        INFO(name << ": RKCK45 " << scalar(reference, name) << ", Rodas4 native " << scalar(native, name)
                  << ", evaluator " << scalar(evaluator, name));
        CHECK(scalar(native, name) == Approx(scalar(reference, name)).margin(1e-4));
        CHECK(scalar(evaluator, name) == Approx(scalar(native, name)).margin(1e-9));
    }
}
