// The compiler-free evaluator: the member functions of a generated model (model_contract.h),
// computed in double by register programs built from the same Request as generate_source.
//
// It is the CPU fallback where no C++ compiler or NVRTC is available, and an independent check of
// the generated code. Unlike a generated struct its members are not static and its sizes are run
// time values; integrators that hold the model as an object (`m.rhs(...)`, `m.dimension()`) take it
// through HostModelView, which adds the compile-time capacities they size arrays with.
//
// Calls allocate nothing after the first call on a thread and may run on many threads at once:
// each thread has its own register file.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/codegen/program.h"

#include <cstdint>
#include <vector>

namespace bif::codegen {

class HostModel {
  public:
    using real = double;

    // Throws std::invalid_argument for a malformed request, like generate_source. The request's
    // precision is ignored: the evaluator computes in double.
    explicit HostModel(const Request& request);

    int dimension() const { return num_states_; }
    int param_count() const { return num_params_; }
    int param_slot_count() const { return num_param_slots_; }
    int event_count() const { return static_cast<int>(event_directions_.size()); }
    int aux_count() const { return static_cast<int>(aux_.results.size()); }
    int observable_count() const { return static_cast<int>(observables_.results.size()); }

    void complete_parameters(double* p) const;
    void rhs(double t, const double* y, const double* p, double* dydt) const;
    void jacobian(double t, const double* y, const double* p, double* J) const; // row-major N x N
    void time_derivative(double t, const double* y, const double* p, double* dfdt) const;
    void events(double t, const double* y, const double* p, double* g) const;
    int event_direction(int k) const;
    bool apply_reset(int k, double t, double* y, double* p) const;
    void aux(double t, const double* y, const double* p, double* a) const;
    void observables(double t, const double* y, const double* p, double* o) const;
    // The saltation parts of model_contract.h: grad has N + 1 entries, DR N x N, dRdt N.
    void event_gradient(int k, double t, const double* y, const double* p, double* grad) const;
    bool reset_jacobian(int k, double t, const double* y, const double* p, double* DR, double* dRdt) const;
    // With Request::tangent_derivatives (yv = [y | v], 2N long); without, they write zeros: the
    // tangent Jacobian then lacks these terms, as a generated model without them would.
    bool has_tangent_derivatives() const { return has_tangent_derivatives_; }
    void hessian_vector(double t, const double* yv, const double* p, double* Hv) const;
    void jacobian_time_vector(double t, const double* yv, const double* p, double* Jtv) const;

    // Total instruction count over all functions (for tests and diagnostics).
    std::size_t instruction_count() const;

  private:
    struct ResetTarget {
        int kind = 0; // 0 state, 1 parameter, 2 stop
        std::uint32_t index = 0;
    };
    struct EventReset {
        detail::Program values;
        std::vector<ResetTarget> targets;
        bool resets_parameter = false;
    };
    struct EventSaltation {
        bool maps_tangent = false;
        detail::Program gradient;
        detail::Program reset_rows; // per reset state: N + 1 values
        std::vector<std::uint32_t> rows;
    };

    void run_into(const detail::Program& program, double t, const double* y, const double* p,
                  double* out) const;

    int num_states_ = 0;
    int num_params_ = 0;
    int num_param_slots_ = 0;
    std::vector<detail::Program> derived_;
    std::vector<std::uint32_t> derived_slots_;
    detail::Program rhs_, jacobian_, time_derivative_, events_, aux_, observables_;
    std::vector<int> event_directions_;
    std::vector<EventReset> resets_;        // one per event; empty targets when the event has none
    std::vector<EventSaltation> saltation_; // one per event
    bool has_tangent_derivatives_ = false;
    detail::Program hessian_vector_, jacobian_time_vector_;
};

// A HostModel seen with compile-time capacities, for integrators written against the generated
// model's interface: arrays are sized by the capacities, loops bounded by the run-time sizes.
// fits() must hold before use.
template <int MaxStates, int MaxParamSlots = 64, int MaxEvents = 16, int MaxAux = 64, int MaxObservables = 16>
class HostModelView {
  public:
    using real = double;
    static constexpr int num_states = MaxStates;
    static constexpr int num_param_slots = MaxParamSlots;
    static constexpr int num_params = MaxParamSlots;
    static constexpr int num_events = MaxEvents;
    static constexpr int num_aux = MaxAux;
    static constexpr int num_observables = MaxObservables;

    explicit HostModelView(const HostModel& model) : m_(&model) {}

    static bool fits(const HostModel& m) {
        return m.dimension() <= MaxStates && m.param_slot_count() <= MaxParamSlots &&
               m.event_count() <= MaxEvents && m.aux_count() <= MaxAux &&
               m.observable_count() <= MaxObservables;
    }

    int dimension() const { return m_->dimension(); }
    int param_slot_count() const { return m_->param_slot_count(); }
    int event_count() const { return m_->event_count(); }
    int aux_count() const { return m_->aux_count(); }
    int observable_count() const { return m_->observable_count(); }
    void complete_parameters(double* p) const { m_->complete_parameters(p); }
    void rhs(double t, const double* y, const double* p, double* dydt) const { m_->rhs(t, y, p, dydt); }
    void jacobian(double t, const double* y, const double* p, double* J) const { m_->jacobian(t, y, p, J); }
    void time_derivative(double t, const double* y, const double* p, double* d) const {
        m_->time_derivative(t, y, p, d);
    }
    void events(double t, const double* y, const double* p, double* g) const { m_->events(t, y, p, g); }
    int event_direction(int k) const { return m_->event_direction(k); }
    bool apply_reset(int k, double t, double* y, double* p) const { return m_->apply_reset(k, t, y, p); }
    void aux(double t, const double* y, const double* p, double* a) const { m_->aux(t, y, p, a); }
    void observables(double t, const double* y, const double* p, double* o) const {
        m_->observables(t, y, p, o);
    }
    void event_gradient(int k, double t, const double* y, const double* p, double* grad) const {
        m_->event_gradient(k, t, y, p, grad);
    }
    bool reset_jacobian(int k, double t, const double* y, const double* p, double* DR, double* dRdt) const {
        return m_->reset_jacobian(k, t, y, p, DR, dRdt);
    }
    void hessian_vector(double t, const double* yv, const double* p, double* Hv) const {
        m_->hessian_vector(t, yv, p, Hv);
    }
    void jacobian_time_vector(double t, const double* yv, const double* p, double* Jtv) const {
        m_->jacobian_time_vector(t, yv, p, Jtv);
    }

  private:
    const HostModel* m_;
};

} // namespace bif::codegen
