// One controlled step: attempt, measure, accept or reject, propose the next size. Returns the
// verdict instead of throwing (the Boost.Odeint controlled-stepper contract). Fixed-step mode
// (settings.adaptive == false, or a stepper without an error estimate) accepts every finite step.
#pragma once

#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/step_size.h"

namespace bif {

enum class StepVerdict : unsigned char {
    Accepted,  // y_new holds the solution at t + h; h is the size taken, h_next the proposal
    Rejected,  // retry with h_next
    Underflow, // the step would have to shrink below the minimum step
    NonFinite, // the state became NaN/infinite and no admissible step size avoids it
};

template <class Stepper, class Model, int N>
BIF_HD StepVerdict controlled_step(Stepper& st, StepController<typename Model::real>& ctrl, const Model& m,
                                   typename Model::real t, const typename Model::real* y,
                                   const typename Model::real* p, typename Model::real& h,
                                   typename Model::real& h_next, typename Model::real* y_new,
                                   const SolverSettings<typename Model::real, N>& s) {
    using real = typename Model::real;
    const real err = st.attempt(m, t, y, p, h, y_new, s);
    const bool finite = step_is_finite(err, y_new, m.dimension());
    if (!s.adaptive || Stepper::error_order == 0) {
        h_next = h;
        return finite ? StepVerdict::Accepted : StepVerdict::NonFinite;
    }
    if (finite && err <= real(1)) {
        h_next = step_after_accept(ctrl, h, err, Stepper::error_order, s);
        if (s.max_step > real(0)) h_next = min_of(h_next, s.max_step);
        return StepVerdict::Accepted;
    }
    st.reject();
    h_next = step_after_reject(ctrl, h, finite ? err : failed_step_error<real>(), Stepper::error_order, s);
    if (h_next < min_step_at(t, s) || t + h_next == t)
        return finite ? StepVerdict::Underflow : StepVerdict::NonFinite;
    return StepVerdict::Rejected;
}

} // namespace bif
