// Sweep values against their closed forms, and the grid order (first axis fastest).
#include "engine/study/sweep_grid.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::study;

TEST_CASE("linear axis: evenly spaced with exact ends", "[study][grid]") {
    const auto v = axis_values({SweepTarget::Parameter, "k", 0.2, 0.3, 30720, SweepScale::Linear});
    REQUIRE(v.size() == 30720);
    CHECK(v.front() == 0.2);
    CHECK(v.back() == 0.3);
    for (std::size_t i = 1; i < v.size(); ++i) {
        CHECK(v[i] > v[i - 1]);
        // Value i is 0.2 + 0.1 * i / 30719 to within a few roundings.
        CHECK(v[i] == Approx(0.2 + 0.1 * double(i) / 30719.0).epsilon(1e-15));
    }
}

TEST_CASE("log axis: constant ratio with exact ends", "[study][grid]") {
    const auto v = axis_values({SweepTarget::Parameter, "f1", 20.0, 1000.0, 128, SweepScale::Log});
    REQUIRE(v.size() == 128);
    CHECK(v.front() == 20.0);
    CHECK(v.back() == 1000.0);
    const double ratio = std::pow(50.0, 1.0 / 127.0);
    for (std::size_t i = 1; i < v.size(); ++i)
        CHECK(v[i] / v[i - 1] == Approx(ratio).epsilon(1e-13));
}

TEST_CASE("a descending range and a single value", "[study][grid]") {
    const auto down = axis_values({SweepTarget::Parameter, "a", 1.0, -1.0, 5, SweepScale::Linear});
    CHECK(down == std::vector<double>{1.0, 0.5, 0.0, -0.5, -1.0});
    const auto one = axis_values({SweepTarget::Parameter, "a", 3.0, 7.0, 1, SweepScale::Log});
    CHECK(one == std::vector<double>{3.0});
}

TEST_CASE("grid order: the first axis runs fastest", "[study][grid]") {
    SweepGrid grid({{1.0, 2.0, 3.0}, {10.0, 20.0}});
    REQUIRE(grid.system_count() == 6);
    const double expected[6][2] = {{1, 10}, {2, 10}, {3, 10}, {1, 20}, {2, 20}, {3, 20}};
    for (std::size_t s = 0; s < 6; ++s) {
        CHECK(grid.value(s, 0) == expected[s][0]);
        CHECK(grid.value(s, 1) == expected[s][1]);
    }
}

TEST_CASE("no axes: one system", "[study][grid]") {
    SweepGrid grid(std::vector<std::vector<double>>{});
    CHECK(grid.system_count() == 1);
    CHECK(grid.axis_count() == 0);
}

TEST_CASE("three axes: every combination exactly once", "[study][grid]") {
    SweepGrid grid({{0, 1}, {0, 1, 2}, {0, 1, 2, 3}});
    REQUIRE(grid.system_count() == 24);
    std::vector<int> seen(24, 0);
    for (std::size_t s = 0; s < 24; ++s) {
        const int code = int(grid.value(s, 0)) + 2 * int(grid.value(s, 1)) + 6 * int(grid.value(s, 2));
        CHECK(std::size_t(code) == s);
        ++seen[code];
    }
    CHECK(std::count(seen.begin(), seen.end(), 1) == 24);
}
