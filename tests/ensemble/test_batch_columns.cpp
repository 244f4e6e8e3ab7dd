// The swept values that allocate_result and make_batch compute for ranges of systems at once
// (engine/study/system_columns.h), against the sweep's own formula: system s of a grid sits at
// mixed-radix digits of s (first axis fastest), continuation chains walk the first axis up then
// down, and a subset grid's system i is the whole grid's point points[i].
#include "bif/study/spec.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/batch_pool.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/study/result.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>

using namespace bif;

namespace {

const char* duffing_text = "y1'=y2\ny2'=delta*y1-y1^3-k*y2+b*cos(omega*t)\npar k=0.25,b=0.3\n"
                           "par delta=1,omega=1\ninit y1=0.1,y2=0\ndone\n";

study::SweepAxis linear(const char* name, double from, double to, int count) {
    return {study::SweepTarget::Parameter, name, from, to, count, study::SweepScale::Linear};
}

std::shared_ptr<const study::ResolvedStudy> resolve(study::Study s) {
    s.model.text = duffing_text;
    s.solver.method = study::Method::Rk4;
    s.solver.initial_step = 0.1;
    study::ResolveResult r = study::resolve_study(s, "");
    std::string problems;
    for (const auto& p : r.problems)
        problems += p.path + ": " + p.message + "\n";
    INFO(problems);
    REQUIRE(r.resolved);
    return r.resolved;
}

std::shared_ptr<const study::ResolvedStudy> map_over(std::vector<study::SweepAxis> axes) {
    study::Study s;
    s.analysis = study::AnalysisKind::ParameterMap;
    s.map.detect_period = false;
    s.map.largest_exponent = true;
    s.map.section.period = "2*pi/omega";
    s.map.recorded_sections = 2;
    s.sweep = std::move(axes);
    return resolve(s);
}

// The linear sweep formula with exact ends (engine/study/sweep_grid.h).
double linear_value(const study::SweepAxis& a, std::size_t i) {
    const std::size_t n = std::size_t(a.count);
    if (i == 0) return a.from;
    if (i == n - 1) return a.to;
    return a.from + (a.to - a.from) * (double(i) / double(n - 1));
}

// Axis index of a grid point: its mixed-radix digit, first axis fastest.
std::size_t digit(const std::vector<study::SweepAxis>& axes, std::size_t point, std::size_t axis) {
    for (std::size_t a = 0; a < axis; ++a)
        point /= std::size_t(axes[a].count);
    return point % std::size_t(axes[axis].count);
}

void require_batch_axes(const ensemble::BatchArrays& b,
                        const std::function<double(std::size_t, std::size_t)>& expected, std::size_t axes) {
    REQUIRE(b.axis_values.size() == axes * b.count);
    std::size_t wrong = 0;
    for (std::size_t a = 0; a < axes; ++a)
        for (std::size_t i = 0; i < b.count; ++i)
            wrong += b.axis_values[a * b.count + i] != expected(b.first + i, a);
    REQUIRE(wrong == 0);
}

std::size_t fresh_points(const study::ResolvedStudy&, const ensemble::SpecStorage& spec, std::size_t count) {
    return std::size_t(spec.point_rows()) * std::size_t(spec.point_columns()) * count;
}

} // namespace

TEST_CASE("map batches hold each system's swept values, threads or not", "[ensemble][batch]") {
    // 1000 x 600: big enough that make_batch splits the fill over threads on a multi-core machine
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 1000), linear("b", -0.5, 0.5, 600)};
    const auto study = map_over(axes);
    const ensemble::SpecStorage spec(*study);
    const auto expected = [&](std::size_t s, std::size_t a) {
        return linear_value(axes[a], digit(axes, s, a));
    };
    for (const auto& [first, count] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 600000}, {999, 2}, {123457, 333333}, {599999, 1}, {1000, 1000}}) {
        INFO(first << " + " << count);
        const ensemble::BatchArrays b = ensemble::make_batch(*study, spec, 3, first, count, false);
        require_batch_axes(b, expected, 2);
        REQUIRE(b.carry == std::vector<unsigned int>(3 * count, 0u));
        REQUIRE(b.status == std::vector<int>(count, 0));
        REQUIRE(b.rows_filled == std::vector<int>(count, 0));
        REQUIRE(std::all_of(b.scalars.begin(), b.scalars.end(), [](double v) { return std::isnan(v); }));
        REQUIRE(std::all_of(b.points.begin(), b.points.end(), [](double v) { return std::isnan(v); }));
        REQUIRE(b.scalars.size() == std::size_t(spec.scalar_columns()) * count);
    }
}

TEST_CASE("a refilled batch equals a fresh one, smaller or larger", "[ensemble][batch]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 37), linear("b", 0.1, 0.5, 11)};
    const auto study = map_over(axes);
    const ensemble::SpecStorage spec(*study);
    ensemble::BatchArrays reused = ensemble::make_batch(*study, spec, 2, 0, 407, false);
    reused.status.assign(407, 1);
    reused.scalars.assign(reused.scalars.size(), 4.0);
    for (const auto& [first, count] : std::vector<std::pair<std::size_t, std::size_t>>{{40, 100}, {5, 300}}) {
        ensemble::refill_batch(reused, *study, spec, 2, first, count, false);
        const ensemble::BatchArrays fresh = ensemble::make_batch(*study, spec, 2, first, count, false);
        REQUIRE(reused.first == first);
        REQUIRE(reused.count == count);
        REQUIRE(reused.axis_values == fresh.axis_values);
        REQUIRE(reused.status == fresh.status);
        REQUIRE(reused.carry == fresh.carry);
        REQUIRE(reused.scalars.size() == fresh.scalars.size());
        REQUIRE(std::all_of(reused.scalars.begin(), reused.scalars.end(),
                            [](double v) { return std::isnan(v); }));
    }
}

TEST_CASE("an inputs-only refill writes the swept values; the outputs are sized where held, or after",
          "[ensemble][batch]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 37), linear("b", 0.1, 0.5, 11)};
    const auto study = map_over(axes);
    const ensemble::SpecStorage spec(*study);
    ensemble::BatchArrays reused;
    for (const auto& [first, count] :
         std::vector<std::pair<std::size_t, std::size_t>>{{0, 407}, {40, 100}, {5, 300}}) {
        const bool held = reused.points.capacity() >= fresh_points(*study, spec, count);
        ensemble::refill_batch(reused, *study, spec, 1, first, count, false, ensemble::BatchFill::InputsOnly);
        const ensemble::BatchArrays fresh = ensemble::make_batch(*study, spec, 1, first, count, false);
        // fresh output memory is left for after the device ran (its page faults would delay it)
        CHECK(reused.points.empty() == !held);
        CHECK(reused.status.size() == (held ? count : 0));
        ensemble::size_outputs(reused, {});
        REQUIRE(reused.axis_values == fresh.axis_values);
        // outputs only: the same, without the axis values (a device batch stages them itself)
        ensemble::BatchArrays device_staged;
        ensemble::refill_batch(device_staged, *study, spec, 1, first, count, false,
                               ensemble::BatchFill::OutputsOnly);
        ensemble::size_outputs(device_staged, {});
        CHECK(device_staged.axis_values.empty());
        CHECK(device_staged.points.size() == fresh.points.size());
        CHECK(device_staged.status.size() == count);
        REQUIRE(reused.carry.size() == fresh.carry.size());
        REQUIRE(reused.points.size() == fresh.points.size());
        REQUIRE(reused.scalars.size() == fresh.scalars.size());
        REQUIRE(reused.status.size() == count);
        REQUIRE(reused.rows_filled.size() == count);
    }
}

TEST_CASE("allocate_result's axes follow the sweep formula, on a log axis too", "[ensemble][result]") {
    const std::vector<study::SweepAxis> axes{
        {study::SweepTarget::Parameter, "omega", 0.5, 8.0, 6, study::SweepScale::Log},
        linear("k", 0.1, 0.4, 7)};
    const auto study = map_over(axes);
    const study::Result r = study::allocate_result(*study);
    REQUIRE(r.system_count == 6 * 7);
    REQUIRE(r.axes.size() == 2);
    for (std::size_t s = 0; s < r.system_count; ++s) {
        INFO("system " << s);
        // 0.5 * 16^(i/5): the log sweep, to within the rounding of exp and log
        REQUIRE(r.axes[0].values[s] ==
                Approx(0.5 * std::pow(16.0, double(digit(axes, s, 0)) / 5.0)).epsilon(1e-14));
        REQUIRE(r.axes[1].values[s] == linear_value(axes[1], digit(axes, s, 1)));
    }
}

TEST_CASE("a subset grid's batch and result hold its points' values, in its order", "[ensemble][subset]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 10), linear("b", 0.1, 0.5, 8)};
    const auto whole = map_over(axes);
    // runs of neighbours, jumps, a step back and a repeat
    const std::vector<std::size_t> points{5, 6, 7, 8, 9, 10, 11, 79, 3, 4, 50, 50, 51, 0};
    study::ResolvedStudy part = *whole;
    part.grid = whole->grid.subset(points);
    const auto expected = [&](std::size_t i, std::size_t a) {
        return linear_value(axes[a], digit(axes, points[i], a));
    };
    const study::Result r = study::allocate_result(part);
    for (std::size_t i = 0; i < points.size(); ++i)
        for (std::size_t a = 0; a < 2; ++a)
            REQUIRE(r.axes[a].values[i] == expected(i, a));
    const ensemble::SpecStorage spec(part);
    require_batch_axes(ensemble::make_batch(part, spec, 0, 0, points.size(), false), expected, 2);
    require_batch_axes(ensemble::make_batch(part, spec, 0, 6, 5, false), expected, 2);
}

TEST_CASE("a subset of long runs holds its points' values", "[ensemble][subset]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 13), linear("b", 0.1, 0.5, 37)};
    const auto whole = map_over(axes);
    // a streamed block's run across many rows, the grid's last points, then its first ones
    std::vector<std::size_t> points(300);
    std::iota(points.begin(), points.end(), 100);
    for (std::size_t p = 470; p < 481; ++p)
        points.push_back(p);
    for (std::size_t p = 0; p < 40; ++p)
        points.push_back(p);
    study::ResolvedStudy part = *whole;
    part.grid = whole->grid.subset(points);
    const auto expected = [&](std::size_t i, std::size_t a) {
        return linear_value(axes[a], digit(axes, points[i], a));
    };
    const ensemble::SpecStorage spec(part);
    require_batch_axes(ensemble::make_batch(part, spec, 0, 0, points.size(), false), expected, 2);
    require_batch_axes(ensemble::make_batch(part, spec, 0, 290, 30, false), expected, 2);
    const study::Result r = study::allocate_result(part);
    for (std::size_t i = 0; i < points.size(); ++i)
        for (std::size_t a = 0; a < 2; ++a)
            REQUIRE(r.axes[a].values[i] == expected(i, a));
}

TEST_CASE("a range subset holds the values of the subset of its points", "[ensemble][subset]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 13), linear("b", 0.1, 0.5, 37)};
    const auto whole = map_over(axes);
    const auto listed = [](std::size_t first, std::size_t count) {
        std::vector<std::size_t> points(count);
        std::iota(points.begin(), points.end(), first);
        return points;
    };
    study::ResolvedStudy by_range = *whole, of_range = *whole, of_list = *whole;
    by_range.grid = whole->grid.subset_range(100, 300);
    // a range of a range, and a range of a listed subset (which keeps a list)
    of_range.grid = by_range.grid.subset_range(50, 200);
    of_list.grid = whole->grid.subset({7, 3, 400, 401, 402, 403, 9}).subset_range(2, 4);
    CHECK(by_range.grid.consecutive());
    CHECK(of_range.grid.consecutive());
    CHECK_FALSE(of_list.grid.consecutive());
    const std::vector<std::pair<const study::ResolvedStudy*, std::vector<std::size_t>>> cases{
        {&by_range, listed(100, 300)}, {&of_range, listed(150, 200)}, {&of_list, listed(400, 4)}};
    for (const auto& one : cases) {
        // named, not structured bindings: clang 14 (the sanitizer build) cannot capture those in a lambda
        const study::ResolvedStudy* part = one.first;
        const std::vector<std::size_t>& points = one.second;
        REQUIRE(part->system_count() == points.size());
        const auto expected = [&](std::size_t i, std::size_t a) {
            return linear_value(axes[a], digit(axes, points[i], a));
        };
        for (std::size_t i = 0; i < points.size(); ++i) {
            REQUIRE(part->grid.whole_point(i) == points[i]);
            REQUIRE(part->grid.value(i, 1) == expected(i, 1));
        }
        const ensemble::SpecStorage spec(*part);
        require_batch_axes(ensemble::make_batch(*part, spec, 0, 0, points.size(), false), expected, 2);
        require_batch_axes(ensemble::make_batch(*part, spec, 0, 1, points.size() - 2, false), expected, 2);
        const study::Result r = study::allocate_result(*part);
        for (std::size_t i = 0; i < points.size(); ++i)
            REQUIRE(r.axes[0].values[i] == expected(i, 0));
    }
    CHECK_THROWS_AS(whole->grid.subset_range(400, 82), std::out_of_range);
    CHECK_THROWS_AS(by_range.grid.subset_range(1, 300), std::out_of_range);
}

TEST_CASE("a batch without the outputs a result does not keep assembles into the same result",
          "[ensemble][outputs]") {
    const std::vector<study::SweepAxis> axes{linear("k", 0.1, 0.4, 23), linear("b", 0.1, 0.5, 9)};
    for (const bool exponent : {false, true}) {
        study::Study s;
        s.analysis = study::AnalysisKind::ParameterMap;
        s.map.detect_period = false;
        s.map.largest_exponent = exponent;
        s.map.section.period = "2*pi/omega";
        s.map.recorded_sections = 2;
        s.sweep = axes;
        const auto study = resolve(s);
        const ensemble::SpecStorage spec(*study);
        REQUIRE(spec.point_rows() == 2);
        const ensemble::BatchOutputs used = ensemble::stored_outputs(*study);
        CHECK_FALSE(used.points);
        CHECK(used.scalars == exponent);
        const std::size_t first = 17, count = 150;
        // what a device leaves: statuses cycling through the outcomes, exponents and points from the index
        const auto status_of = [](std::size_t system) { return int(system % 9); };
        const auto exponent_of = [](std::size_t system) { return 0.25 * double(system) - 3.0; };
        const auto finish = [&](ensemble::BatchArrays& b) {
            for (std::size_t i = 0; i < b.count; ++i)
                b.status[i] = status_of(b.first + i);
            for (std::size_t i = 0; i < b.rows_filled.size(); ++i)
                b.rows_filled[i] = b.point_rows;
            for (std::size_t i = 0; i < b.points.size(); ++i)
                b.points[i] = double(i);
            for (std::size_t c = 0; c < std::size_t(b.scalar_columns); ++c)
                for (std::size_t i = 0; i < b.count; ++i)
                    b.scalars[c * b.count + i] = c == 1 ? exponent_of(b.first + i) : 99.0;
        };
        ensemble::BatchArrays full = ensemble::make_batch(*study, spec, 0, first, count, false);
        // a recycled batch of other systems, refilled with the outputs the result keeps only
        ensemble::BatchArrays trimmed = ensemble::make_batch(*study, spec, 0, 0, 300, false);
        finish(trimmed);
        ensemble::refill_batch(trimmed, *study, spec, 0, first, count, false, ensemble::BatchFill::InputsOnly,
                               used);
        ensemble::size_outputs(trimmed, used);
        CHECK(trimmed.point_rows == 0);
        CHECK(trimmed.points.empty());
        CHECK(trimmed.rows_filled.empty());
        CHECK(trimmed.status.size() == count);
        CHECK(trimmed.scalars.size() == (exponent ? std::size_t(spec.scalar_columns()) * count : 0));
        REQUIRE(trimmed.axis_values == full.axis_values);
        finish(full);
        finish(trimmed);
        study::Result from_full = study::allocate_result(*study),
                      from_trimmed = study::allocate_result(*study);
        ensemble::ResultAssembly(*study, from_full).store(full);
        ensemble::ResultAssembly(*study, from_trimmed).store(trimmed);
        REQUIRE(from_trimmed.status == from_full.status);
        REQUIRE(from_trimmed.scalars.size() == from_full.scalars.size());
        for (std::size_t system = 0; system < from_full.system_count; ++system) {
            const bool in_batch = system >= first && system < first + count;
            REQUIRE(int(from_trimmed.status[system]) == (in_batch ? status_of(system) : 0));
            if (!exponent) continue;
            const double expected =
                in_batch && status_of(system) != 0 ? exponent_of(system) : study::missing_value;
            REQUIRE(std::memcmp(&from_trimmed.scalars[0].values[system], &expected, sizeof(double)) == 0);
            REQUIRE(std::memcmp(&from_full.scalars[0].values[system], &expected, sizeof(double)) == 0);
        }
    }
}

TEST_CASE("continuation chains walk the first axis up then down on every row", "[ensemble][continuation]") {
    for (const bool two_axes : {false, true}) {
        study::Study s;
        s.analysis = study::AnalysisKind::Bifurcation;
        s.bifurcation.continuation = true;
        s.bifurcation.section.period = "2*pi/omega";
        s.bifurcation.recorded_sections = 2;
        s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection}};
        s.sweep = {linear("k", 0.1, 0.4, 9)};
        if (two_axes) s.sweep.push_back(linear("b", 0.1, 0.5, 4));
        const auto study = resolve(s);
        const std::size_t n0 = 9, rows = two_axes ? 4 : 1;
        const auto expected = [&](std::size_t system, std::size_t a) {
            const std::size_t row = system / (2 * n0), step = system % (2 * n0);
            const std::size_t i0 = step < n0 ? step : 2 * n0 - 1 - step;
            return a == 0 ? linear_value(s.sweep[0], i0) : linear_value(s.sweep[1], row);
        };
        const study::Result r = study::allocate_result(*study);
        REQUIRE(r.system_count == 2 * n0 * rows);
        for (std::size_t system = 0; system < r.system_count; ++system)
            for (std::size_t a = 0; a < r.axes.size(); ++a)
                REQUIRE(r.axes[a].values[system] == expected(system, a));
        const ensemble::SpecStorage spec(*study);
        require_batch_axes(ensemble::make_batch(*study, spec, 0, 3, r.system_count - 5, true), expected,
                           r.axes.size());
    }
}

TEST_CASE("each result scalar names the program column it is copied from", "[ensemble][outputs]") {
    // A map with period, exponent, an accessory and event counts: every column is the program's own,
    // in allocate_result's order; store() copies them so, which the kept maps of engine/cuda rely on.
    study::Study s;
    s.analysis = study::AnalysisKind::ParameterMap;
    s.map.detect_period = true;
    s.map.largest_exponent = true;
    s.map.section.period = "2*pi/omega";
    s.map.recorded_sections = 4;
    s.map.accessories = {{"max y1", "y1", study::Reduction::Max}};
    s.sweep = {linear("k", 0.1, 0.4, 5), linear("b", 0.1, 0.5, 3)};
    const auto map = resolve(s);
    const study::Result r = study::allocate_result(*map);
    const std::vector<std::string> names = study::scalar_column_names(*map);
    REQUIRE(names.size() == r.scalars.size());
    for (std::size_t c = 0; c < names.size(); ++c)
        CHECK(names[c] == r.scalars[c].name);
    CHECK(names == std::vector<std::string>{"period", "lambda_max", "max y1"});
    CHECK(ensemble::program_scalar_column(*map, "period") == 0);
    CHECK(ensemble::program_scalar_column(*map, "lambda_max") == 1);
    CHECK(ensemble::program_scalar_column(*map, "max y1") == 2);
    CHECK(ensemble::program_scalar_column(*map, "lambda1") == -1);

    // what store() writes under a name is the program column program_scalar_column names
    const ensemble::SpecStorage spec(*map);
    ensemble::BatchArrays b = ensemble::make_batch(*map, spec, 0, 0, r.system_count, false);
    for (std::size_t c = 0; c < std::size_t(b.scalar_columns); ++c)
        for (std::size_t i = 0; i < b.count; ++i)
            b.scalars[c * b.count + i] = double(100 * c + i);
    for (std::size_t i = 0; i < b.count; ++i)
        b.status[i] = ensemble::outcome_ok;
    study::Result stored = study::allocate_result(*map);
    ensemble::ResultAssembly(*map, stored).store(b);
    for (const std::string& name : names)
        CHECK(stored.scalar(name)->values[4] ==
              double(100 * ensemble::program_scalar_column(*map, name) + 4));

    study::Study basins = s;
    basins.analysis = study::AnalysisKind::Basins;
    basins.basins.section.period = "2*pi/omega";
    basins.sweep = {{study::SweepTarget::InitialValue, "y1", -1.0, 1.0, 4, study::SweepScale::Linear},
                    {study::SweepTarget::InitialValue, "y2", -1.0, 1.0, 3, study::SweepScale::Linear}};
    const auto labelled = resolve(basins);
    CHECK(ensemble::program_scalar_column(*labelled, "label") == -1); // the host's attractor table
    CHECK(ensemble::program_scalar_column(*labelled, "period") == 0);
}

TEST_CASE("a batch that keeps no statuses on the host holds none", "[ensemble][outputs]") {
    const auto study = map_over({linear("k", 0.1, 0.4, 23), linear("b", 0.1, 0.5, 9)});
    const ensemble::SpecStorage spec(*study);
    ensemble::BatchOutputs nothing;
    nothing.points = nothing.scalars = nothing.status = false;
    ensemble::BatchArrays b = ensemble::make_batch(*study, spec, 0, 0, 200, false);
    ensemble::refill_batch(b, *study, spec, 0, 17, 150, false, ensemble::BatchFill::OutputsOnly, nothing);
    ensemble::size_outputs(b, nothing);
    CHECK(b.count == 150);
    CHECK(b.status.empty());
    CHECK(b.scalars.empty());
    CHECK(b.points.empty());
    ensemble::BatchOutputs statuses_only = nothing;
    statuses_only.status = true;
    ensemble::size_outputs(b, statuses_only);
    CHECK(b.status.size() == 150);
}

TEST_CASE("a big batch stored on several threads equals the same systems stored in small batches",
          "[ensemble][result]") {
    // 2^18 systems and more: ResultAssembly::store copies such a batch in parts on several threads
    const std::size_t systems = (std::size_t(1) << 18) + 777;
    study::Study diagram;
    diagram.sweep = {linear("k", 0.1, 0.4, int(systems))};
    diagram.bifurcation.section.period = "2*pi/omega";
    diagram.bifurcation.recorded_sections = 3;
    diagram.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection}};
    study::Study map;
    map.analysis = study::AnalysisKind::ParameterMap;
    map.map.detect_period = true;
    map.map.largest_exponent = true;
    map.map.section.period = "2*pi/omega";
    map.sweep = {linear("k", 0.1, 0.4, 641), linear("b", 0.1, 0.5, int(systems / 641) + 1)};
    for (const study::Study& s : {diagram, map}) {
        const auto study = resolve(s);
        const ensemble::SpecStorage spec(*study);
        const std::size_t n = study->system_count();
        REQUIRE(n >= (std::size_t(1) << 18));
        // what a device leaves, from each system's index alone
        const auto finish = [](ensemble::BatchArrays& b) {
            for (std::size_t i = 0; i < b.count; ++i) {
                const std::size_t system = b.first + i;
                b.status[i] = int(system % 9);
                if (!b.rows_filled.empty()) b.rows_filled[i] = int(system % std::size_t(b.point_rows + 1));
                for (int row = 0; row < b.point_rows; ++row)
                    for (int c = 0; c < b.point_columns; ++c)
                        b.points[(std::size_t(row) * std::size_t(b.point_columns) + std::size_t(c)) *
                                     b.count +
                                 i] = std::sin(double(system) + 0.1 * row + 0.01 * c);
                for (int c = 0; c < b.scalar_columns; ++c)
                    b.scalars[std::size_t(c) * b.count + i] = std::cos(double(system) * (c + 1));
            }
        };
        study::Result whole = study::allocate_result(*study), parts = study::allocate_result(*study);
        {
            ensemble::BatchArrays big = ensemble::make_batch(*study, spec, 0, 0, n, false);
            finish(big);
            ensemble::ResultAssembly(*study, whole).store(big);
        }
        ensemble::ResultAssembly in_parts(*study, parts);
        for (std::size_t first = 0; first < n; first += 4096) {
            ensemble::BatchArrays small =
                ensemble::make_batch(*study, spec, 0, first, std::min<std::size_t>(4096, n - first), false);
            finish(small);
            in_parts.store(small);
        }
        REQUIRE(whole.status == parts.status);
        REQUIRE(whole.points.rows_filled == parts.points.rows_filled);
        REQUIRE(whole.points.values.size() == parts.points.values.size());
        // bit for bit (missing values are NaN); an empty table has no data pointer to compare
        CHECK((whole.points.values.empty() ||
               std::memcmp(whole.points.values.data(), parts.points.values.data(),
                           whole.points.values.size() * sizeof(double)) == 0));
        REQUIRE(whole.scalars.size() == parts.scalars.size());
        for (std::size_t c = 0; c < whole.scalars.size(); ++c)
            CHECK(std::memcmp(whole.scalars[c].values.data(), parts.scalars[c].values.data(),
                              n * sizeof(double)) == 0);
        // and the values are the device's, not the layout's defaults
        CHECK(int(whole.status[n - 1]) == int((n - 1) % 9));
    }
}

TEST_CASE("a big diagram's result, its points filled on a thread of their own, is laid out as a small one's",
          "[ensemble][result]") {
    // 2^18 systems and more: allocate_result fills the points table while the other columns fill
    const std::size_t systems = (std::size_t(1) << 18) + 333;
    {
        study::Study s;
        s.sweep = {linear("k", 0.1, 0.4, int(systems))};
        s.bifurcation.section.period = "2*pi/omega";
        s.bifurcation.recorded_sections = 3;
        s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection},
                                {"y2", "", study::IntervalValue::AtSection}};
        const study::SweepAxis axis = s.sweep[0];
        const auto big = resolve(s);
        s.sweep = {linear("k", 0.1, 0.4, 5)};
        const auto small = resolve(s);
        for (const bool with_points : {true, false}) {
            const study::Result r = study::allocate_result(*big, with_points),
                                few = study::allocate_result(*small, with_points);
            REQUIRE(r.system_count == systems);
            REQUIRE(r.points.columns == few.points.columns);
            REQUIRE(r.points.rows_per_system == few.points.rows_per_system);
            REQUIRE(r.points.values.size() == systems * r.points.rows_per_system * r.points.columns.size());
            REQUIRE(r.points.rows_filled.size() == (with_points ? systems : 0));
            CHECK(std::all_of(r.points.values.begin(), r.points.values.end(),
                              [](double v) { return std::isnan(v); }));
            CHECK(std::count(r.points.rows_filled.begin(), r.points.rows_filled.end(), 0u) ==
                  long(r.points.rows_filled.size()));
            CHECK(r.count(study::SystemStatus::NotRun) == systems);
            REQUIRE(r.scalars.size() == few.scalars.size());
            for (std::size_t c = 0; c < r.scalars.size(); ++c) {
                CHECK(r.scalars[c].name == few.scalars[c].name);
                CHECK(std::all_of(r.scalars[c].values.begin(), r.scalars[c].values.end(),
                                  [](double v) { return std::isnan(v); }));
            }
            REQUIRE(r.axes.size() == 1);
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < systems; ++i)
                wrong += r.axes[0].values[i] != linear_value(axis, i);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("the batch pool hands back the memory it kept, up to its bytes", "[ensemble][pool]") {
    const auto study = map_over({linear("k", 0.1, 0.4, 37), linear("b", 0.1, 0.5, 11)});
    const ensemble::SpecStorage spec(*study);
    ensemble::BatchArrays big = ensemble::make_batch(*study, spec, 2, 0, 407, false),
                          small = ensemble::make_batch(*study, spec, 2, 0, 40, false);
    const std::size_t big_bytes = ensemble::held_bytes(big), small_bytes = ensemble::held_bytes(small);
    REQUIRE(big_bytes >= 407 * (2 * sizeof(double) + sizeof(int)));
    REQUIRE(small_bytes < big_bytes);
    ensemble::BatchPool pool(big_bytes + small_bytes);
    CHECK_FALSE(pool.take());
    const double* big_axes = big.axis_values.data();
    pool.give(std::move(small));
    pool.give(std::move(big));
    CHECK(pool.size() == 2);
    CHECK(pool.bytes() == big_bytes + small_bytes);
    pool.give(ensemble::make_batch(*study, spec, 2, 0, 10, false)); // no room left: freed
    CHECK(pool.size() == 2);
    std::optional<ensemble::BatchArrays> taken = pool.take(); // the one holding the most first
    REQUIRE(taken);
    CHECK(taken->axis_values.data() == big_axes);
    CHECK(pool.bytes() == small_bytes);
    REQUIRE(pool.take());
    CHECK_FALSE(pool.take());
    CHECK(pool.bytes() == 0);
}

TEST_CASE("a pooled batch of an earlier run keeps none of its values in the next run's batch",
          "[ensemble][pool]") {
    // the earlier run: a diagram whose batch holds points, statuses and rows filled
    study::Study diagram;
    diagram.sweep = {linear("k", 0.1, 0.4, 300)};
    diagram.bifurcation.section.period = "2*pi/omega";
    diagram.bifurcation.recorded_sections = 3;
    diagram.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection},
                                  {"y2", "", study::IntervalValue::AtSection}};
    const auto earlier = resolve(diagram);
    const ensemble::SpecStorage earlier_spec(*earlier);
    ensemble::BatchArrays old = ensemble::make_batch(*earlier, earlier_spec, 2, 0, 300, false);
    std::fill(old.points.begin(), old.points.end(), 7.0);
    std::fill(old.status.begin(), old.status.end(), 3);
    std::fill(old.rows_filled.begin(), old.rows_filled.end(), 2);
    std::fill(old.carry.begin(), old.carry.end(), 9u);
    ensemble::BatchPool pool(std::size_t(1) << 30);
    // the next run: a smaller diagram of the same shape, then a map with scalars and no points
    diagram.sweep = {linear("k", 0.2, 0.3, 120)};
    const auto next_diagram = resolve(diagram);
    const auto next_map = map_over({linear("k", 0.1, 0.4, 37), linear("b", 0.1, 0.5, 5)});
    for (const auto& next : {next_diagram, next_map}) {
        const ensemble::SpecStorage spec(*next);
        const std::size_t n = next->system_count();
        pool.give(ensemble::BatchArrays(old));
        ensemble::BatchArrays reused = *pool.take();
        ensemble::refill_batch(reused, *next, spec, 2, 0, n, false);
        const ensemble::BatchArrays fresh = ensemble::make_batch(*next, spec, 2, 0, n, false);
        CHECK(reused.axis_values == fresh.axis_values);
        CHECK(reused.status == fresh.status);
        CHECK(reused.rows_filled == fresh.rows_filled);
        CHECK(reused.carry == fresh.carry);
        REQUIRE(reused.points.size() == fresh.points.size());
        CHECK(
            std::all_of(reused.points.begin(), reused.points.end(), [](double v) { return std::isnan(v); }));
        REQUIRE(reused.scalars.size() == fresh.scalars.size());
        CHECK(std::all_of(reused.scalars.begin(), reused.scalars.end(),
                          [](double v) { return std::isnan(v); }));
        // as the CUDA runner refills: outputs only, sized for the new study, for the download to
        // overwrite whole (engine/cuda/ensemble_batch.cpp unpack)
        pool.give(ensemble::BatchArrays(old));
        ensemble::BatchArrays staged = *pool.take();
        const ensemble::BatchOutputs outputs = ensemble::stored_outputs(*next);
        ensemble::refill_batch(staged, *next, spec, 0, 0, n, false, ensemble::BatchFill::OutputsOnly,
                               outputs);
        ensemble::size_outputs(staged, outputs);
        CHECK(staged.axis_values.empty());
        CHECK(staged.carry.empty());
        CHECK(staged.points.size() == (outputs.points ? fresh.points.size() : 0));
        CHECK(staged.scalars.size() == (outputs.scalars ? fresh.scalars.size() : 0));
        CHECK(staged.rows_filled.size() == (outputs.points ? n : 0));
        CHECK(staged.status.size() == n);
    }
}
