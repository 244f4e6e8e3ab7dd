#include "engine/codegen/host_model.h"

#include "engine/codegen/model_functions.h"

#include <algorithm>

namespace bif::codegen {

namespace {

// This thread's register file, grown on first use to the largest program run on it.
double* registers(std::size_t size) {
    thread_local std::vector<double> file;
    if (file.size() < size) file.resize(size);
    return file.data();
}

} // namespace

HostModel::HostModel(const Request& request) {
    detail::ModelFunctions f = detail::collect_model_functions(request);
    num_states_ = f.num_states;
    num_params_ = f.num_params;
    num_param_slots_ = f.num_param_slots;
    for (const detail::DerivedSlot& d : f.derived) {
        derived_.push_back(detail::compile_program(f.pool, {d.formula}));
        derived_slots_.push_back(d.slot);
    }
    rhs_ = detail::compile_program(f.pool, f.rhs);
    jacobian_ = detail::compile_program(f.pool, f.jacobian);
    time_derivative_ = detail::compile_program(f.pool, f.time_derivative);
    events_ = detail::compile_program(f.pool, f.events);
    aux_ = detail::compile_program(f.pool, f.aux);
    observables_ = detail::compile_program(f.pool, f.observables);
    event_directions_ = f.event_directions;
    for (const std::vector<model::Reset>& event_resets : f.resets) {
        EventReset r;
        std::vector<sym::NodeId> values;
        for (const model::Reset& reset : event_resets) {
            values.push_back(reset.value);
            const int kind = reset.target == model::Reset::Target::State   ? 0
                             : reset.target == model::Reset::Target::Param ? 1
                                                                           : 2;
            r.targets.push_back({kind, reset.index});
            r.resets_parameter = r.resets_parameter || kind == 1;
        }
        r.values = detail::compile_program(f.pool, values);
        resets_.push_back(std::move(r));
    }
    for (const detail::EventSaltation& e : f.saltation) {
        EventSaltation s;
        s.maps_tangent = e.maps_tangent;
        s.gradient = detail::compile_program(f.pool, e.gradient);
        s.reset_rows = detail::compile_program(f.pool, e.reset_rows);
        s.rows = e.rows;
        saltation_.push_back(std::move(s));
    }
    has_tangent_derivatives_ = request.tangent_derivatives;
    hessian_vector_ = detail::compile_program(f.pool, f.hessian_vector);
    jacobian_time_vector_ = detail::compile_program(f.pool, f.jacobian_time_vector);
}

void HostModel::run_into(const detail::Program& program, double t, const double* y, const double* p,
                         double* out) const {
    double* r = registers(program.registers);
    program.run(t, y, p, r);
    for (std::size_t i = 0; i < program.results.size(); ++i)
        out[i] = r[program.results[i]];
}

void HostModel::complete_parameters(double* p) const {
    // Dependency order: each derived slot is stored before a later formula reads it.
    for (std::size_t i = 0; i < derived_.size(); ++i)
        run_into(derived_[i], 0.0, nullptr, p, p + derived_slots_[i]);
}

void HostModel::rhs(double t, const double* y, const double* p, double* dydt) const {
    run_into(rhs_, t, y, p, dydt);
}

void HostModel::jacobian(double t, const double* y, const double* p, double* J) const {
    run_into(jacobian_, t, y, p, J);
}

void HostModel::time_derivative(double t, const double* y, const double* p, double* dfdt) const {
    run_into(time_derivative_, t, y, p, dfdt);
}

void HostModel::events(double t, const double* y, const double* p, double* g) const {
    run_into(events_, t, y, p, g);
}

int HostModel::event_direction(int k) const {
    return k >= 0 && k < event_count() ? event_directions_[static_cast<std::size_t>(k)] : 0;
}

bool HostModel::apply_reset(int k, double t, double* y, double* p) const {
    if (k < 0 || k >= event_count()) return false;
    const EventReset& reset = resets_[static_cast<std::size_t>(k)];
    if (reset.targets.empty()) return false;
    double* r = registers(reset.values.registers);
    // every value is computed before the first assignment
    reset.values.run(t, y, p, r);
    bool stop = false;
    for (std::size_t i = 0; i < reset.targets.size(); ++i) {
        const double v = r[reset.values.results[i]];
        const ResetTarget& target = reset.targets[i];
        if (target.kind == 0) y[target.index] = v;
        if (target.kind == 1) p[target.index] = v;
        if (target.kind == 2) stop = stop || v > 0.0;
    }
    if (reset.resets_parameter) complete_parameters(p);
    return stop;
}

void HostModel::aux(double t, const double* y, const double* p, double* a) const {
    run_into(aux_, t, y, p, a);
}

void HostModel::observables(double t, const double* y, const double* p, double* o) const {
    run_into(observables_, t, y, p, o);
}

void HostModel::event_gradient(int k, double t, const double* y, const double* p, double* grad) const {
    const std::size_t n = static_cast<std::size_t>(num_states_);
    if (k >= 0 && k < event_count() && saltation_[static_cast<std::size_t>(k)].maps_tangent) {
        run_into(saltation_[static_cast<std::size_t>(k)].gradient, t, y, p, grad);
        return;
    }
    std::fill(grad, grad + n + 1, 0.0);
}

bool HostModel::reset_jacobian(int k, double t, const double* y, const double* p, double* DR,
                               double* dRdt) const {
    if (k < 0 || k >= event_count()) return false;
    const EventSaltation& e = saltation_[static_cast<std::size_t>(k)];
    if (!e.maps_tangent) return false;
    const std::size_t n = static_cast<std::size_t>(num_states_);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j)
            DR[i * n + j] = i == j ? 1.0 : 0.0;
        dRdt[i] = 0.0;
    }
    if (e.rows.empty()) return true;
    double* r = registers(e.reset_rows.registers);
    e.reset_rows.run(t, y, p, r);
    // rows in assignment order: a state reset twice keeps the last one, as apply_reset does
    for (std::size_t row = 0; row < e.rows.size(); ++row) {
        for (std::size_t l = 0; l <= n; ++l) {
            const double v = r[e.reset_rows.results[row * (n + 1) + l]];
            if (l < n)
                DR[e.rows[row] * n + l] = v;
            else
                dRdt[e.rows[row]] = v;
        }
    }
    return true;
}

void HostModel::hessian_vector(double t, const double* yv, const double* p, double* Hv) const {
    const std::size_t n = static_cast<std::size_t>(num_states_);
    if (has_tangent_derivatives_)
        run_into(hessian_vector_, t, yv, p, Hv);
    else
        std::fill(Hv, Hv + n * n, 0.0);
}

void HostModel::jacobian_time_vector(double t, const double* yv, const double* p, double* Jtv) const {
    const std::size_t n = static_cast<std::size_t>(num_states_);
    if (has_tangent_derivatives_)
        run_into(jacobian_time_vector_, t, yv, p, Jtv);
    else
        std::fill(Jtv, Jtv + n, 0.0);
}

std::size_t HostModel::instruction_count() const {
    std::size_t n = rhs_.code.size() + jacobian_.code.size() + time_derivative_.code.size() +
                    events_.code.size() + aux_.code.size() + observables_.code.size();
    for (const detail::Program& d : derived_)
        n += d.code.size();
    for (const EventReset& r : resets_)
        n += r.values.code.size();
    for (const EventSaltation& e : saltation_)
        n += e.gradient.code.size() + e.reset_rows.code.size();
    return n + hessian_vector_.code.size() + jacobian_time_vector_.code.size();
}

} // namespace bif::codegen
