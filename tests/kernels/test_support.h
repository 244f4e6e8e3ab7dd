// Helpers shared by the kernel tests: run one system from t0 to t1 with a given stepper.
#pragma once

#include "bif/integrators.h"

#include <array>

namespace kt {

template <template <class> class Stepper, class Model, class Observer = bif::NoObserver>
bif::SystemState<Model> run(const Model& m, const double* y0, double t0, double t1,
                            const bif::SolverSettings<double, Model::num_states>& s, double* p = nullptr,
                            Observer* obs = nullptr,
                            const bif::EventSettings<double, Model::num_events>* ev = nullptr) {
    double no_params[1] = {0};
    auto state = bif::make_state<Model>(t0, y0, m.dimension());
    Stepper<Model> stepper;
    bif::EventSettings<double, Model::num_events> no_events;
    bif::NoObserver none;
    if (obs)
        bif::integrate(m, stepper, state, p ? p : no_params, t1, s, ev ? *ev : no_events, *obs);
    else
        bif::integrate(m, stepper, state, p ? p : no_params, t1, s, ev ? *ev : no_events, none);
    return state;
}

} // namespace kt
