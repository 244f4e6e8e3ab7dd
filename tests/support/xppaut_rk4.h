// XPPAUT 6.11's fixed-step Runge-Kutta integration with `global` events, re-implemented on the
// muparser reference, so that tests can reproduce XPPAUT's output.dat without XPPAUT.
//
// Event rule, as XPPAUT's one_flag_step does it (checked against runs of XPPAUT 6.11, see
// tests/models_xpp/README.md), after each RK4 step from (t0, y0) to (t1, y1):
//   sign  1 fires when f(t0) < 0 < f(t1), sign -1 when f(t0) > 0 >= f(t1), both only when
//   |f(t1) - f(t0)| > 1e-10; sign 0 when |f(t1)| < DBL_EPSILON (at the start of the step).
//   The crossing fraction s = f0/(f0 - f1) of the earliest event is enlarged to (1+1e-10)*s
//   (or raised to 1e-10); if that exceeds 1 the event is lost. Otherwise the state is linearly
//   interpolated to t0 + s*dt, the resets of every event hit with fraction <= s are applied (all
//   values first), events that the resets make cross fire in further rounds, and the rest of the
//   step is integrated with length (1-s)*dt (dt being the full step, as XPPAUT does).
#pragma once

#include <vector>

namespace bif::testsupport {

class MuparserReference;

struct XppRunSettings {
    double t0 = 0.0;
    double dt = 0.05;
    int njmp = 1;        // output every njmp-th step
    double total = 20.0; // integrate for round(total/dt) steps
};

// Rows as in output.dat: t, the states, then the aux quantities. Parameter resets change p.
std::vector<std::vector<double>> integrate_like_xppaut_rk4(MuparserReference& model, std::vector<double> y,
                                                           std::vector<double>& p, const XppRunSettings& run);

} // namespace bif::testsupport
