#include "engine/continuation/orbit_flow.h"

// The kernels size arrays by the capacity N and fill them to the model's run-time dimension n <= N;
// GCC cannot see through the out-of-line HostModel calls that the unfilled rest is never read (the
// same as engine/cpu/evaluator_program_impl.h).
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "bif/integrators.h"

#include <array>

namespace bif::cont {
namespace {

const char* failure_text(Status s) {
    switch (s) {
    case Status::StoppedByEvent:
        return "an event stopped the integration";
    case Status::StepBudgetSpent:
        return "the step budget ran out";
    case Status::StepUnderflow:
        return "the step size fell below its minimum";
    case Status::NonFinite:
        return "the state became non-finite";
    case Status::Escaped:
        return "the state left the bound";
    default:
        return "the integration failed";
    }
}

template <class Model>
SolverSettings<double, Model::num_states> settings_for(const FlowSettings& f) {
    auto s = make_settings<double, Model::num_states>(f.rtol, f.atol);
    s.initial_step = f.initial_step;
    s.max_steps = f.max_steps;
    return s;
}

// One integration from the current state to t_end; false with `why` on failure.
template <class Model, class Stepper>
bool advance(const Model& m, Stepper& st, SystemState<Model>& s, double* p, double t_end,
             const SolverSettings<double, Model::num_states>& set, std::string& why) {
    EventSettings<double, Model::num_events> events;
    NoObserver observer;
    const Status status = integrate(m, st, s, p, t_end, set, events, observer);
    if (status == Status::Ok) return true;
    why = std::string(failure_text(status)) + " at t = " + std::to_string(s.t);
    return false;
}

template <int N, template <class> class Stepper>
bool state_only(const codegen::HostModel& host, double* p, double t0, const Eigen::VectorXd& x0, double span,
                const FlowSettings& f, FlowResult& out, std::string& why) {
    using View = codegen::HostModelView<N>;
    const View m{host};
    const int n = host.dimension();
    auto s = make_state<View>(t0, x0.data(), n);
    Stepper<View> st;
    if (!advance(m, st, s, p, t0 + span, settings_for<View>(f), why)) return false;
    out.end = Eigen::Map<const Eigen::VectorXd>(s.y, n);
    return true;
}

template <int N, template <class> class Stepper>
bool with_tangents(const codegen::HostModel& host, double* p, double t0, const Eigen::VectorXd& x0,
                   double span, int segments, const FlowSettings& f, FlowResult& out, std::string& why) {
    using View = codegen::HostModelView<N>;
    using Tangent = TangentModel<View, N>;
    const Tangent tm{View{host}};
    const int n = host.dimension();
    std::array<double, Tangent::num_states> y{};
    for (int i = 0; i < n; ++i)
        y[static_cast<std::size_t>(i)] = x0[i];
    lyapunov_start(tm, y.data());
    auto s = make_state<Tangent>(t0, y.data(), tm.dimension());
    Stepper<Tangent> st;
    const auto set = settings_for<Tangent>(f);
    out.jacobians.assign(static_cast<std::size_t>(segments), Eigen::MatrixXd(n, n));
    for (int seg = 0; seg < segments; ++seg) {
        const double t_end = seg + 1 == segments ? t0 + span : t0 + span * (seg + 1) / segments;
        if (!advance(tm, st, s, p, t_end, set, why)) return false;
        Eigen::MatrixXd& a = out.jacobians[static_cast<std::size_t>(seg)];
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < n; ++i)
                a(i, k) = s.y[n + k * n + i];
        lyapunov_start(tm, s.y);
        state_changed(s, st);
    }
    out.end = Eigen::Map<const Eigen::VectorXd>(s.y, n);
    return true;
}

template <int N>
bool dispatch_method(const codegen::HostModel& host, double* p, double t0, const Eigen::VectorXd& x0,
                     double span, int segments, bool jacobians, const FlowSettings& f, FlowResult& out,
                     std::string& why) {
    if (f.method == FlowMethod::Rodas4)
        return jacobians ? with_tangents<N, Rodas4>(host, p, t0, x0, span, segments, f, out, why)
                         : state_only<N, Rodas4>(host, p, t0, x0, span, f, out, why);
    return jacobians ? with_tangents<N, Dopri5>(host, p, t0, x0, span, segments, f, out, why)
                     : state_only<N, Dopri5>(host, p, t0, x0, span, f, out, why);
}

// The integrators size their arrays at compile time: one instantiation per dimension, so that a
// small model integrates n (1 + n) values, not those of the largest model allowed.
template <int N>
bool dispatch_dimension(int n, const codegen::HostModel& host, double* p, double t0,
                        const Eigen::VectorXd& x0, double span, int segments, bool jacobians,
                        const FlowSettings& f, FlowResult& out, std::string& why) {
    if constexpr (N > max_flow_dimension) {
        why = "periodic orbits handle models of at most " + std::to_string(max_flow_dimension) + " states";
        return false;
    } else {
        if (n == N) return dispatch_method<N>(host, p, t0, x0, span, segments, jacobians, f, out, why);
        return dispatch_dimension<N + 1>(n, host, p, t0, x0, span, segments, jacobians, f, out, why);
    }
}

} // namespace

bool flow_span(const codegen::HostModel& model, const std::vector<double>& parameters, double t0,
               const Eigen::VectorXd& x0, double span, int segments, bool with_jacobians,
               const FlowSettings& settings, FlowResult& out, std::string& why) {
    const int n = model.dimension();
    if (x0.size() != n || static_cast<int>(parameters.size()) != model.param_slot_count() || !(span > 0) ||
        segments < 1) {
        why = "flow_span: state, parameters, span or segment count do not fit the model";
        return false;
    }
    if (!codegen::HostModelView<max_flow_dimension>::fits(model)) {
        why = "the model has too many states, parameters, events or outputs for periodic orbits";
        return false;
    }
    std::vector<double> p = parameters; // resets may change parameters: a copy per integration
    return dispatch_dimension<1>(n, model, p.data(), t0, x0, span, segments, with_jacobians, settings, out,
                                 why);
}

} // namespace bif::cont

#pragma GCC diagnostic pop
