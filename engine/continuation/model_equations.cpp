#include "engine/continuation/model_equations.h"

#include <stdexcept>
#include <unordered_set>

namespace bif::cont {

namespace {

bool reads_time(const sym::ExprPool& pool, sym::NodeId root) {
    std::unordered_set<sym::NodeId> seen;
    std::vector<sym::NodeId> stack{root};
    while (!stack.empty()) {
        const sym::NodeId id = stack.back();
        stack.pop_back();
        if (!seen.insert(id).second) continue;
        const sym::Node& n = pool.node(id);
        if (n.op == sym::Op::Time) return true;
        for (int a = 0; a < sym::arity(n.op); ++a)
            stack.push_back(n.args[a]);
    }
    return false;
}

// The right-hand sides with every derived-parameter leaf replaced by its formula over user parameters.
std::vector<sym::NodeId> expanded_rhs(model::Model& m) {
    std::vector<std::optional<sym::NodeId>> expanded(m.num_param_slots());
    auto leaf = [&](const sym::Node& n) -> std::optional<sym::NodeId> {
        if (n.op == sym::Op::Param && n.index < expanded.size()) return expanded[n.index];
        return std::nullopt;
    };
    for (const model::DerivedParameter& d : m.derived)
        expanded[d.slot] = m.pool.substitute(d.formula, leaf);
    std::vector<sym::NodeId> out;
    for (const model::StateVariable& s : m.states)
        out.push_back(m.pool.substitute(s.rhs, leaf));
    return out;
}

} // namespace

ModelEquations::ModelEquations(const model::Model& model, std::vector<int> differentiated_parameters)
    : parameters_(std::move(differentiated_parameters)) {
    if (model.is_map())
        throw std::invalid_argument("the model is a map (x(t+1)=...): equilibria and their continuation are "
                                    "for flows (x'=...)");
    for (const model::StateVariable& s : model.states)
        if (reads_time(model.pool, s.rhs))
            throw std::invalid_argument("the right-hand side of " + s.name +
                                        "' reads t: a non-autonomous flow has no equilibria");
    for (int k : parameters_)
        if (k < 0 || k >= int(model.num_parameters()))
            throw std::invalid_argument("no user parameter with index " + std::to_string(k));
    codegen::Request request;
    request.model = &model;
    host_ = std::make_unique<codegen::HostModel>(request);

    model::Model copy = model;
    const std::vector<sym::NodeId> f = expanded_rhs(copy);
    codegen::Request derivatives;
    derivatives.model = &copy;
    for (int k : parameters_) {
        const sym::NodeId pk = copy.pool.param(std::uint32_t(k));
        for (sym::NodeId fi : f)
            derivatives.observables.push_back(copy.pool.derivative(fi, pk));
    }
    parameter_derivatives_ = std::make_unique<codegen::HostModel>(derivatives);
}

std::vector<double> ModelEquations::slots(const std::vector<double>& user_values) const {
    if (int(user_values.size()) != parameter_count())
        throw std::invalid_argument("expected " + std::to_string(parameter_count()) + " parameter values");
    std::vector<double> p(std::size_t(slot_count()), 0.0);
    std::copy(user_values.begin(), user_values.end(), p.begin());
    complete(p.data());
    return p;
}

void ModelEquations::parameter_derivative(int k, const double* y, const double* p, double* dfdp) const {
    thread_local std::vector<double> all;
    all.resize(std::size_t(parameter_derivatives_->observable_count()));
    parameter_derivatives_->observables(0.0, y, p, all.data());
    const int n = dimension();
    std::copy(all.begin() + std::ptrdiff_t(k) * n, all.begin() + std::ptrdiff_t(k + 1) * n, dfdp);
}

} // namespace bif::cont
