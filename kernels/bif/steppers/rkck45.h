// Cash-Karp embedded Runge-Kutta 4(5), adaptive; the solution is propagated with the fifth-order
// weights, the difference to the fourth-order ones is the error estimate (as in MPGOS and in
// Niemeyer & Sung's RKCK). Tableau: J. R. Cash and A. H. Karp, ACM TOMS 16 (1990) 201-222, Table 5
// (below, with b = b5 and b* = b4). Not FSAL: accept() evaluates f(t_{n+1}, y_{n+1}), which is the
// next step's first stage, so a step still costs six evaluations. Dense output: cubic Hermite.
// Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/steppers/endpoint_derivatives.h"
#include "bif/steppers/tableau.h"

namespace bif {

struct CashKarpTableau {
    static constexpr int stages = 6;
    static constexpr double c[6] = {0, 1.0 / 5.0, 3.0 / 10.0, 3.0 / 5.0, 1, 7.0 / 8.0};
    static constexpr double a[6][6] = {
        {},
        {1.0 / 5.0},
        {3.0 / 40.0, 9.0 / 40.0},
        {3.0 / 10.0, -9.0 / 10.0, 6.0 / 5.0},
        {-11.0 / 54.0, 5.0 / 2.0, -70.0 / 27.0, 35.0 / 27.0},
        {1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0}};
    static constexpr double b[6] = {37.0 / 378.0, 0, 250.0 / 621.0, 125.0 / 594.0, 0, 512.0 / 1771.0};
    static constexpr int b_divisor = 1;
    // e = b - b*, b* = (2825/27648, 0, 18575/48384, 13525/55296, 277/14336, 1/4)
    static constexpr double e[7] = {
        b[0] - 2825.0 / 27648, 0, b[2] - 18575.0 / 48384, b[3] - 13525.0 / 55296, -277.0 / 14336,
        b[5] - 1.0 / 4,        0};
    static constexpr bool fsal = false;
};

template <class Model>
struct Rkck45 : EndpointDerivatives<Model, false> {
    using real = typename Model::real;
    static constexpr int order = 5;
    static constexpr int error_order = 4;

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        real err[Model::num_states];
        ExplicitStages<CashKarpTableau, Model> stages{this->f0, this->f1};
        stages.step(m, t, y, p, TableauStepFactors<CashKarpTableau, real>{h}, y_new, err, [](int) {});
        return scaled_error(y, y_new, err, m.dimension(), s);
    }
};

} // namespace bif
