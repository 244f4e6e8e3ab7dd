// Escape beyond the solver's bound through the whole pipeline (bundled .ode -> study -> CPU backend,
// native and evaluator): the logistic map escapes from x0 = 1/2 for r > 4 and stays in [0, 1] for
// r <= 4; a flow x' = x^2 passes x = B at t = 1/x0 - 1/B exactly; the Henon basin at a = 1.4,
// b = 0.3 against the map iterated in this file; and the status name through the CSV writer.
#include "analysis_support.h"
#include "engine/analysis/attractor_table.h"
#include "engine/study/result_csv.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace bif;
using analysis_test::run;

namespace {

study::Result logistic(double r, bool native) {
    return run(R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
        "parameters": {"r": )" +
                   std::to_string(r) + R"(}, "initial": {"x": 0.5},
        "analysis": {"kind": "trajectory", "t_end": 200, "output_count": 201},
        "solver": {"method": "iteration", "bound": 100}})",
               native);
}

// The Henon basins study of resources/studies/henon_basins.json on a smaller grid.
std::string henon_basins(double x_from, double x_to, double y_from, double y_to, int count) {
    const auto axis = [&](const char* name, double from, double to) {
        return std::string(R"({"initial": ")") + name + R"(", "from": )" + std::to_string(from) +
               R"(, "to": )" + std::to_string(to) + R"(, "count": )" + std::to_string(count) + "}";
    };
    return R"({"bifscope_study": 1, "model": {"path": "henon.ode"},
        "parameters": {"a": 1.4, "b": 0.3},
        "sweep": [)" +
           axis("x", x_from, x_to) + ", " + axis("y", y_from, y_to) + R"(],
        "analysis": {"kind": "basins", "section": {"kind": "stroboscopic", "period": "1"},
                     "transient_sections": 200, "recorded_sections": 16,
                     "period": {"tolerance": 1e-6, "max_period": 8},
                     "match_tolerance": 1e-3, "max_attractors": 8},
        "solver": {"method": "iteration", "initial_step": 1, "bound": 1000}})";
}

// Reference: the Henon map iterated here; escaped when some iterate up to `iterates` (or the
// initial point) leaves |x|, |y| <= bound.
bool henon_escapes(double x, double y, int iterates, double bound) {
    for (int n = 0; n <= iterates; ++n) {
        if (std::fabs(x) > bound || std::fabs(y) > bound) return true;
        const double next = 1 - 1.4 * x * x + y;
        y = 0.3 * x;
        x = next;
    }
    return false;
}

} // namespace

TEST_CASE("logistic map: escapes at r = 4.2 from 1/2, not at r = 3.9", "[engine][maps][bound]") {
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        // reference: the first iterate beyond 100, iterated here
        double x = 0.5;
        int first = 0;
        for (int n = 1; n <= 200 && first == 0; ++n)
            if (std::fabs(x = 4.2 * x * (1 - x)) > 100) first = n;
        REQUIRE(first > 0);
        const study::Result escaped = logistic(4.2, native);
        CHECK(escaped.status.at(0) == study::SystemStatus::Escaped);
        CHECK(!study::is_failure(escaped.status.at(0)));
        // rows are written at the iterates up to the one beyond the bound
        CHECK(escaped.points.rows_filled.at(0) == std::uint32_t(first + 1));
        const study::Result bounded = logistic(3.9, native);
        CHECK(bounded.status.at(0) == study::SystemStatus::Ok);
        CHECK(bounded.points.rows_filled.at(0) == 201u);
    }
}

TEST_CASE("x' = x^2 with bound 1e3 stops escaped just past t = 1/x0 - 1/1000", "[engine][bound]") {
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        const study::Result r = run(R"({"bifscope_study": 1, "model": {"text": "init x=2\nx'=x^2\ndone\n"},
            "analysis": {"kind": "trajectory", "t_end": 1, "output_count": 10001},
            "solver": {"method": "dopri5", "rtol": 1e-9, "atol": 1e-9, "bound": 1000}})",
                                    native);
        REQUIRE(r.status.at(0) == study::SystemStatus::Escaped);
        const std::size_t rows = r.points.rows_filled.at(0);
        REQUIRE(rows > 0);
        const double t_b = 0.5 - 1e-3;
        // outputs every 1e-4 up to the end of the step that left the box, which ends past t_b and
        // is a fraction of the local time scale 1/x = 1e-3 long
        const double t_last = r.points.value(0, rows - 1, 0), x_last = r.points.value(0, rows - 1, 1);
        CHECK(t_last >= t_b - 1e-4);
        CHECK(t_last <= t_b + 5e-4);
        CHECK(x_last == Approx(1 / (0.5 - t_last)).epsilon(1e-5));
        // a flow without a bound runs into the singularity and fails
        const study::Result unbounded =
            run(R"({"bifscope_study": 1, "model": {"text": "init x=2\nx'=x^2\ndone\n"},
            "analysis": {"kind": "trajectory", "t_end": 1, "output_count": 11},
            "solver": {"method": "dopri5", "rtol": 1e-9, "atol": 1e-9}})",
                native);
        CHECK(study::is_failure(unbounded.status.at(0)));
    }
}

TEST_CASE("Henon basins: (2, 2) escapes, the fixed point stays, the escape fraction over a grid",
          "[engine][maps][basins][bound]") {
    const double a = 1.4, b = 0.3;
    const double x_star = (b - 1 + std::sqrt((1 - b) * (1 - b) + 4 * a)) / (2 * a), y_star = b * x_star;
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        const study::Result out = run(henon_basins(2, 2, 2, 2, 1), native);
        CHECK(out.status.at(0) == study::SystemStatus::Escaped);
        CHECK(out.scalar("label")->values.at(0) == analysis::AttractorTable::escape_label);
        // the saddle fixed point: rounding moves the orbit off it onto the strange attractor, which
        // has no period; it never escapes
        const study::Result in = run(henon_basins(x_star, x_star, y_star, y_star, 1), native);
        CHECK(in.status.at(0) == study::SystemStatus::Ok);
        CHECK(in.scalar("label")->values.at(0) == 0);
    }
    const int count = analysis_test::sanitized ? 11 : 41;
    const study::Result grid = run(henon_basins(-2.5, 2.5, -2.5, 2.5, count));
    const auto& labels = grid.scalar("label")->values;
    std::size_t escaped = 0, expected = 0, disagree = 0;
    for (std::size_t i = 0; i < grid.system_count; ++i) {
        const bool out = henon_escapes(grid.axes[0].values[i], grid.axes[1].values[i], 216, 1000);
        const bool labelled_out = labels[i] == analysis::AttractorTable::escape_label;
        CHECK(labelled_out == (grid.status[i] == study::SystemStatus::Escaped));
        if (!labelled_out) CHECK(labels[i] == 0); // the one bounded attractor
        expected += out;
        escaped += labelled_out;
        disagree += out != labelled_out;
    }
    INFO("escaped " << escaped << " of " << grid.system_count << ", reference " << expected);
    CHECK(expected > grid.system_count / 2); // most of [-2.5, 2.5]^2 escapes
    CHECK(expected < grid.system_count);
    // a point on the basin's fractal boundary may round the other way in generated code
    CHECK(disagree <= grid.system_count / 200);
    CHECK(grid.count(study::SystemStatus::Escaped) == escaped);

    // the status name through the CSV writer: one row per system, its status by name
    std::ostringstream csv;
    study::write_result_csv(csv, grid, "");
    std::size_t rows_escaped = 0, from = 0;
    const std::string text = csv.str();
    while ((from = text.find(",escaped,", from)) != std::string::npos)
        ++rows_escaped, ++from;
    CHECK(rows_escaped == escaped);
    CHECK(text.find("escaped: " + std::to_string(escaped)) != std::string::npos);
}
