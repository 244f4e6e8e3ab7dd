// Small real studies on the Duffing oscillator for the progressive-job tests, and comparisons of
// results bit for bit.
#pragma once

#include "engine/study/resolved_study.h"
#include "engine/study/result.h"

#include <memory>

namespace bif::test {

// Stroboscopic map over k (count_k values) and b (count_b values): period, lambda_max, max y1.
std::shared_ptr<const study::ResolvedStudy> duffing_map(int count_k, int count_b, int transient_sections);
// Bifurcation diagram over k, 16 recorded sections of y1 and y2.
std::shared_ptr<const study::ResolvedStudy> duffing_bifurcation(int count, bool continuation = false);
// Basins over (y1, y2) initial values, count x count points.
std::shared_ptr<const study::ResolvedStudy> duffing_basins(int count);
// Largest Lyapunov exponent over k.
std::shared_ptr<const study::ResolvedStudy> duffing_lyapunov(int count);

bool same_bits(double a, double b);
// Every status, rows_filled, point value and scalar (by name) of `part`'s row i equals `whole`'s
// system systems[i] bit for bit (Catch CHECKs; returns false at the first difference).
bool rows_equal(const study::Result& part, const std::vector<std::size_t>& systems,
                const study::Result& whole);
// The same over every system.
bool results_equal(const study::Result& a, const study::Result& b);

} // namespace bif::test
