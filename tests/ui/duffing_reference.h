// An independent reference for GUI tests that draw the forced Duffing oscillator
// (resources/models/duffing.ode with delta = omega = 1): its stroboscopic point computed here by a
// plain classic RK4 loop, without the engine.
#pragma once

#include <cmath>

namespace bif::test {

// y1 at t = periods * 2 pi, starting from (y1, y2) = (0.1, 0) at t = 0.
inline double duffing_stroboscopic_y1(double k, double b, int periods, int steps_per_period = 2000) {
    const double h = 2 * M_PI / steps_per_period;
    double y1 = 0.1, y2 = 0.0, t = 0.0;
    const auto f = [&](double tt, double a, double v, double& da, double& dv) {
        da = v;
        dv = a - a * a * a - k * v + b * std::cos(tt);
    };
    for (int n = 0; n < periods * steps_per_period; ++n) {
        double k1a, k1v, k2a, k2v, k3a, k3v, k4a, k4v;
        f(t, y1, y2, k1a, k1v);
        f(t + h / 2, y1 + h / 2 * k1a, y2 + h / 2 * k1v, k2a, k2v);
        f(t + h / 2, y1 + h / 2 * k2a, y2 + h / 2 * k2v, k3a, k3v);
        f(t + h, y1 + h * k3a, y2 + h * k3v, k4a, k4v);
        // y_{n+1} = y_n + h/6 (k1 + 2 k2 + 2 k3 + k4)
        y1 += h / 6 * (k1a + 2 * k2a + 2 * k3a + k4a);
        y2 += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        t = (n + 1) * h;
    }
    return y1;
}

} // namespace bif::test
