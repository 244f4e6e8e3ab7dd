// Basins of attraction through the whole pipeline on a system whose basins are known: the unforced,
// damped double-well Duffing oscillator (b = 0) settles on one of the two wells' equilibria
// (+1, 0) and (-1, 0). Each grid point's label must agree with the sign of y1 at the end of an
// independent Boost.Odeint integration, and the two wells must get the two labels.
#include "analysis_support.h"
#include "duffing_odeint.h"

#include <catch2/catch.hpp>
#include <map>

using namespace bif;

TEST_CASE("double-well basins: labels follow the well each start point falls into", "[engine][basins]") {
    // even counts keep the saddle (0, 0), an equilibrium of its own, off the grid
    const int n1 = analysis_test::sanitized ? 8 : 20, n2 = analysis_test::sanitized ? 6 : 14;
    const study::Result r = analysis_test::run(R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"k": 0.25, "b": 0, "delta": 1, "omega": 1},
        "sweep": [{"initial": "y1", "from": -2, "to": 2, "count": )" +
                                               std::to_string(n1) + R"(},
                  {"initial": "y2", "from": -1.5, "to": 1.5, "count": )" +
                                               std::to_string(n2) + R"(}],
        "analysis": {"kind": "basins", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 30, "recorded_sections": 4,
                     "period": {"tolerance": 1e-6, "max_period": 2}, "match_tolerance": 1e-4},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})");
    const auto& labels = r.scalar("label")->values;
    const auto& periods = r.scalar("period")->values;
    std::map<int, int> label_of_sign; // sign of y1 at the end -> label
    namespace odeint = boost::numeric::odeint;
    const analysis_test::DuffingOdeint duffing{0.25, 0.0};
    for (std::size_t s = 0; s < r.system_count; ++s) {
        analysis_test::DuffingOdeint::State y{r.axes[0].values[s], r.axes[1].values[s]};
        INFO("start (" << y[0] << ", " << y[1] << ")");
        REQUIRE(r.status[s] == study::SystemStatus::Ok);
        odeint::integrate_adaptive(
            odeint::make_controlled(1e-11, 1e-11, odeint::runge_kutta_dopri5<decltype(y)>()), duffing, y, 0.0,
            34 * 2 * M_PI, 1e-3);
        const int sign = y[0] > 0 ? 1 : -1;
        CHECK(periods[s] == 1);
        const int label = int(labels[s]);
        CHECK((label == 0 || label == 1));
        const auto [it, inserted] = label_of_sign.emplace(sign, label);
        CHECK(it->second == label);
    }
    REQUIRE(label_of_sign.size() == 2);
    CHECK(label_of_sign[1] != label_of_sign[-1]);
    // labels are numbered by the first system that reached each attractor
    CHECK(labels[0] == 0);
}
