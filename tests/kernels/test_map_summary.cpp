// bif/render/map_summary.h on the host: order keys sort as the floats do and give them back, and a
// value's category is MapColouring's clamp(lround(v), -1, 1023) (the GPU summary of kept maps
// relies on both; test_cuda_device_map checks the kernel against a host summary).
#include "bif/render/map_summary.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace bif::render;

TEST_CASE("float order keys sort as the floats and give them back", "[render][summary]") {
    std::vector<float> v{-std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::max(),
                         -1e30f,
                         -2.5f,
                         -1.0f,
                         -std::numeric_limits<float>::denorm_min(),
                         0.0f,
                         std::numeric_limits<float>::denorm_min(),
                         1e-30f,
                         0.5f,
                         1.0f,
                         3.0f,
                         1e30f,
                         std::numeric_limits<float>::max(),
                         std::numeric_limits<float>::infinity()};
    std::mt19937 random(5);
    std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
    for (int k = 0; k < 2000; ++k)
        v.push_back(u(random));
    std::sort(v.begin(), v.end());
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
        INFO(v[k] << " then " << v[k + 1]);
        if (v[k] < v[k + 1])
            CHECK(float_order_key(v[k]) < float_order_key(v[k + 1]));
        else
            CHECK(float_order_key(v[k]) == float_order_key(v[k + 1]));
    }
    for (const float x : v)
        CHECK(float_of_order_key(float_order_key(x)) == x);
    // -0 sorts just below +0 and comes back as itself
    CHECK(float_order_key(-0.0f) < float_order_key(0.0f));
    CHECK(std::signbit(float_of_order_key(float_order_key(-0.0f))));
    // the empty summary's bounds are beyond every finite key
    CHECK(MapSummary{}.lo_key > float_order_key(std::numeric_limits<float>::max()));
    CHECK(MapSummary{}.hi_key < float_order_key(-std::numeric_limits<float>::max()));
}

TEST_CASE("a value's category is MapColouring's rounding", "[render][summary]") {
    std::vector<float> v{-5.0f, -1.5f,       -1.0f,      -0.5f,   -0.49999997f, -0.0f,
                         0.0f,  0.49999997f, 0.5f,       1.0f,    1.5f,         2.4999998f,
                         2.5f,  31.5f,       1022.4999f, 1022.5f, 1023.0f,      5000.0f};
    for (int k = -40; k <= 2100; ++k)
        v.push_back(float(k) * 0.5f);
    for (const float x : v) {
        INFO(x);
        CHECK(summary_category(x) == int(std::clamp<long>(std::lround(x), -1, 1023)));
    }
}
