#include "engine/ensemble/result_assembly.h"

#include "bif/study/spec.h"

#include <algorithm>
#include <functional>
#include <thread>

namespace bif::ensemble {

static_assert(outcome_not_run == int(study::SystemStatus::NotRun));
static_assert(outcome_ok == int(study::SystemStatus::Ok));
static_assert(outcome_stopped_by_model == int(study::SystemStatus::StoppedByModel));
static_assert(outcome_step_budget_exceeded == int(study::SystemStatus::StepBudgetExceeded));
static_assert(outcome_step_size_underflow == int(study::SystemStatus::StepSizeUnderflow));
static_assert(outcome_non_finite == int(study::SystemStatus::NonFinite));
static_assert(outcome_section_not_reached == int(study::SystemStatus::SectionNotReached));
static_assert(outcome_invalid_setup == int(study::SystemStatus::InvalidSetup));
static_assert(outcome_escaped == int(study::SystemStatus::Escaped));
static_assert(outcome_events_accumulate == int(study::SystemStatus::EventsAccumulate));

namespace {

// The program's scalar columns in the order allocate_result lays out the Result's.
std::vector<int> scalar_sources(const study::ResolvedStudy& r) {
    const study::Study& s = r.study;
    std::vector<int> sources;
    switch (s.analysis) {
    case study::AnalysisKind::Lyapunov: {
        const int k = s.lyapunov.mode == study::LyapunovMode::Spectrum ? int(r.model->num_states()) : 1;
        for (int i = 0; i <= k + 1; ++i) // the exponents, averaged_time, lambda_change
            sources.push_back(i);
        break;
    }
    case study::AnalysisKind::ParameterMap: {
        if (s.map.detect_period) sources.push_back(0);
        if (s.map.largest_exponent) sources.push_back(1);
        const int accessories = int(r.formulas.accessories.size());
        for (int a = 0; a < accessories; ++a)
            sources.push_back(2 + a);
        if (s.map.count_events)
            for (std::size_t k = 0; k < r.model->events.size(); ++k)
                sources.push_back(2 + accessories + int(k));
        break;
    }
    case study::AnalysisKind::Basins:
        sources = {-1, 0}; // label (the attractor table), period
        break;
    default:
        if (r.is_continuation()) sources.push_back(-1); // "direction", filled by allocate_result
        break;
    }
    return sources;
}

} // namespace

int program_scalar_column(const study::ResolvedStudy& study, std::string_view name) {
    const std::vector<std::string> names = study::scalar_column_names(study);
    const std::vector<int> sources = scalar_sources(study);
    for (std::size_t c = 0; c < names.size() && c < sources.size(); ++c)
        if (names[c] == name) return sources[c];
    return -1;
}

BatchOutputs stored_outputs(const study::ResolvedStudy& study) {
    BatchOutputs outputs;
    const study::AnalysisKind kind = study.study.analysis;
    outputs.points = kind == study::AnalysisKind::Bifurcation || kind == study::AnalysisKind::Trajectory ||
                     kind == study::AnalysisKind::Basins;
    outputs.scalars = false;
    for (int source : scalar_sources(study))
        outputs.scalars = outputs.scalars || source >= 0;
    return outputs;
}

ResultAssembly::ResultAssembly(const study::ResolvedStudy& study, study::Result& result)
    : study_(study), result_(result), scalar_sources_(scalar_sources(study)),
      attractors_(study.study.basins.match_tolerance, study.study.basins.max_attractors) {
    if (study.study.analysis == study::AnalysisKind::Lyapunov)
        result_.scalars.push_back(
            {"lambda_change", std::vector<double>(result_.system_count, study::missing_value)});
}

namespace {

// Systems of a batch above which store() copies on several threads: a 2^21-system batch's statuses
// and scalars took the calling thread tens of milliseconds, which a big GPU run's host side waits for.
constexpr std::size_t parallel_store_systems = std::size_t(1) << 18;
constexpr unsigned most_store_threads = 8;

// Runs part(begin, end) over [0, count) in contiguous parts, one per thread.
void in_parts(std::size_t count, unsigned threads,
              const std::function<void(std::size_t, std::size_t)>& part) {
    if (threads <= 1) return part(0, count);
    std::vector<std::thread> pool;
    const std::size_t each = (count + threads - 1) / threads;
    for (unsigned t = 1; t < threads && t * each < count; ++t)
        pool.emplace_back(part, t * each, std::min(count, (t + 1) * each));
    part(0, std::min(count, each));
    for (auto& thread : pool)
        thread.join();
}

} // namespace

// Systems [begin, end) of the batch, basins excepted: each system's values go to its own rows and
// cells of the result, so parts of a batch may be stored at once.
void ResultAssembly::store_values(const BatchArrays& b, std::size_t begin, std::size_t end) {
    auto& points = result_.points;
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t system = b.first + i;
        const int outcome = b.status[i];
        result_.status[system] = static_cast<study::SystemStatus>(outcome);
        if (outcome == outcome_not_run) continue;
        if (points.rows_per_system > 0) {
            const std::size_t rows =
                std::min<std::size_t>(std::size_t(b.rows_filled[i]), points.rows_per_system);
            points.rows_filled[system] = static_cast<std::uint32_t>(rows);
            for (std::size_t row = 0; row < rows; ++row)
                for (std::size_t c = 0; c < points.width(); ++c)
                    points.row(system, row)[c] = b.point(i, int(row), int(c));
        }
        for (std::size_t c = 0; c < scalar_sources_.size() && c < result_.scalars.size(); ++c)
            if (scalar_sources_[c] >= 0) result_.scalars[c].values[system] = b.scalar(i, scalar_sources_[c]);
    }
}

void ResultAssembly::store(const BatchArrays& b) {
    if (study_.study.analysis != study::AnalysisKind::Basins) {
        const unsigned threads =
            b.count < parallel_store_systems
                ? 1u
                : std::clamp(std::thread::hardware_concurrency(), 1u, most_store_threads);
        in_parts(b.count, threads, [&](std::size_t begin, std::size_t end) { store_values(b, begin, end); });
        return;
    }
    // Basins: attractors are numbered in system order, through one table.
    store_values(b, 0, b.count);
    const std::size_t n = std::size_t(b.states);
    std::vector<double> section_points;
    for (std::size_t i = 0; i < b.count; ++i) {
        const std::size_t system = b.first + i;
        const int outcome = b.status[i];
        if (outcome == outcome_not_run) continue;
        if (outcome == outcome_escaped) {
            result_.scalars[0].values[system] = analysis::AttractorTable::escape_label;
            continue;
        }
        if (is_failure_outcome(outcome)) {
            result_.scalars[0].values[system] = -1.0;
            continue;
        }
        const std::size_t rows = std::size_t(b.rows_filled[i]);
        section_points.resize(rows * n);
        for (std::size_t row = 0; row < rows; ++row)
            for (std::size_t k = 0; k < n; ++k)
                section_points[row * n + k] = b.point(i, int(row), int(k));
        const double period = b.scalar(i, 0);
        const int label = attractors_.classify(period == period ? int(period) : 0, section_points, rows, n);
        result_.scalars[0].values[system] = label;
    }
}

std::vector<std::string> ResultAssembly::warnings() const {
    if (!attractors_.overflowed()) return {};
    return {"more attractors than max_attractors (" + std::to_string(study_.study.basins.max_attractors) +
            "): systems on the others are labelled -1"};
}

} // namespace bif::ensemble
