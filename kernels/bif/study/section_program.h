// Bifurcation diagrams, two-parameter maps and basins: one system iterated from section point to
// section point. The section is stroboscopic (t0 + n T exactly: each interval integrates to that
// time, T = observable period_observable at (t0, y0), once per system) or an event section (the
// study event section_event, stopped at each crossing located on the dense output; a system with
// no crossing for max_time_between gets SectionNotReached). The first transient_sections points are
// discarded, the next recorded_sections recorded:
//   bifurcation  points row r: each recorded observable at the section, or its max / min over the
//                interval that ends there (bif/study/interval_observer.h)
//   map, basins  points row r: the state at the section (N columns), the input of period detection;
//                scalars (map): 0 period, 1 largest exponent, 2.. accessories, then the crossings of
//                each model event over the recorded phase; (basins): 0 period
// K = 1 integrates the model with one tangent vector (map with largest_exponent): renormalised at
// every section point (renormalization_interval 0) or every interval, averaged over the recorded
// phase, per unit time.
#pragma once

#include "bif/study/common.h"
#include "bif/study/interval_observer.h"
#include "bif/study/map_iterates.h"
#include "bif/study/period.h"

// BIF_ENSEMBLE_OBSERVES_STEPS 0 (set by the CUDA backend for a study where observes_steps() is
// false): the step observer's path is left out of the kernel. Never run for such a study, its dense
// output and observable evaluations would still size the kernel's registers, and with them how many
// warps share a multiprocessor. 2 (set for a study that observes steps with an adaptive method):
// one step loop, with the observer, idle outside the recorded phase, instead of a second copy of the
// whole loop without it: Hodgkin-Huxley's RKCK45 sections program compiled in 1.2 s instead of 1.9
// (NVRTC 13, tests/bench/README.md); the unrecorded steps test one uniform flag each.
#ifndef BIF_ENSEMBLE_OBSERVES_STEPS
#define BIF_ENSEMBLE_OBSERVES_STEPS 1
#endif

namespace bif::ensemble {

template <class Model, int K>
struct SectionCarry {
    using IM = typename integration_model<Model, K>::type;
    using real = typename Model::real;
    static constexpr int P = capacity(Model::num_param_slots);
    static constexpr int E = capacity(Model::num_events);

    int phase; // first: see resume_carry (bif/study/common.h)
    real p[P];
    SystemState<IM> s;
    IntervalStats<Model> stats;
    LyapunovSums<1, real> lyap;
    real period;         // stroboscopic T
    real last_section_t; // event sections: the deadline counts from here
    real last_renorm_t;
    long long steps_used;
    int renorms; // renormalisations at fixed intervals so far
    int sections;
    int rows;
    int events_at_start[E]; // event counts when recording began
};

// The fast map loop's rows of a diagram (bif/study/map_iterates.h's visit): the recorded
// observables of every iterate, written through a pointer kept in registers (read through the block
// and the view, the loop would reload their fields after every store: they might alias the outputs).
// OneColumn: a diagram of one observable (the usual one), whose loop then has no branch per column.
template <class Model, bool OneColumn>
struct RecordedRows {
    using real = typename Model::real;
    static constexpr int O = capacity(Model::num_observables);
    // the stores bound the loop: a short unroll costs it nothing and keeps the compile small
    static constexpr int unroll = 8;

    const Model& m;
    const real* p;
    real t0;
    int section; // of the iterate before the first: iterate k's time is t0 + (section + k)
    int observed[O];
    int columns;
    index_t column_step, row_step;
    real* first; // the first iterate's row
    real* out;   // the next row

    BIF_HD RecordedRows(const Model& model, const real* params, int section_before, const Block<Model>& b,
                        real& first_row, index_t column_stride, index_t row_stride)
        : m(model), p(params), t0(b.t0), section(section_before), columns(b.record_count),
          column_step(column_stride), row_step(row_stride), first(&first_row), out(&first_row) {
        BIF_UNROLL
        for (int j = 0; j < O; ++j)
            observed[j] = b.record_observable[j];
    }

    BIF_HD BIF_FORCEINLINE void operator()(long long taken, const real* y) {
        real o[O] = {};
        m.observables(t0 + real(section + int(taken)), y, p, o);
        if constexpr (OneColumn) {
            *out = pick(o, observed[0], O);
        } else {
            BIF_UNROLL
            for (int j = 0; j < O; ++j)
                if (j < columns) out[index_t(j) * column_step] = pick(o, observed[j], O);
        }
        out += row_step;
    }
    BIF_HD void rewind(long long taken) { out = first + index_t(taken) * row_step; }
    // rows the fast loop wrote past the iterate where it stopped: missing again, as before the run
    BIF_HD void clear(long long from, long long to) {
        for (long long k = from; k < to; ++k)
            for (int j = 0; j < columns; ++j)
                first[index_t(k) * row_step + index_t(j) * column_step] = quiet_nan<real>();
    }
};

// The state variable that observable k is (y[i] itself), or -1: generated models say
// (engine/codegen), hand-written ones that do not are taken as having none.
template <class M, class = void>
struct names_observable_states {
    static constexpr bool value = false;
};
template <class M>
struct names_observable_states<M, decltype(void(M::observable_state(0)))> {
    static constexpr bool value = true;
};
template <class Model>
BIF_HD int state_of_observable(int k) {
    if constexpr (names_observable_states<Model>::value)
        return Model::observable_state(k);
    else
        return -1;
}

// The rows of a diagram of one state variable (the usual one): the state itself stored at every
// iterate, where RecordedRows evaluates every observable and chooses one (two selects an iterate
// for the logistic diagram, whose float run then came to 0.93 of the hand-written kernel's speed
// instead of 0.95; H200, tests/bench/README.md).
template <class Model>
struct StateRows {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int unroll = 8;

    int state;
    index_t row_step;
    real* first; // the first iterate's row
    real* out;   // the next row

    BIF_HD StateRows(int which, real& first_row, index_t row_stride)
        : state(which), row_step(row_stride), first(&first_row), out(&first_row) {}

    BIF_HD BIF_FORCEINLINE void operator()(long long, const real* y) {
        *out = N == 1 ? y[0] : pick(y, state, N);
        out += row_step;
    }
    BIF_HD void rewind(long long taken) { out = first + index_t(taken) * row_step; }
    BIF_HD void clear(long long from, long long to) {
        for (long long k = from; k < to; ++k)
            first[index_t(k) * row_step] = quiet_nan<real>();
    }
};

// The fast map loop against the block's bound, or with none against the largest finite value.
template <class Model>
BIF_HD MapIterates<Model> bounded_map_iterates(const Model& m, const Block<Model>& b,
                                               const typename Model::real* p_run) {
    using real = typename Model::real;
    const real limit = b.solver.bound > real(0) ? b.solver.bound : largest_finite<real>();
    return MapIterates<Model>{
        m, p_run, b.t0, limit, magnitude_key_inside(limit), m.dimension(), !(b.solver.bound > real(0))};
}

// Up to `count` iterates of `it` from section `section`, each written as the diagram row after row
// `row` of the system (parameters `p` for the observables); returns those taken.
template <class Model>
BIF_HD long long recorded_iterates(const MapIterates<Model>& it, const Model& m,
                                   const typename Model::real* p, const Block<Model>& b,
                                   const View<typename Model::real>& v, index_t system, int row, int section,
                                   typename Model::real* y, long long count) {
    typename Model::real& first_row = v.point(system, row, 0);
    const index_t row_step = index_t(v.point_columns) * v.stride;
    if (b.record_count == 1) {
        if (const int state = state_of_observable<Model>(b.record_observable[0]); state >= 0) {
            StateRows<Model> rows_out(state, first_row, row_step);
            return it.iterates(y, section, count, rows_out);
        }
        RecordedRows<Model, true> rows_out(m, p, section, b, first_row, v.stride, row_step);
        return it.iterates(y, section, count, rows_out);
    }
    RecordedRows<Model, false> rows_out(m, p, section, b, first_row, v.stride, row_step);
    return it.iterates(y, section, count, rows_out);
}

template <class Model, class Method, int K>
struct SectionProgram {
    using real = typename Model::real;
    using IM = typename integration_model<Model, K>::type;
    using Carry = SectionCarry<Model, K>;
    using Stepper = typename Method::template stepper<IM>;
    static constexpr int O = capacity(Model::num_observables);

    const Model& m;
    const IM im;
    const Block<Model>& b;
    const View<real>& v;
    index_t system;
    Carry& c;

    BIF_HD bool recording() const { return c.sections >= b.transient_sections; }

    BIF_HD BIF_COLD void finish(int outcome) {
        c.phase = phase_done;
        v.status[system] = outcome;
        v.rows_filled[system] = c.rows;
        if (outcome == outcome_ok || outcome == outcome_stopped_by_model) write_features();
        if (v.final_state)
            for (int i = 0; i < m.dimension(); ++i)
                v.final_state[index_t(i) * v.stride + system] = c.s.y[i];
    }

    BIF_HD BIF_COLD void write_features() {
        const int n = m.dimension();
        if (b.analysis == analysis_basins) {
            v.scalar(system, 0) = real(detect_period(v, system, c.rows, n, b.period_tolerance, b.max_period));
            return;
        }
        if (b.analysis != analysis_map) return;
        if (b.detect_period)
            v.scalar(system, 0) = real(detect_period(v, system, c.rows, n, b.period_tolerance, b.max_period));
        if (K > 0 && c.lyap.elapsed > real(0)) v.scalar(system, 1) = c.lyap.sum[0] / c.lyap.elapsed;
        for (int a = 0; a < b.accessory_count; ++a) {
            real value = c.stats.acc[a];
            if (b.accessory_reduce[a] == reduce_mean)
                value = b.accessory_over[a] == over_steps ? value / c.stats.acc_time : value / real(c.rows);
            v.scalar(system, 2 + a) = value;
        }
        if (b.count_events)
            for (int k = 0; k < b.model_event_count; ++k)
                v.scalar(system, 2 + b.accessory_count + k) = real(c.s.event_count[k] - c.events_at_start[k]);
    }

    // Tangent vector renormalisation at the current point; accumulated in the recorded phase.
    BIF_HD void renormalise(bool accumulate) {
        if constexpr (K > 0) {
            LyapunovSums<1, real> step;
            lyapunov_renormalise(im, c.s.y, c.s.t - c.last_renorm_t, step);
            if (accumulate) {
                c.lyap.sum[0] += step.sum[0];
                c.lyap.elapsed += step.elapsed;
            }
            c.last_renorm_t = c.s.t;
        } else {
            (void)accumulate;
        }
    }

    BIF_HD BIF_COLD void begin_recording(const real* o) {
        begin_accessories(b, c.stats, o);
        for (int k = 0; k < m.event_count(); ++k)
            c.events_at_start[k] = c.s.event_count[k];
        c.lyap = LyapunovSums<1, real>{};
    }

    // Returns false when the system cannot start (its status is then set).
    BIF_HD BIF_COLD bool start() {
        real y0[Model::num_states];
        system_inputs(m, b, v, system, c.p, y0);
        c.s = make_state<IM>(b.t0, y0, m.dimension());
        if constexpr (K > 0) lyapunov_start(im, c.s.y);
        real o[O] = {};
        m.observables(b.t0, y0, c.p, o);
        c.period = b.section_kind == section_stroboscopic ? pick(o, b.period_observable, O) : real(0);
        c.last_section_t = c.last_renorm_t = b.t0;
        c.sections = c.rows = c.renorms = 0;
        c.steps_used = 0;
        c.phase = phase_running;
        const bool section_ok = b.section_kind == section_stroboscopic
                                    ? (c.period > real(0) && m::is_finite(c.period))
                                    : (b.section_kind == section_event && b.section_event >= 0);
        if (!section_ok || !all_finite(y0, m.dimension())) {
            finish(outcome_invalid_setup);
            return false;
        }
        begin_interval(m, c.stats, o);
        if (b.transient_sections == 0) begin_recording(o);
        return true;
    }

    BIF_HD BIF_COLD void record_row(const real* o) {
        const int row = c.rows;
        if (b.analysis == analysis_bifurcation) {
            for (int j = 0; j < b.record_count; ++j) {
                const int k = b.record_observable[j];
                const real value = b.record_mode[j] == record_max_between   ? pick(c.stats.hi, k, O)
                                   : b.record_mode[j] == record_min_between ? pick(c.stats.lo, k, O)
                                                                            : pick(o, k, O);
                v.point(system, row, j) = value;
            }
        } else {
            for (int i = 0; i < m.dimension(); ++i)
                v.point(system, row, i) = c.s.y[i];
            for (int a = 0; a < b.accessory_count; ++a) {
                if (b.accessory_over[a] != over_sections) continue;
                const real x = pick(o, b.accessory_observable[a], O);
                if (b.accessory_reduce[a] == reduce_mean)
                    c.stats.acc[a] += x;
                else if (b.accessory_reduce[a] == reduce_max ? x > c.stats.acc[a] : x < c.stats.acc[a])
                    c.stats.acc[a] = x;
            }
        }
        c.rows = row + 1;
    }

    // The system is at a section point. Returns true when the analysis is complete.
    BIF_HD BIF_COLD bool at_section() {
        ++c.sections;
        c.last_section_t = c.s.t;
        real o[O] = {};
        m.observables(c.s.t, c.s.y, c.p, o);
        const bool was_recording = c.sections > b.transient_sections;
        if (K > 0 && (b.renormalization_interval <= real(0) || c.sections == b.transient_sections ||
                      c.sections == b.transient_sections + b.recorded_sections))
            renormalise(was_recording);
        if (!was_recording) {
            begin_interval(m, c.stats, o);
            if (c.sections == b.transient_sections) begin_recording(o);
            return false;
        }
        record_row(o);
        begin_interval(m, c.stats, o);
        if (c.rows < b.recorded_sections) return false;
        finish(outcome_ok);
        return true;
    }

    BIF_HD real next_renorm_time() const {
        if (K == 0 || !(b.renormalization_interval > real(0))) return huge_time<real>();
        return b.t0 + real(c.renorms + 1) * b.renormalization_interval;
    }

    // Runs until the analysis completes, the system fails, or the slice budget is spent.
    // A map sectioned at every iterate (period 1, no tangent vector, no events, no step features):
    // the iterates of the transient phase in one tight loop, each later one a section point. The same
    // iterates, times and section bookkeeping as run()'s general loop, without an integration
    // interval per iterate (which cost the logistic diagram most of its time).
    BIF_HD bool every_iterate() const {
        if constexpr (detail::steps_iterates<Stepper>::value && K == 0 && Model::num_events == 0)
            return b.section_kind == section_stroboscopic && c.period == real(1) &&
                   !(BIF_ENSEMBLE_OBSERVES_STEPS && (b.record_extrema || b.step_accessories));
        return false;
    }

    // Iterates kept in registers while no section bookkeeping is due: the transient ones before the
    // last, and in a diagram (observables recorded at every iterate, nothing else) the recorded ones
    // before the last. Ends before an iterate beyond the bound (every component tested against it),
    // infinite or NaN; run_iterates takes that one again, checked. Returns the iterates taken.
    BIF_HD long long fast_iterates(const real* p_run, long long allowed) {
        const bool record = b.analysis == analysis_bifurcation && !b.record_extrema;
        const long long transient = min_of(allowed, (long long)(b.transient_sections - 1 - c.sections));
        const long long rows = !record || c.sections < b.transient_sections
                                   ? 0
                                   : min_of(allowed, (long long)(b.recorded_sections - 1 - c.rows));
        if (transient <= 0 && rows <= 0) return 0;
        const MapIterates<Model> it = bounded_map_iterates(m, b, p_run);
        const int n = m.dimension();
        real y[Model::num_states];
        copy_n(c.s.y, n, y);
        long long used = 0;
        if (transient > 0) {
            used = it.unrecorded(y, c.sections, transient);
        } else {
            used = recorded_iterates(it, m, c.p, b, v, system, c.rows, c.sections, y, rows);
            c.rows += int(used);
        }
        copy_n(y, n, c.s.y);
        c.sections += int(used);
        c.s.t = b.t0 + real(c.sections);
        c.last_section_t = c.s.t;
        return used;
    }

    BIF_HD bool run_iterates(StepBudget& budget) {
        constexpr int N = Model::num_states;
        const int n = m.dimension();
        real p_run[capacity(Model::num_param_slots)];
        parameters_for_run(m, b.parameters, c.p, p_run);
        real next[N];
        const long long allowed = budget.allowed();
        long long used = 0;
        bool done = false;
        if (detail::beyond_bound(b.solver, c.s.y, n)) { // the initial state, as integrate_begin tests it
            finish(outcome_escaped);
            return true;
        }
        while (!done && used < allowed) {
            used += fast_iterates(p_run, allowed - used);
            if (used >= allowed) break;
            m.rhs(c.s.t, c.s.y, p_run, next);
            ++used;
            if (!all_finite(next, n)) {
                finish(outcome_of(Status::NonFinite));
                done = true;
                break;
            }
            copy_n(next, n, c.s.y);
            c.s.t = b.t0 + real(c.sections + 1);
            if (detail::beyond_bound(b.solver, c.s.y, n)) {
                finish(outcome_escaped);
                done = true;
                break;
            }
            if (c.sections + 1 < b.transient_sections)
                ++c.sections; // nothing is recorded or reset at these section points
            else
                done = at_section();
        }
        c.s.accepted += (unsigned long long)used;
        budget.used += used;
        budget.slice -= used;
        if (!done && budget.run_spent()) {
            finish(outcome_of(Status::StepBudgetSpent));
            done = true;
        }
        c.steps_used = budget.used;
        return done;
    }

    BIF_HD bool run(long long slice) {
        Stepper st;
        SolverSettings<real, IM::num_states> widened;
        const SolverSettings<real, IM::num_states>& set =
            settings_for(b.solver, m.dimension(), im.dimension(), widened);
        EventSettings<real, Model::num_events> ev = b.events;
        StepBudget budget{slice, c.steps_used, b.max_steps};
        if (every_iterate()) return run_iterates(budget);
        const bool strobe = b.section_kind == section_stroboscopic;
        bool done = false;
        while (!done) {
            const real t_section = strobe ? b.t0 + real(c.sections + 1) * c.period : huge_time<real>();
            const real t_deadline = !strobe && b.max_time_between > real(0)
                                        ? c.last_section_t + b.max_time_between
                                        : huge_time<real>();
            const real t_renorm = next_renorm_time();
            const real t_end = min_of(min_of(t_section, t_deadline), t_renorm);
            if (!strobe) {
                for (int k = 0; k < m.event_count(); ++k)
                    ev.stop_after[k] = k == b.section_event ? c.s.event_count[k] + 1 : b.events.stop_after[k];
            }
            // without interval features the driver gets no observer at all: even an observer that
            // returns at once costs the RK4 hot loop ~10% (it keeps the step's view alive); and the
            // extremes and step accessories of a transient interval are never read
            Status r;
            const bool observed =
                BIF_ENSEMBLE_OBSERVES_STEPS && (b.record_extrema || b.step_accessories) && recording();
            if constexpr (BIF_ENSEMBLE_OBSERVES_STEPS == 2) {
                IntervalObserver<Model, IM> obs{im, b, c.stats, recording(), observed};
                r = integrate_within(im, st, c.s, c.p, b.parameters, t_end, set, ev, obs, budget);
            } else if (observed) {
                IntervalObserver<Model, IM> obs{im, b, c.stats, recording()};
                r = integrate_within(im, st, c.s, c.p, b.parameters, t_end, set, ev, obs, budget);
            } else {
                NoObserver obs;
                r = integrate_within(im, st, c.s, c.p, b.parameters, t_end, set, ev, obs, budget);
            }
            if (r == Status::StepBudgetSpent && !budget.run_spent()) break;
            if (r == Status::StoppedByEvent && !strobe && c.s.stop_event == b.section_event) {
                c.s.status = Status::Ok;
                c.s.stop_event = -1;
                state_changed(c.s, st);
                done = at_section();
            } else if (r != Status::Ok) {
                finish(outcome_of(r));
                done = true;
            } else if (c.s.t == t_section) {
                done = at_section();
            } else if (c.s.t == t_renorm) {
                ++c.renorms;
                renormalise(recording());
                state_changed(c.s, st);
            } else if (c.s.t == t_deadline) {
                finish(outcome_section_not_reached);
                done = true;
            }
            if (K > 0 && !done) state_changed(c.s, st);
        }
        c.steps_used = budget.used;
        return done;
    }
};

template <class Model, class Method, int K>
BIF_HD bool advance_sections(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                             index_t system, long long slice, long long calls = 1) {
    using Program = SectionProgram<Model, Method, K>;
    typename Program::Carry c{};
    if (resume_carry<cold_carry_in_memory>(v, system, c) == phase_done) return true;
    Program program{m, integration_model<Model, K>::make(m), b, v, system, c};
    bool done = c.phase == phase_new && !program.start();
    for (long long call = 0; !done && call < calls; ++call)
        done = program.run(slice);
    suspend_carry<cold_carry_in_memory>(v, system, c);
    return done;
}

} // namespace bif::ensemble
