// Rounding for display: the result is within half the resolution of the value, and its shortest
// text has no more decimals than the resolution's power of ten.
#include "engine/study/decimal_rounding.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <random>
#include <string>

using namespace bif::study;

namespace {

std::string shortest(double v) {
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

int decimals(const std::string& text) {
    const auto e = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, e);
    const auto dot = mantissa.find('.');
    const int fraction = dot == std::string::npos ? 0 : int(mantissa.size() - dot - 1);
    const int exponent = e == std::string::npos ? 0 : std::stoi(text.substr(e + 1));
    return std::max(0, fraction - exponent);
}

} // namespace

TEST_CASE("a default range's bounds read as the decimals they are meant to be", "[study][rounding]") {
    CHECK(shortest(1.5 * 0.05) == "0.07500000000000001"); // the problem this solves
    CHECK(shortest(round_significant(1.5 * 0.05, 12)) == "0.075");
    CHECK(shortest(round_significant(0.5 * 0.3, 12)) == "0.15");
    CHECK(shortest(round_significant(1.5 * 8.53, 12)) == "12.795");
    CHECK(round_significant(0.0, 12) == 0.0);
    CHECK(round_significant(-1.5 * 0.05, 12) == -0.075);
}

TEST_CASE("zoomed bounds rounded to a pixel's width", "[study][rounding]") {
    // The zoom: 5.770706494533947 .. 10.069581494533947 over about 700 pixels.
    const double pixel = (10.069581494533947 - 5.770706494533947) / 700;
    CHECK(shortest(round_to_resolution(5.770706494533947, pixel)) == "5.771");
    CHECK(shortest(round_to_resolution(10.069581494533947, pixel)) == "10.07");
    CHECK(round_to_resolution(123456.7, 250.0) == 123500.0);

    std::mt19937 random(11);
    std::uniform_real_distribution<double> mantissa(-10.0, 10.0), power(-12.0, 6.0);
    for (int i = 0; i < 2000; ++i) {
        const double value = mantissa(random) * std::pow(10.0, power(random));
        const double resolution = std::abs(value) * std::pow(10.0, power(random) / 3 - 4) + 1e-300;
        const double r = round_to_resolution(value, resolution);
        INFO(value << " at " << resolution << " -> " << shortest(r));
        CHECK(std::abs(r - value) <= 0.5 * resolution * (1 + 1e-9) + 1e-15 * std::abs(value));
        if (resolution < 1.0) CHECK(decimals(shortest(r)) <= int(-std::floor(std::log10(resolution))));
    }
}
