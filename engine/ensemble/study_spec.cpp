#include "engine/ensemble/study_spec.h"

#include "bif/study/entry.h"

#include <algorithm>
#include <stdexcept>

namespace bif::ensemble {

static_assert(analysis_bifurcation == int(study::AnalysisKind::Bifurcation));
static_assert(analysis_lyapunov == int(study::AnalysisKind::Lyapunov));
static_assert(analysis_map == int(study::AnalysisKind::ParameterMap));
static_assert(analysis_basins == int(study::AnalysisKind::Basins));
static_assert(analysis_trajectory == int(study::AnalysisKind::Trajectory));

namespace {

int record_code(study::IntervalValue v) {
    switch (v) {
    case study::IntervalValue::MaxBetween:
        return record_max_between;
    case study::IntervalValue::MinBetween:
        return record_min_between;
    case study::IntervalValue::AtSection:
        break;
    }
    return record_at_section;
}

int reduce_code(study::Reduction r) {
    switch (r) {
    case study::Reduction::Min:
        return reduce_min;
    case study::Reduction::Mean:
        return reduce_mean;
    case study::Reduction::Max:
        break;
    }
    return reduce_max;
}

} // namespace

std::vector<double> trajectory_times(const study::Study& s) {
    const auto& t = s.trajectory;
    if (!t.times.empty()) return t.times;
    std::vector<double> times(static_cast<std::size_t>(std::max(t.output_count, 1)));
    const double span = t.t_end - s.t0;
    const std::size_t last = times.size() - 1;
    for (std::size_t i = 0; i < times.size(); ++i)
        times[i] = last == 0 ? s.t0 : s.t0 + span * static_cast<double>(i) / static_cast<double>(last);
    if (last > 0) times[last] = t.t_end;
    return times;
}

const char* method_tag(study::Method method) {
    switch (method) {
    case study::Method::Rk4:
        return "Rk4";
    case study::Method::Rkck45:
        return "Rkck45";
    case study::Method::Dopri5:
        return "Dopri5";
    case study::Method::Rkc:
        return "Rkc";
    case study::Method::Rosenbrock23:
        return "Rosenbrock23";
    case study::Method::Rodas4:
        return "Rodas4";
    case study::Method::Iteration:
        return "Iteration";
    }
    return "Rkck45";
}

SpecStorage::SpecStorage(const study::ResolvedStudy& r) {
    const study::Study& s = r.study;
    auto& sp = spec_;
    states_ = static_cast<int>(r.model->num_states());
    rtol_ = r.rtol;
    atol_ = r.atol;
    parameters_ = r.parameters;
    initial_ = r.initial_state;
    sp.analysis = static_cast<int>(s.analysis);
    sp.rtol = rtol_.data();
    sp.atol = atol_.data();
    sp.initial_step = s.solver.initial_step;
    sp.min_step = s.solver.min_step;
    sp.max_step = s.solver.max_step;
    sp.max_growth = s.solver.max_growth;
    sp.max_shrink = s.solver.min_shrink;
    sp.max_steps = s.solver.max_steps;
    sp.bound = s.solver.bound;
    sp.adaptive = s.solver.method != study::Method::Rk4 && s.solver.method != study::Method::Iteration;
    sp.t0 = s.t0;
    sp.parameters = parameters_.data();
    sp.parameter_count = static_cast<int>(parameters_.size());
    sp.initial = initial_.data();
    sp.axis_count = static_cast<int>(std::min<std::size_t>(r.axes.size(), max_axes));
    for (int a = 0; a < sp.axis_count; ++a) {
        sp.axis_is_state[a] = r.axes[a].target == study::SweepTarget::InitialValue;
        sp.axis_slot[a] = static_cast<int>(r.axes[a].slot);
    }
    sp.model_event_count = static_cast<int>(r.model->events.size());
    for (const auto& q : r.formulas.recorded) {
        record_observable_.push_back(q.observable);
        record_mode_.push_back(record_code(q.value));
    }
    sp.record_count = static_cast<int>(record_observable_.size());
    sp.record_observable = record_observable_.data();
    sp.record_mode = record_mode_.data();
    for (const auto& q : r.formulas.accessories) {
        accessory_observable_.push_back(q.observable);
        accessory_reduce_.push_back(reduce_code(q.reduce));
        accessory_over_.push_back(q.over == study::ReductionDomain::Sections ? over_sections : over_steps);
    }
    sp.accessory_count = static_cast<int>(accessory_observable_.size());
    sp.accessory_observable = accessory_observable_.data();
    sp.accessory_reduce = accessory_reduce_.data();
    sp.accessory_over = accessory_over_.data();
    sp.section_event = r.formulas.section_event;
    sp.period_observable = r.formulas.period_observable;

    switch (s.analysis) {
    case study::AnalysisKind::Bifurcation:
        fill_section(r, s.bifurcation.section, s.bifurcation.transient_sections,
                     s.bifurcation.recorded_sections);
        point_rows_ = s.bifurcation.recorded_sections;
        point_columns_ = sp.record_count;
        break;
    case study::AnalysisKind::ParameterMap:
        fill_section(r, s.map.section, s.map.transient_sections, s.map.recorded_sections);
        sp.detect_period = s.map.detect_period;
        sp.period_tolerance = s.map.period.tolerance;
        sp.max_period = s.map.period.max_period;
        sp.map_exponent = s.map.largest_exponent;
        sp.renormalization_interval = s.map.renormalization_interval;
        sp.count_events = s.map.count_events;
        point_rows_ = s.map.recorded_sections;
        point_columns_ = states_;
        scalar_columns_ = 2 + sp.accessory_count + sp.model_event_count;
        break;
    case study::AnalysisKind::Basins:
        fill_section(r, s.basins.section, s.basins.transient_sections, s.basins.recorded_sections);
        sp.detect_period = 1;
        sp.period_tolerance = s.basins.period.tolerance;
        sp.max_period = s.basins.period.max_period;
        point_rows_ = s.basins.recorded_sections;
        point_columns_ = states_;
        scalar_columns_ = 1;
        break;
    case study::AnalysisKind::Lyapunov:
        sp.lyapunov_spectrum = s.lyapunov.mode == study::LyapunovMode::Spectrum;
        sp.transient_time = s.lyapunov.transient_time;
        sp.averaging_time = s.lyapunov.averaging_time;
        sp.renormalization_interval = s.lyapunov.renormalization_interval;
        sp.convergence_tolerance = s.lyapunov.convergence_tolerance;
        // K exponents, the averaged time, the change over the last tenth
        scalar_columns_ = (sp.lyapunov_spectrum ? states_ : 1) + 2;
        break;
    case study::AnalysisKind::Trajectory:
        times_ = trajectory_times(s);
        sp.output_count = static_cast<int>(times_.size());
        sp.event_rows = std::max(s.trajectory.event_rows, 0);
        // the first 32 events can write rows (a bit each)
        for (std::size_t k = 0; k < r.model->events.size() && k < 32 && sp.event_rows > 0; ++k) {
            if (r.model->events[k].output) sp.output_events |= 1u << k;
            if (r.model->events[k].output_after_resets) sp.output_after_resets |= 1u << k;
        }
        point_rows_ = sp.output_count + sp.event_rows;
        point_columns_ = 1 + sp.record_count;
        break;
    case study::AnalysisKind::PhasePlane:
        throw std::invalid_argument("a phase plane is drawn (bifscope-cli plot, or the phase-plane view), "
                                    "not run as an ensemble");
    }
}

void SpecStorage::fill_section(const study::ResolvedStudy&, const study::Section& section, int transient,
                               int recorded) {
    spec_.section_kind =
        section.kind == study::SectionKind::Stroboscopic ? section_stroboscopic : section_event;
    spec_.max_time_between = section.max_time_between;
    spec_.transient_sections = transient;
    spec_.recorded_sections = recorded;
}

int SpecStorage::program() const {
    return program_of(spec_);
}

} // namespace bif::ensemble
