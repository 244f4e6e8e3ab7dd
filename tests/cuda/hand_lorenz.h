// Lorenz (1963) written by hand after kernels/bif/model_contract.h, for the CUDA tests that must not
// depend on the code generator. Parameters: sigma, rho, beta, and one derived slot beta*rho. One
// event (x crosses 0 upwards) whose reset sets the derived slot's source beta to 8/3 and stops.
#pragma once

#include "bif/config.h"

template <class Real>
struct HandLorenz {
    using real = Real;
    static constexpr int num_states = 3;
    static constexpr int num_params = 3;
    static constexpr int num_param_slots = 4;
    static constexpr int num_events = 1;
    static constexpr int num_aux = 1;
    static constexpr int num_observables = 1;
    BIF_HD static constexpr int dimension() { return num_states; }
    BIF_HD static constexpr int event_count() { return num_events; }
    BIF_HD static constexpr int param_slot_count() { return num_param_slots; }
    BIF_HD static constexpr int aux_count() { return num_aux; }
    BIF_HD static constexpr int observable_count() { return num_observables; }

    BIF_HD static void complete_parameters(real* p) { p[3] = p[2] * p[1]; }
    BIF_HD static void rhs(real, const real* y, const real* p, real* dydt) {
        dydt[0] = p[0] * (y[1] - y[0]);
        dydt[1] = y[0] * (p[1] - y[2]) - y[1];
        dydt[2] = y[0] * y[1] - p[2] * y[2];
    }
    BIF_HD static void jacobian(real, const real* y, const real* p, real* J) {
        J[0] = -p[0];
        J[1] = p[0];
        J[2] = real(0);
        J[3] = p[1] - y[2];
        J[4] = real(-1);
        J[5] = -y[0];
        J[6] = y[1];
        J[7] = y[0];
        J[8] = -p[2];
    }
    BIF_HD static void time_derivative(real, const real*, const real*, real* dfdt) {
        dfdt[0] = dfdt[1] = dfdt[2] = real(0);
    }
    BIF_HD static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
    BIF_HD static int event_direction(int) { return 1; }
    BIF_HD static bool apply_reset(int, real, real*, real* p) {
        p[2] = real(8) / real(3);
        complete_parameters(p);
        return true;
    }
    BIF_HD static void aux(real, const real* y, const real*, real* a) {
        a[0] = bif::m::sqrt(y[0] * y[0] + y[1] * y[1]);
    }
    BIF_HD static void observables(real, const real* y, const real* p, real* o) { o[0] = y[2] - p[3]; }
};
