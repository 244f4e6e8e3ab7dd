// The classical fourth-order Runge-Kutta method, fixed step (Kutta 1901; Hairer, Norsett & Wanner I,
// II.1 Table 1.2, "the" Runge-Kutta method):
//   c = (0, 1/2, 1/2, 1),  a21 = 1/2, a32 = 1/2, a43 = 1,  b = (1/6, 1/3, 1/3, 1/6).
// No error estimate: attempt() returns 0 and the controller keeps the step. Dense output: cubic
// Hermite from the end-point derivatives, which are the first stages of the neighbouring steps.
//
// Stepper interface (shared by every file in this folder; the driver in bif/integrate.h uses it):
//   order, error_order (0: no error estimate), ready (false until start())
//   bool start(m, t, y, p)          f0 = f(t, y); false when f0 is not finite
//   real attempt(m, t, y, p, h&, y_new, settings)   one step; returns the scaled error (may shorten h)
//   void reject()                   the attempt was rejected
//   void accept(m, t, y, p, h, y_new)   the attempt was accepted: prepare f1 and the dense output
//   void state_at(theta, h, y0, y1, n, out) const   dense output inside the accepted step
//   void advance(n)                 the next step starts at y_new: f0 = f1
#pragma once

#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/steppers/hermite.h"

namespace bif {

template <class Model>
struct Rk4 {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int order = 4;
    static constexpr int error_order = 0;

    bool ready = false;
    real f0[N] = {}; // f(t_n, y_n)
    real f1[N] = {}; // f(t_{n+1}, y_{n+1}) once accepted
    // h / 2 and h / 6 of the step size `fractions_of`: a fixed step repeats it, and a correctly
    // rounded division costs a GPU about as much as a right-hand side (the same quotients, worked
    // out once; the test compares bits, as h == fractions_of but without an FP64 instruction)
    real fractions_of = real(0);
    real half = real(0);
    real sixth = real(0);

    // The settings' fixed step comes with its fractions (fill_fixed_step, the same arithmetic), read
    // from the settings rather than recomputed: on a GPU they are then warp-uniform operands.
    template <class Settings>
    BIF_HD void prepare_fixed_step(real h, const Settings& s) {
        fractions_of = h;
        if (bits_of(h) == bits_of(s.fixed_step)) {
            half = s.fixed_half;
            sixth = s.fixed_sixth;
        } else {
            half = real(0.5) * h;
            sixth = h / real(6);
        }
    }

    BIF_HD bool start(const Model& m, real t, const real* y, const real* p) {
        m.rhs(t, y, p, f0);
        ready = true;
        return all_finite(f0, m.dimension());
    }

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings&) {
        const int n = m.dimension();
        if (bits_of(h) != bits_of(fractions_of)) { // on the integer units
            fractions_of = h;
            half = real(0.5) * h;
            sixth = h / real(6);
        }
        real k[N];
        real acc[N];
        real tmp[N];
        // k2 = f(t + h/2, y + h/2 k1)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + half * f0[i];
        m.rhs(t + half, tmp, p, k);
        // acc = k1 + 2 k2;  k3 = f(t + h/2, y + h/2 k2)
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            acc[i] = f0[i] + real(2) * k[i];
            tmp[i] = y[i] + half * k[i];
        }
        m.rhs(t + half, tmp, p, k);
        // acc += 2 k3;  k4 = f(t + h, y + h k3)
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            acc[i] += real(2) * k[i];
            tmp[i] = y[i] + h * k[i];
        }
        m.rhs(t + h, tmp, p, k);
        // y_new = y + h/6 (k1 + 2 k2 + 2 k3 + k4)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y_new[i] = y[i] + sixth * (acc[i] + k[i]);
        return real(0);
    }

    BIF_HD void reject() {}

    BIF_HD void accept(const Model& m, real t, const real*, const real* p, real h, const real* y_new) {
        m.rhs(t + h, y_new, p, f1);
    }

    BIF_HD void state_at(real theta, real h, const real* y0, const real* y1, int n, real* out) const {
        hermite_interpolate(theta, h, y0, y1, f0, f1, n, out);
    }

    BIF_HD void advance(int n) { copy_n(f1, n, f0); }
};

} // namespace bif
