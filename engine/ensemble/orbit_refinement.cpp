#include "engine/ensemble/orbit_refinement.h"

#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"

#include <cmath>
#include <stdexcept>

namespace bif::ensemble {

static_assert(orbit_not_run == int(study::OrbitStatus::NotRun));
static_assert(orbit_converged == int(study::OrbitStatus::Converged));
static_assert(orbit_not_converged == int(study::OrbitStatus::NotConverged));
static_assert(orbit_singular == int(study::OrbitStatus::Singular));
static_assert(orbit_integration_failed == int(study::OrbitStatus::IntegrationFailed));
static_assert(orbit_no_period == int(study::OrbitStatus::NoPeriod));

namespace {

bool rows_match(const study::PointBlock& points, std::size_t system, std::size_t a, std::size_t b,
                double tolerance) {
    for (std::size_t c = 0; c < points.width(); ++c) {
        const double x = points.value(system, a, c), y = points.value(system, b, c);
        if (!(std::abs(x - y) <= tolerance * (1.0 + std::abs(x)))) return false;
    }
    return true;
}

} // namespace

int detected_period(const study::PointBlock& points, std::size_t system, double tolerance, int max_period) {
    const std::size_t rows = points.rows_filled.empty() ? 0 : points.rows_filled[system];
    for (std::size_t p = 1; p <= std::size_t(std::max(max_period, 0)) && 2 * p <= rows; ++p) {
        bool periodic = true;
        for (std::size_t r = 0; r + p < rows && periodic; ++r)
            periodic = rows_match(points, system, r, r + p, tolerance);
        if (periodic) return int(p);
    }
    return 0;
}

OrbitBatch make_orbit_batch(const study::ResolvedStudy& study, study::Result& result) {
    const int first = study::first_orbit_column(result);
    const std::vector<int>& columns = study.formulas.orbit_guess_columns;
    if (first < 0 || columns.size() != study.model->num_states() || result.points.rows_per_system == 0)
        throw std::invalid_argument("orbit refinement needs the diagram's points and the orbit columns");
    const study::OrbitRefinementSettings& settings = study.study.bifurcation.orbits;
    std::vector<double>& orbit_status = result.scalars[std::size_t(first)].values;
    std::vector<double>& orbit_period = result.scalars[std::size_t(first) + 1].values;
    OrbitBatch b;
    std::vector<int> periods;
    for (std::size_t s = 0; s < result.system_count; ++s) {
        if (result.status[s] != study::SystemStatus::Ok) continue;
        const int p = detected_period(result.points, s, settings.period_tolerance, settings.max_period);
        if (p == 0) {
            orbit_status[s] = double(orbit_no_period);
            continue;
        }
        orbit_period[s] = p;
        b.systems.push_back(s);
        periods.push_back(p);
    }
    b.count = b.systems.size();
    b.states = int(columns.size());
    b.axes = int(result.axes.size());
    b.period = std::move(periods);
    b.axis_values.resize(std::size_t(b.axes) * b.count);
    b.guess.resize(std::size_t(b.states) * b.count);
    for (std::size_t i = 0; i < b.count; ++i) {
        const std::size_t s = b.systems[i];
        for (std::size_t a = 0; a < std::size_t(b.axes); ++a)
            b.axis_values[a * b.count + i] = result.axes[a].values[s];
        const std::size_t last = result.points.rows_filled[s] - 1;
        for (std::size_t k = 0; k < columns.size(); ++k)
            b.guess[k * b.count + i] = result.points.value(s, last, std::size_t(columns[k]));
    }
    const double nan = study::missing_value;
    b.point.assign(std::size_t(b.states) * b.count, nan);
    b.multipliers.assign(2 * std::size_t(b.states) * b.count, nan);
    b.max_modulus.assign(b.count, nan);
    b.iterations.assign(b.count, 0);
    b.status.assign(b.count, orbit_not_run);
    return b;
}

OrbitSettings orbit_settings(const study::ResolvedStudy& study) {
    const study::OrbitRefinementSettings& s = study.study.bifurcation.orbits;
    OrbitSettings out;
    out.max_iterations = s.max_iterations;
    out.max_period = s.max_period;
    out.tolerance = s.tolerance;
    return out;
}

OrbitView<double> orbit_view_of(OrbitBatch& b) {
    OrbitView<double> v;
    v.stride = b.count;
    v.axis_values = b.axis_values.empty() ? nullptr : b.axis_values.data();
    v.guess = b.guess.data();
    v.period = b.period.data();
    v.point = b.point.data();
    v.multipliers = b.multipliers.data();
    v.max_modulus = b.max_modulus.data();
    v.iterations = b.iterations.data();
    v.status = b.status.data();
    return v;
}

void store_orbits(const OrbitBatch& b, study::Result& result) {
    const int first = study::first_orbit_column(result);
    if (first < 0) return;
    auto column = [&](std::size_t c) -> std::vector<double>& {
        return result.scalars[std::size_t(first) + c].values;
    };
    const std::size_t n = std::size_t(b.states);
    for (std::size_t i = 0; i < b.count; ++i) {
        const std::size_t s = b.systems[i];
        column(0)[s] = b.status[i];
        column(2)[s] = b.iterations[i];
        if (b.status[i] != orbit_converged) continue;
        column(3)[s] = b.max_modulus[i];
        column(4)[s] = b.max_modulus[i] < 1.0 ? 1.0 : 0.0;
        for (std::size_t k = 0; k < n; ++k)
            column(5 + k)[s] = b.point[k * b.count + i];
        for (std::size_t k = 0; k < 2 * n; ++k)
            column(5 + n + k)[s] = b.multipliers[k * b.count + i];
    }
}

} // namespace bif::ensemble
