// Float stiff runs: the stiff GPU benchmark's Robertson ensemble (k3 = linspace(0, 1e4, 2^23),
// k1 = 0.04, k2 = 3e7, y0 = (1, 0, 0), t to 1e5, initial step 1e-3, rtol 1e-3, atol 1e-6, float),
// at the kernel level in float (the CPU backend computes in double), with the generated model's
// arithmetic and the study defaults' step limits, on the two stretches of it that matter: every one
// of its first 3000 systems (k3 < 3.6, where Rodas4's failures lie: there the fast reaction's
// unstable half-line y2 < -k3/k2 is closest) and a spread over the whole range. Every system
// finishes within 200 attempted steps (the benchmark's plain per-thread Rosenbrock23 needs about 40
// accepted ones), ends within the tolerances of the same run in double, and within ten times them of
// a double-precision Rodas4 run at 1e-8 / 1e-12.
//
// Rodas4 is run with atol 1e-8 on y1 and y2 (the concentrations that decay to zero): at 1e-6 its
// accepted steps (from t ~ 2.5e3, up to 1e4 long) let y1 and y2 of systems 199-275 (k3 0.24-0.33)
// go negative, to a few times atol (y1 -3.6e-6, y2 -5e-6), and from there the exact ODE itself
// blows up (y2' = -k2 y2^2 wins once y2 < -k3/k2, about -1e-8 here): 46 of the first 3000 systems
// fail in float and 49 in double (the double runs follow y2 to -40), so that is the tolerance's
// doing, not float's; min_shrink 0.2 leaves 45 and 48 (see the last case for Rosenbrock23).
#include "bif/integrators.h"
#include "engine/study/study.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace bif;

namespace {

// robertson.ode as the code generator writes it (k1, k2, k3 in p[0..2]).
template <class Real>
struct Robertson {
    using real = Real;
    static constexpr int num_states = 3;
    static constexpr int num_params = 3;
    static constexpr int num_param_slots = 3;
    static constexpr int num_events = 0;
    static constexpr int num_aux = 0;
    static constexpr int num_observables = 0;
    static constexpr int dimension() { return 3; }
    static constexpr int event_count() { return 0; }
    static constexpr int param_slot_count() { return 3; }
    static constexpr int aux_count() { return 0; }
    static constexpr int observable_count() { return 0; }
    static void complete_parameters(real*) {}
    static void rhs(real, const real* y, const real* p, real* dydt) {
        const real v0 = (p[2] * y[1]) * y[2];
        const real v2 = p[1] * (y[1] * y[1]);
        dydt[0] = -p[0] * y[0] + v0;
        dydt[1] = ((p[0] * y[0]) - v0) - v2;
        dydt[2] = v2;
    }
    static void jacobian(real, const real* y, const real* p, real* J) {
        const real v1 = p[2] * y[1], v2 = p[2] * y[2], v3 = p[1] * (real(2) * y[1]);
        J[0] = -p[0];
        J[1] = v2;
        J[2] = v1;
        J[3] = p[0];
        J[4] = -v2 - v3;
        J[5] = -v1;
        J[6] = real(0);
        J[7] = v3;
        J[8] = real(0);
    }
    static void time_derivative(real, const real*, const real*, real* dfdt) {
        dfdt[0] = dfdt[1] = dfdt[2] = 0;
    }
    static void events(real, const real*, const real*, real*) {}
    static int event_direction(int) { return 0; }
    static bool apply_reset(int, real, real*, real*) { return false; }
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
};

constexpr long kEnsemble = 8388608; // the benchmark's 2^23 systems

template <class Real>
double k3_of(long i) {
    return double(Real(1e4 * double(i) / double(kEnsemble - 1)));
}

struct Outcome {
    Status status;
    unsigned long long attempts;
    double y[3];
};

// h0: the initial step, the benchmark's 1e-3 unless given (another h0 is another rounding path
// through the same problem, as the GPU's fused multiply-adds and __powf are)
template <template <class> class Method, class Real>
Outcome robertson(long i, double rtol, double atol, double atol_y12, int max_steps, double h0 = 1e-3) {
    using M = Robertson<Real>;
    Real p[3] = {Real(0.04), Real(3e7), Real(k3_of<float>(i))};
    const Real y0[3] = {1, 0, 0};
    auto set = make_settings<Real, 3>(Real(rtol), Real(atol));
    set.atol[0] = set.atol[1] = Real(atol_y12);
    // the study's defaults for what the benchmark leaves unset (min_step, min_shrink)
    const study::SolverSettings defaults;
    set.initial_step = Real(h0);
    set.min_step = Real(defaults.min_step);
    set.max_shrink = Real(defaults.min_shrink);
    set.max_steps = max_steps;
    auto s = make_state<M>(Real(0), y0, 3);
    Method<M> st;
    const Status r = integrate(M{}, st, s, p, Real(1e5), set);
    return {r, s.accepted + s.rejected, {double(s.y[0]), double(s.y[1]), double(s.y[2])}};
}

template <template <class> class Method>
void check_float_runs(double atol_y12) {
    std::vector<long> systems;
    for (long i = 0; i < 3000; ++i)
        systems.push_back(i);
    for (long j = 0; j <= 2000; ++j)
        systems.push_back(j * (kEnsemble - 1) / 2000);
    int failed = 0;
    unsigned long long most = 0;
    for (const long i : systems) {
        const Outcome run = robertson<Method, float>(i, 1e-3, 1e-6, atol_y12, 200);
        most = std::max(most, run.attempts);
        if (run.status != Status::Ok) {
            if (++failed <= 5)
                UNSCOPED_INFO("system " << i << " (k3 = " << k3_of<float>(i) << "): status "
                                        << int(run.status));
            continue;
        }
        // float's part: the same method and tolerances in double, to the tolerances
        const Outcome same = robertson<Method, double>(i, 1e-3, 1e-6, atol_y12, 100000);
        // the global error: a tight Rodas4 run in double, to ten times the tolerances (a second-
        // order method at rtol 1e-3 accumulates some 0.5% over the decay of y1)
        const Outcome ref = robertson<Rodas4, double>(i, 1e-8, 1e-12, 1e-12, 100000);
        REQUIRE(same.status == Status::Ok);
        REQUIRE(ref.status == Status::Ok);
        for (int c = 0; c < 3; ++c) {
            const double atol = c < 2 ? atol_y12 : 1e-6;
            if (!(std::fabs(run.y[c] - same.y[c]) <= 2e-3 * std::fabs(same.y[c]) + 2.0 * atol))
                FAIL_CHECK("system " << i << " y" << c + 1 << ": float " << run.y[c] << ", double "
                                     << same.y[c]);
            if (!(std::fabs(run.y[c] - ref.y[c]) <= 1e-2 * std::fabs(ref.y[c]) + 10.0 * atol))
                FAIL_CHECK("system " << i << " y" << c + 1 << ": float " << run.y[c] << ", reference "
                                     << ref.y[c]);
        }
    }
    INFO(failed << " of " << systems.size() << " systems failed; at most " << most << " attempted steps");
    CHECK(failed == 0);
    CHECK(most < 200);
}

} // namespace

TEST_CASE("float Rosenbrock23: every Robertson system of the stiff benchmark finishes",
          "[engine][stiff][float]") {
    check_float_runs<Rosenbrock23>(1e-6);
}

TEST_CASE("float Rodas4: every Robertson system of the stiff benchmark finishes with y1, y2 held to 1e-8",
          "[engine][stiff][float]") {
    check_float_runs<Rodas4>(1e-8);
}

// The one float Rosenbrock23 failure of the benchmark on the GPU (of 2^23 systems; 0 in the
// hand-written kernel, which cut rejected steps by at most 5) is none of float's: for k3 near 0.2
// (systems 150-300) y1 has decayed to ~1e-18 by t = 1e3 while atol 1e-6 lets the computed y1 drift
// to -1e-8; then y2' = k1 y1 < 0 takes y2 below -k3/k2, where the exact ODE blows up
// (y2' ~ -k2 y2^2, in ~1/(k2 |y2|)). The L-stable method's large steps damp that mode back; a
// controller that cut a rejected step by up to 10 (min_shrink 0.1, the study's default until
// issue 36) came down to steps that resolve it and followed it to a step underflow: 27 of 120000
// runs of systems 0-600 (200 initial steps each) in float, 7 of 15000 of systems 150-300 in double;
// with 0.2 (Hairer and Wanner's DOPRI5 and RODAS) none of either. Here: 9 of 9000 with 0.1.
// Rodas4's failures are the same blow-up but come from larger excursions (y1 to -3e-6) and stay
// with 0.2; they go with atol 1e-8 on y1 and y2 (above).
TEST_CASE("float Rosenbrock23 steps over Robertson's spurious blow-up with the study's default controller",
          "[engine][stiff][float]") {
    int failed = 0, runs = 0;
    for (long i = 150; i < 250; ++i) {
        for (int v = 0; v < 90; ++v) {
            const Outcome run =
                robertson<Rosenbrock23, float>(i, 1e-3, 1e-6, 1e-6, 2000, 1e-3 * (1.0 + 1e-4 * v));
            ++runs;
            if (run.status == Status::Ok) continue;
            if (++failed <= 5)
                UNSCOPED_INFO("system " << i << " (k3 = " << k3_of<float>(i) << "), initial step 1e-3 (1 + "
                                        << v << "e-4): status " << int(run.status) << ", y2 " << run.y[1]);
        }
    }
    INFO(failed << " of " << runs << " runs failed");
    CHECK(failed == 0);
}
