#include "engine/jobs/work_probe.h"

#include "engine/codegen/codegen.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace bif::jobs {

SecondsClock steady_seconds() {
    return [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
}

namespace {

// Grid points spread evenly from 0 to the last, both included (as many as there are, up to `samples`).
std::vector<std::size_t> spread_points(std::size_t points, std::size_t samples) {
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < samples; ++i) {
        const std::size_t p = samples == 1 ? 0 : i * (points - 1) / (samples - 1);
        if (chosen.empty() || chosen.back() != p) chosen.push_back(p);
    }
    return chosen;
}

// Shortens transient and recorded sections alike; returns the fraction of sections kept.
double shorten_sections(int& transient, int& recorded, double fraction) {
    const int total = transient + recorded;
    const int kept_recorded = std::clamp(int(std::lround(recorded * fraction)), 1, recorded);
    const int kept_transient = std::clamp(int(std::lround(transient * fraction)), 0, transient);
    transient = kept_transient;
    recorded = kept_recorded;
    return double(kept_transient + kept_recorded) / double(total);
}

double shorten(study::Study& s, double fraction) {
    switch (s.analysis) {
    case study::AnalysisKind::Bifurcation:
        s.bifurcation.continuation = false;
        s.bifurcation.orbits.refine = false; // the diagram's work: its orbits' refinement is a few percent
        return shorten_sections(s.bifurcation.transient_sections, s.bifurcation.recorded_sections, fraction);
    case study::AnalysisKind::ParameterMap:
        return shorten_sections(s.map.transient_sections, s.map.recorded_sections, fraction);
    case study::AnalysisKind::Basins:
        return shorten_sections(s.basins.transient_sections, s.basins.recorded_sections, fraction);
    case study::AnalysisKind::Lyapunov: {
        // at least one renormalisation interval
        auto& l = s.lyapunov;
        const double total = l.transient_time + l.averaging_time;
        l.transient_time *= fraction;
        l.averaging_time = std::max(l.averaging_time * fraction, l.renormalization_interval);
        l.convergence_tolerance = 0; // a short average converges by chance
        return std::min(1.0, (l.transient_time + l.averaging_time) / total);
    }
    case study::AnalysisKind::Trajectory: {
        auto& t = s.trajectory;
        const double end = s.t0 + (t.t_end - s.t0) * fraction;
        std::erase_if(t.times, [end](double v) { return v > end; });
        if (t.times.empty() && !s.trajectory.times.empty()) t.times = {end};
        t.output_count = std::max(2, int(std::lround(t.output_count * fraction)));
        t.t_end = end;
        return fraction;
    }
    case study::AnalysisKind::PhasePlane: // runs on the CPU alone: never probed, kept whole
        return 1.0;
    }
    return 1.0;
}

} // namespace

study::ResolvedStudy shortened_study(const study::ResolvedStudy& study, double fraction, std::size_t samples,
                                     double* actual) {
    study::ResolvedStudy s = study;
    s.run_system_count = 0;
    const double kept = shorten(s.study, std::clamp(fraction, 0.0, 1.0));
    if (actual) *actual = kept;
    std::vector<std::size_t> points;
    for (std::size_t p : spread_points(study.grid.system_count(), std::max<std::size_t>(samples, 1)))
        points.push_back(study.grid.whole_point(p));
    s.grid = study.grid.subset(std::move(points));
    return s;
}

double smallest_fraction(const study::Study& s) {
    const auto sections = [](int transient, int recorded) { return 1.0 / double(transient + recorded); };
    switch (s.analysis) {
    case study::AnalysisKind::Bifurcation:
        return sections(s.bifurcation.transient_sections, s.bifurcation.recorded_sections);
    case study::AnalysisKind::ParameterMap:
        return sections(s.map.transient_sections, s.map.recorded_sections);
    case study::AnalysisKind::Basins:
        return sections(s.basins.transient_sections, s.basins.recorded_sections);
    case study::AnalysisKind::Lyapunov:
    case study::AnalysisKind::Trajectory:
        return 1.0 / 1024;
    case study::AnalysisKind::PhasePlane:
        return 1.0;
    }
    return 1.0;
}

WorkMeasure measure_work(const study::ResolvedStudy& study, study::Backend& probe,
                         const std::atomic<bool>& cancel, const SecondsClock& clock,
                         const ProbeOptions& options) {
    WorkMeasure m;
    const double start = clock();
    study::RunControl control(cancel, {}, 1);
    double previous_fraction = 0;
    std::vector<double> previous_seconds; // per sample, of the slice before
    for (double fraction = smallest_fraction(study.study);;) {
        double actual = 1;
        const study::ResolvedStudy slice = shortened_study(study, fraction, options.samples, &actual);
        // Each sample alone: a run lasts as long as its slowest system (a GPU's wave waits for its
        // last lane), so the heaviest sample matters apart from the mean.
        std::vector<double> seconds(slice.system_count());
        for (std::size_t i = 0; i < seconds.size() && m.failure.empty(); ++i) {
            study::ResolvedStudy one = slice;
            one.grid = slice.grid.subset({i});
            const double before = clock();
            try {
                const study::Result r = probe.run(one, control);
                if (!r.info.complete) m.failure = "cancelled";
            } catch (const std::exception& e) {
                m.failure = e.what();
            }
            seconds[i] = clock() - before;
        }
        if (!m.failure.empty()) break;
        // Extrapolated from the last two slices where the first was long enough to tell the fixed
        // cost from the rest; else from this one alone. The slope never exceeds this slice's own
        // time per fraction (its fixed cost is not negative): where it would, the slice before was
        // cut short by nothing but noise (a preempted timer), which on a loaded machine made the
        // slope several times too large.
        bool slope = !previous_seconds.empty() && actual > previous_fraction;
        double sum = 0, heaviest = 0, slice_seconds = 0;
        for (std::size_t i = 0; i < seconds.size(); ++i) {
            const bool rose = slope && seconds[i] > previous_seconds[i];
            slope = slope && rose;
            const double own = seconds[i] / actual;
            const double per_fraction =
                rose ? std::min((seconds[i] - previous_seconds[i]) / (actual - previous_fraction), own) : own;
            sum += per_fraction;
            heaviest = std::max(heaviest, per_fraction);
            slice_seconds += seconds[i];
        }
        m.work = sum / double(std::max<std::size_t>(seconds.size(), 1));
        m.heaviest = heaviest;
        // Two slices at least, so that the slope drops the fixed cost; one where it is long enough
        // that the fixed cost hardly counts (a longer slice would cost too much).
        if ((slice_seconds >= options.min_seconds && !previous_seconds.empty()) ||
            slice_seconds >= 10 * options.min_seconds || actual >= 1.0)
            break;
        if (slope && options.decided && options.decided(m.work, clock() - start, slice_seconds)) break;
        previous_fraction = actual;
        previous_seconds = seconds;
        // long enough to reach min_seconds with a fifth to spare, at most four times the last slice,
        // at least three times (the slope is the difference of the two: it must stand out of the
        // timer's and the scheduler's noise)
        const double growth = std::clamp(1.2 * options.min_seconds / std::max(slice_seconds, 1e-9), 3.0, 4.0);
        fraction = std::min(1.0, fraction * growth);
    }
    if (study.is_continuation()) {
        m.work *= double(study.chain_length());
        m.heaviest *= double(study.chain_length());
    }
    m.probe_seconds = clock() - start;
    return m;
}

std::string study_source(const study::ResolvedStudy& study) {
    try {
        return codegen::generate_source(study.codegen_request(codegen::Precision::Double));
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::string work_key(const study::ResolvedStudy& study, const std::string& source, std::size_t samples) {
    std::string key = study::write_study_json(study.study);
    key += '\n';
    key += study.base_directory;
    key += '\n';
    key += source;
    key += "\nsamples";
    for (std::size_t p : spread_points(study.grid.system_count(), std::max<std::size_t>(samples, 1)))
        key += ' ' + std::to_string(study.grid.whole_point(p));
    key += "\nchains " + std::to_string(study.is_continuation() ? study.chain_length() : 0);
    return key;
}

std::optional<KnownWork> WorkMemo::find(const std::string& key) const {
    std::lock_guard lock(mutex_);
    for (auto it = works_.begin(); it != works_.end(); ++it) {
        if (it->first != key) continue;
        works_.splice(works_.begin(), works_, it);
        return works_.front().second;
    }
    return std::nullopt;
}

void WorkMemo::keep(const std::string& key, KnownWork work) {
    std::lock_guard lock(mutex_);
    std::erase_if(works_, [&](const auto& entry) { return entry.first == key; });
    works_.emplace_front(key, work);
    if (works_.size() > limit_) works_.pop_back();
}

} // namespace bif::jobs
