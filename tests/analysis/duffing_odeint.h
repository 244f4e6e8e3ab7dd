// The forced Duffing oscillator of resources/models/duffing.ode integrated independently with
// Boost.Odeint (Dormand-Prince 5(4) with dense output), the second method of the section tests:
//   y1' = y2,  y2' = delta y1 - y1^3 - k y2 + b cos(omega t).
#pragma once

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <vector>

namespace analysis_test {

struct DuffingOdeint {
    using State = std::array<double, 2>;
    double k, b, delta = 1.0, omega = 1.0;

    void operator()(const State& y, State& dy, double t) const {
        dy[0] = y[1];
        dy[1] = delta * y[0] - y[0] * y[0] * y[0] - k * y[1] + b * std::cos(omega * t);
    }

    // The stroboscopic points y(n T), T = 2 pi / omega, for n = transient + 1 .. transient + recorded.
    std::vector<State> section_points(State y, int transient, int recorded, double tol) const {
        namespace odeint = boost::numeric::odeint;
        const double period = 2 * M_PI / omega;
        std::vector<State> points;
        double t = 0;
        for (int n = 1; n <= transient + recorded; ++n) {
            odeint::integrate_adaptive(odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State>()),
                                       *this, y, t, n * period, 1e-3);
            t = n * period;
            if (n > transient) points.push_back(y);
        }
        return points;
    }
};

// The smallest p with every point equal to the one p later within tol (1 + |value|); 0 if none.
inline int period_of(const std::vector<std::array<double, 2>>& points, int max_period, double tol) {
    for (int p = 1; p <= max_period && 2 * p <= int(points.size()); ++p) {
        bool periodic = true;
        for (std::size_t r = 0; r + p < points.size() && periodic; ++r)
            for (int i = 0; i < 2; ++i)
                periodic = periodic &&
                           std::abs(points[r][i] - points[r + p][i]) <= tol * (1 + std::abs(points[r][i]));
        if (periodic) return p;
    }
    return 0;
}

} // namespace analysis_test
