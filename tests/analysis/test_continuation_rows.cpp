// Continuation over two axes: one chain per value of the second axis (a row), each walking the first
// axis up, then down. The references are the single-chain code (each row run alone as a one-axis
// continuation) and, for rows of initial values, the closed-form solution of a linear model.
#include "analysis_support.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

using namespace bif;

namespace {

// The double-well Duffing oscillator, whose attractors coexist (either well, cross-well orbits): a
// chain's systems end where their starting states lead, so a row that restarted anywhere would differ.
std::string duffing_continuation(const std::string& sweep, const std::string& omega) {
    return R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": )" +
           omega + R"(}, "sweep": [)" + sweep + R"(],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 30, "recorded_sections": 4, "record": ["y1", "y2"],
                     "continuation": true},
        "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9}})";
}

const char* k_axis = R"({"parameter": "k", "from": 0.05, "to": 0.6, "count": 7})";

std::string exact(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

bool close(double a, double b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::fabs(a - b) <= 1e-12 * (1.0 + std::fabs(a));
}

} // namespace

TEST_CASE("two-axis continuation: each row is the one-axis continuation run alone",
          "[engine][cpu][continuation]") {
    const auto rows = analysis_test::resolve(duffing_continuation(
        std::string(k_axis) + R"(, {"parameter": "omega", "from": 0.9, "to": 1.3, "count": 3})", "1"));
    REQUIRE(rows->chain_count() == 3);
    REQUIRE(rows->chain_length() == 14);
    const study::Result both = analysis_test::run(*rows, true, 2);
    REQUIRE(both.system_count == 42);
    const auto* direction = both.scalar("direction");
    REQUIRE(direction);
    for (std::size_t row = 0; row < 3; ++row) {
        const double omega = rows->grid.values(1)[row];
        const study::Result alone = analysis_test::run(duffing_continuation(k_axis, exact(omega)), true, 1);
        REQUIRE(alone.system_count == 14);
        for (std::size_t i = 0; i < 14; ++i) {
            const std::size_t s = row * 14 + i;
            INFO("row " << row << ", system " << i << " of the chain");
            CHECK(both.axes[1].values[s] == omega);
            CHECK(both.axes[0].values[s] == alone.axes[0].values[i]);
            CHECK(direction->values[s] == alone.scalar("direction")->values[i]);
            REQUIRE(both.status[s] == alone.status[i]);
            REQUIRE(both.points.rows_filled[s] == alone.points.rows_filled[i]);
            for (std::size_t r = 0; r < alone.points.rows_filled[i]; ++r)
                for (std::size_t c = 0; c < alone.points.width(); ++c)
                    CHECK(close(both.points.value(s, r, c), alone.points.value(i, r, c)));
        }
    }
}

TEST_CASE("two-axis continuation gives the same numbers on one thread and on several",
          "[engine][cpu][continuation]") {
    const auto rows = analysis_test::resolve(duffing_continuation(
        std::string(k_axis) + R"(, {"parameter": "omega", "from": 0.9, "to": 1.3, "count": 3})", "1"));
    const study::Result one = analysis_test::run(*rows, true, 1);
    const study::Result three = analysis_test::run(*rows, true, 3);
    REQUIRE(one.points.values.size() == three.points.values.size());
    for (std::size_t i = 0; i < one.points.values.size(); ++i)
        CHECK(close(one.points.values[i], three.points.values[i]));
}

TEST_CASE("continuation rows over an initial value: each chain starts from its own state",
          "[engine][cpu][continuation]") {
    // x' = -(x - a), one section at t = 1: x(1) = a + (x_start - a) / e, x_start the final state of the
    // system before it in the chain, and the row's own x0 for the first (a = 0, 1, 2, then 2, 1, 0).
    const study::Result r = analysis_test::run(R"({"bifscope_study": 1,
        "model": {"text": "x'=-(x-a)\npar a=0\ninit x=0\ndone\n"},
        "sweep": [{"parameter": "a", "from": 0, "to": 2, "count": 3}, {"initial": "x", "from": -4, "to": 4, "count": 5}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                     "recorded_sections": 1, "record": ["x"], "continuation": true},
        "solver": {"method": "dopri5", "rtol": 1e-12, "atol": 1e-12}})");
    REQUIRE(r.system_count == 30);
    for (std::size_t row = 0; row < 5; ++row) {
        double x = -4.0 + 2.0 * double(row);
        for (std::size_t i = 0; i < 6; ++i) {
            const std::size_t s = row * 6 + i;
            const double a = double(i < 3 ? i : 5 - i);
            INFO("row " << row << ", system " << i);
            CHECK(r.axes[0].values[s] == a);
            CHECK(r.scalar("direction")->values[s] == (i < 3 ? 1.0 : -1.0));
            x = a + (x - a) / std::exp(1.0);
            REQUIRE(r.status[s] == study::SystemStatus::Ok);
            CHECK(r.points.value(s, 0, 0) == Approx(x).epsilon(1e-9));
        }
    }
}

TEST_CASE("continuation takes one or two axes, the first a parameter", "[study][continuation]") {
    const auto problems = [](const std::string& sweep) {
        const auto read = study::read_study_json(duffing_continuation(sweep, "1"));
        REQUIRE(read.study);
        std::string text;
        for (const auto& p : study::resolve_study(*read.study, BIFSCOPE_MODELS_DIR).problems)
            if (p.severity == study::ProblemSeverity::Error) text += p.format() + "\n";
        return text;
    };
    CHECK(problems(k_axis).empty());
    CHECK(problems(std::string(k_axis) + R"(, {"initial": "y1", "from": -1, "to": 1, "count": 2})").empty());
    CHECK(problems(R"({"initial": "y1", "from": -1, "to": 1, "count": 2}, )" + std::string(k_axis)) ==
          "error: sweep[0]: a bifurcation diagram sweeps a parameter, not an initial value\n");
    CHECK_THAT(problems(std::string(k_axis) + R"(, {"parameter": "b", "from": 0, "to": 1, "count": 2},
                                                  {"parameter": "delta", "from": 0, "to": 1, "count": 2})"),
               Catch::Contains("got 3 axes"));
}

TEST_CASE("continuation order: chain by chain, each up then down; one axis as before",
          "[study][continuation]") {
    const auto one = analysis_test::resolve(duffing_continuation(k_axis, "1"));
    REQUIRE(one->chain_count() == 1);
    REQUIRE(one->system_count() == 14);
    for (std::size_t s = 0; s < 14; ++s) {
        CHECK(one->grid_point(s) == (s < 7 ? s : 13 - s)); // systems [n, 2n) at n - 1 - i
        CHECK(one->runs_down(s) == (s >= 7));
    }
    const auto two = analysis_test::resolve(duffing_continuation(
        std::string(k_axis) + R"(, {"parameter": "omega", "from": 0.9, "to": 1.3, "count": 3})", "1"));
    REQUIRE(two->system_count() == 42);
    for (std::size_t s = 0; s < 42; ++s) {
        const std::size_t row = s / 14, step = s % 14;
        CHECK(two->grid.axis_index(two->grid_point(s), 1) == row);
        CHECK(two->grid.axis_index(two->grid_point(s), 0) == (step < 7 ? step : 13 - step));
        CHECK(two->runs_down(s) == (step >= 7));
    }
}
