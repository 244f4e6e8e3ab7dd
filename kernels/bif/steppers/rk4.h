// The classical fourth-order Runge-Kutta method, fixed step (Kutta 1901; Hairer, Norsett & Wanner I,
// II.1 Table 1.2, "the" Runge-Kutta method):
//   c = (0, 1/2, 1/2, 1),  a21 = 1/2, a32 = 1/2, a43 = 1,  b = (1, 2, 2, 1)/6.
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
#include "bif/steppers/endpoint_derivatives.h"
#include "bif/steppers/tableau.h"

namespace bif {

struct ClassicRk4Tableau {
    static constexpr int stages = 4;
    static constexpr double c[4] = {0, 0.5, 0.5, 1};
    static constexpr double a[4][4] = {{}, {0.5}, {0, 0.5}, {0, 0, 1}};
    static constexpr double b[4] = {1, 2, 2, 1};
    static constexpr int b_divisor = 6;
    static constexpr double e[5] = {};
    static constexpr bool fsal = false;
};

template <class Model>
struct Rk4 : EndpointDerivatives<Model, false> {
    using real = typename Model::real;
    static constexpr int order = 4;
    static constexpr int error_order = 0;

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

    // The tableau's step factors, kept: c_i h is h/2 or h, h / b_divisor is h/6.
    struct Factors {
        real h, half, sixth;
        template <int I>
        BIF_HD BIF_FORCEINLINE real node() const {
            if constexpr (ClassicRk4Tableau::c[I] == 1.0) return h;
            return half;
        }
        BIF_HD BIF_FORCEINLINE real solution() const { return sixth; }
    };

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings&) {
        if (bits_of(h) != bits_of(fractions_of)) { // on the integer units
            fractions_of = h;
            half = real(0.5) * h;
            sixth = h / real(6);
        }
        ExplicitStages<ClassicRk4Tableau, Model> stages{this->f0, this->f1};
        stages.step(m, t, y, p, Factors{h, half, sixth}, y_new, nullptr, [](int) {});
        return real(0);
    }
};

} // namespace bif
