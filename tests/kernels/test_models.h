// Hand-written models following kernels/bif/model_contract.h, for the integrator tests.
#pragma once

#include "bif/config.h"
#include "bif/model_contract.h"

#include <cmath>

namespace testmodels {

// No-op parts that most test models share; a model overrides what it has.
template <class Real>
struct DefaultsFor {
    using real = Real;
    static constexpr int num_params = 0;
    static constexpr int num_param_slots = 0;
    static constexpr int num_events = 0;
    static constexpr int num_aux = 0;
    static constexpr int num_observables = 0;
    static constexpr int event_count() { return 0; }
    static constexpr int param_slot_count() { return 0; }
    static constexpr int aux_count() { return 0; }
    static constexpr int observable_count() { return 0; }
    static void complete_parameters(real*) {}
    static void events(real, const real*, const real*, real*) {}
    static int event_direction(int) { return 1; }
    static bool apply_reset(int, real, real*, real*) { return false; }
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
};
using Defaults = DefaultsFor<double>;

// y' = y cos t, y(0) = 1: y = exp(sin t). Non-autonomous, so Rosenbrock's f_t terms matter.
struct ExpSin : Defaults {
    static constexpr int num_states = 1;
    static constexpr int dimension() { return 1; }
    static void rhs(real t, const real* y, const real*, real* f) { f[0] = y[0] * std::cos(t); }
    static void jacobian(real t, const real*, const real*, real* J) { J[0] = std::cos(t); }
    static void time_derivative(real t, const real* y, const real*, real* ft) { ft[0] = -y[0] * std::sin(t); }
    static double exact(double t) { return std::exp(std::sin(t)); }
};

// Harmonic oscillator x' = v, v' = -x with observable x and the section event x = 0 (any direction).
struct Oscillator : Defaults {
    static constexpr int num_states = 2;
    static constexpr int num_events = 1;
    static constexpr int num_observables = 1;
    static constexpr int dimension() { return 2; }
    static constexpr int event_count() { return 1; }
    static constexpr int observable_count() { return 1; }
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = y[1];
        f[1] = -y[0];
    }
    static void jacobian(real, const real*, const real*, real* J) {
        J[0] = 0;
        J[1] = 1;
        J[2] = -1;
        J[3] = 0;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
    static int event_direction(int) { return 2; }
    static void observables(real, const real* y, const real*, real* o) { o[0] = y[0]; }
};

// Robertson's chemical kinetics (Test Set for IVP Solvers, problem ROBER).
struct Robertson : Defaults {
    static constexpr int num_states = 3;
    static constexpr int dimension() { return 3; }
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
        f[2] = 3e7 * y[1] * y[1];
        f[1] = -f[0] - f[2];
    }
    static void jacobian(real, const real* y, const real*, real* J) {
        J[0] = -0.04;
        J[1] = 1e4 * y[2];
        J[2] = 1e4 * y[1];
        J[3] = 0.04;
        J[4] = -1e4 * y[2] - 6e7 * y[1];
        J[5] = -1e4 * y[1];
        J[6] = 0;
        J[7] = 6e7 * y[1];
        J[8] = 0;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = ft[2] = 0; }
};

// Van der Pol in the Test Set's scaling (problem VDPOL): y1' = y2, y2' = ((1 - y1^2) y2 - y1)/eps,
// eps = 1e-6 (mu = 1e3 in the unscaled form, "mu = 1e6" for eps = 1/mu^2).
struct VanDerPolStiff : Defaults {
    static constexpr int num_states = 2;
    static constexpr int dimension() { return 2; }
    static constexpr double eps = 1e-6;
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = y[1];
        f[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / eps;
    }
    static void jacobian(real, const real* y, const real*, real* J) {
        J[0] = 0;
        J[1] = 1;
        J[2] = (-2 * y[0] * y[1] - 1) / eps;
        J[3] = (1 - y[0] * y[0]) / eps;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
};

// Pleiades (Test Set, problem PLEI): seven bodies with masses m_j = j in the plane,
// y = (x_1..x_7, y_1..y_7, x'_1..x'_7, y'_1..y'_7).
struct Pleiades : Defaults {
    static constexpr int num_states = 28;
    static constexpr int dimension() { return 28; }
    static void rhs(real, const real* y, const real*, real* f) {
        for (int i = 0; i < 14; ++i)
            f[i] = y[14 + i];
        for (int i = 0; i < 7; ++i) {
            double ax = 0, ay = 0;
            for (int j = 0; j < 7; ++j) {
                if (j == i) continue;
                const double dx = y[j] - y[i], dy = y[7 + j] - y[7 + i];
                const double r2 = dx * dx + dy * dy;
                const double r3 = r2 * std::sqrt(r2);
                ax += (j + 1) * dx / r3;
                ay += (j + 1) * dy / r3;
            }
            f[14 + i] = ax;
            f[21 + i] = ay;
        }
    }
    static void jacobian(real, const real*, const real*, real* J) {
        for (int i = 0; i < 28 * 28; ++i)
            J[i] = 0;
    }
    static void time_derivative(real, const real*, const real*, real* ft) {
        for (int i = 0; i < 28; ++i)
            ft[i] = 0;
    }
};

// Lorenz (sigma, rho, beta) = (10, 28, 8/3) as parameters p[0..2].
struct Lorenz : Defaults {
    static constexpr int num_states = 3;
    static constexpr int num_params = 3;
    static constexpr int num_param_slots = 3;
    static constexpr int dimension() { return 3; }
    static constexpr int param_slot_count() { return 3; }
    static void rhs(real, const real* y, const real* p, real* f) {
        f[0] = p[0] * (y[1] - y[0]);
        f[1] = y[0] * (p[1] - y[2]) - y[1];
        f[2] = y[0] * y[1] - p[2] * y[2];
    }
    static void jacobian(real, const real* y, const real* p, real* J) {
        J[0] = -p[0];
        J[1] = p[0];
        J[2] = 0;
        J[3] = p[1] - y[2];
        J[4] = -1;
        J[5] = -y[0];
        J[6] = y[1];
        J[7] = y[0];
        J[8] = -p[2];
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = ft[2] = 0; }
};

// XPPAUT's example: x' = 1; global 1 x-1 {x=0}.
struct SawTooth : Defaults {
    static constexpr int num_states = 1;
    static constexpr int num_events = 1;
    static constexpr int dimension() { return 1; }
    static constexpr int event_count() { return 1; }
    static void rhs(real, const real*, const real*, real* f) { f[0] = 1; }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = 0; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0] - 1; }
    static int event_direction(int) { return 1; }
    static bool apply_reset(int, real, real* y, real*) {
        y[0] = 0;
        return false;
    }
};

// Bouncing ball: h' = v, v' = -g; at h = 0 falling, v <- -e v. p = (g, e).
struct BouncingBall : Defaults {
    static constexpr int num_states = 2;
    static constexpr int num_params = 2;
    static constexpr int num_param_slots = 2;
    static constexpr int num_events = 1;
    static constexpr int num_observables = 1;
    static constexpr int dimension() { return 2; }
    static constexpr int param_slot_count() { return 2; }
    static constexpr int event_count() { return 1; }
    static constexpr int observable_count() { return 1; }
    static void rhs(real, const real* y, const real* p, real* f) {
        f[0] = y[1];
        f[1] = -p[0];
    }
    static void jacobian(real, const real*, const real*, real* J) {
        J[0] = 0;
        J[1] = 1;
        J[2] = 0;
        J[3] = 0;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
    static int event_direction(int) { return -1; }
    static bool apply_reset(int, real, real* y, real* p) {
        y[1] = -p[1] * y[1];
        return false;
    }
    static void observables(real, const real* y, const real*, real* o) { o[0] = y[0]; }
};

// x' = 1 with two events x - a (k = 0) and x - b (k = 1), a = p[0], b = p[1]; direction +1;
// no resets: both are crossed inside one long step.
struct TwoThresholds : Defaults {
    static constexpr int num_states = 1;
    static constexpr int num_params = 2;
    static constexpr int num_param_slots = 2;
    static constexpr int num_events = 2;
    static constexpr int dimension() { return 1; }
    static constexpr int param_slot_count() { return 2; }
    static constexpr int event_count() { return 2; }
    static void rhs(real, const real*, const real*, real* f) { f[0] = 1; }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = 0; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
    static void events(real, const real* y, const real* p, real* g) {
        g[0] = y[0] - p[0];
        g[1] = y[0] - p[1];
    }
    static int event_direction(int) { return 1; }
};

// y' = -p0 * y + sqrt(p1): NaN right-hand side when p1 < 0; stiff for large p0.
struct Decay : Defaults {
    static constexpr int num_states = 1;
    static constexpr int num_params = 2;
    static constexpr int num_param_slots = 2;
    static constexpr int dimension() { return 1; }
    static constexpr int param_slot_count() { return 2; }
    static void rhs(real, const real* y, const real* p, real* f) { f[0] = -p[0] * y[0] + std::sqrt(p[1]); }
    static void jacobian(real, const real*, const real* p, real* J) { J[0] = -p[0]; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
};

static_assert(bif::GeneratedModel<ExpSin> && bif::GeneratedModel<Oscillator> &&
              bif::GeneratedModel<Robertson> && bif::GeneratedModel<VanDerPolStiff> &&
              bif::GeneratedModel<Pleiades> && bif::GeneratedModel<Lorenz> && bif::GeneratedModel<SawTooth> &&
              bif::GeneratedModel<BouncingBall> && bif::GeneratedModel<TwoThresholds> &&
              bif::GeneratedModel<Decay>);

} // namespace testmodels

namespace testmodels {

// The oscillator with its section event restricted to one direction.
template <int Direction>
struct OscillatorDirected : Oscillator {
    static int event_direction(int) { return Direction; }
};

// y' = -y relaxing onto y = 0, which sits inside the zone of the event g = y (never crossed).
struct Relax : Defaults {
    static constexpr int num_states = 1;
    static constexpr int num_events = 1;
    static constexpr int dimension() { return 1; }
    static constexpr int event_count() { return 1; }
    static void rhs(real, const real* y, const real*, real* f) { f[0] = -y[0]; }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = -1; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
    static int event_direction(int) { return -1; }
};

// x' = cos(t) in float: time itself must not drift over many float steps.
struct FloatForced {
    using real = float;
    static constexpr int num_states = 1, num_params = 0, num_param_slots = 0, num_events = 0, num_aux = 0,
                         num_observables = 0;
    static constexpr int dimension() { return 1; }
    static constexpr int event_count() { return 0; }
    static constexpr int param_slot_count() { return 0; }
    static constexpr int aux_count() { return 0; }
    static constexpr int observable_count() { return 0; }
    static void complete_parameters(real*) {}
    static void rhs(real t, const real*, const real*, real* f) { f[0] = bif::m::cos(t); }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = 0; }
    static void time_derivative(real t, const real*, const real*, real* ft) { ft[0] = -bif::m::sin(t); }
    static void events(real, const real*, const real*, real*) {}
    static int event_direction(int) { return 1; }
    static bool apply_reset(int, real, real*, real*) { return false; }
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
};

} // namespace testmodels
