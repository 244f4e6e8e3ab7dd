// Dormand-Prince 5(4), FSAL, adaptive, with Hairer's fourth-order dense output.
// Tableau: J. R. Dormand and P. J. Prince, J. Comput. Appl. Math. 6 (1980) 19-26, Table 2
// (also Hairer, Norsett & Wanner I, II.5 Table 5.2); below with b the fifth-order weights, which
// are propagated, and e = b - b* against the fourth-order ones,
//   b* = (5179/57600, 0, 7571/16695, 393/640, -92097/339200, 187/2100, 1/40).
// The seventh stage is f(t+h, y_new): the first stage of the next step (FSAL).
// Dense output (Hairer, Norsett & Wanner I, II.6, and Hairer's DOPRI5 code, CONTD5):
//   u(theta) = y0 + theta (r1 + (1 - theta)(r2 + theta (r3 + (1 - theta) r4)))
//   r1 = y1 - y0, r2 = h f0 - r1, r3 = r1 - h f1 - r2, r4 = h sum_i d_i k_i.
// Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/steppers/endpoint_derivatives.h"
#include "bif/steppers/tableau.h"

namespace bif {

struct DormandPrinceTableau {
    static constexpr int stages = 6;
    static constexpr double c[6] = {0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1};
    static constexpr double a[6][6] = {
        {},
        {1.0 / 5.0},
        {3.0 / 40.0, 9.0 / 40.0},
        {44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0},
        {19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0},
        {9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0}};
    static constexpr double b[6] = {35.0 / 384.0,     0,          500.0 / 1113.0, 125.0 / 192.0,
                                    -2187.0 / 6784.0, 11.0 / 84.0};
    static constexpr int b_divisor = 1;
    static constexpr double e[7] = {
        71.0 / 57600.0, 0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0};
    static constexpr bool fsal = true;
    static constexpr double d[7] = {-12715105075.0 / 11282082432.0,  0,
                                    87487479700.0 / 32700410799.0,   -10690763975.0 / 1880347072.0,
                                    701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                                    69997945.0 / 29380423.0};
};

template <class Model>
struct Dopri5 : EndpointDerivatives<Model, true> {
    using real = typename Model::real;
    static constexpr int order = 5;
    static constexpr int error_order = 4;

    real dense[Model::num_states] = {}; // r4 / h of the last attempt: sum_i d_i k_i

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        real err[Model::num_states];
        ExplicitStages<DormandPrinceTableau, Model> stages{this->f0, this->f1};
        stages.step(m, t, y, p, TableauStepFactors<DormandPrinceTableau, real>{h}, y_new, err,
                    [&](int i) { dense[i] = stages.template weighted<row_dense>(i); });
        return scaled_error(y, y_new, err, m.dimension(), s);
    }

    BIF_HD void state_at(real theta, real h, const real* y0, const real* y1, int n, real* out) const {
        const real u = real(1) - theta;
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            const real r1 = y1[i] - y0[i];
            const real r2 = h * this->f0[i] - r1;
            const real r3 = r1 - h * this->f1[i] - r2;
            const real r4 = h * dense[i];
            out[i] = y0[i] + theta * (r1 + u * (r2 + theta * (r3 + u * r4)));
        }
    }
};

} // namespace bif
