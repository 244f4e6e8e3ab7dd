#include "engine/continuation/orbit_problem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace bif::cont {

bool OrbitProblem::evaluate(const Eigen::VectorXd& u, double lambda, bool parameter_derivative,
                            OrbitEvaluation& out, std::string& why) const {
    if (!evaluate_at(u, lambda, true, out, why)) return false;
    out.parameter_derivative.resize(0);
    if (!parameter_derivative) return true;
    // Central difference: truncation h^2 |G'''| and rounding tol/h balance near h = tol^(1/3) for an
    // integrated G of relative accuracy tol ~ 1e-10..1e-12.
    const double h = 1e-5 * std::max(1.0, std::abs(lambda));
    Eigen::VectorXd up, down;
    if (!residual(u, lambda + h, up, why) || !residual(u, lambda - h, down, why)) return false;
    out.parameter_derivative = (up - down) / (2 * h);
    return true;
}

bool OrbitProblem::residual(const Eigen::VectorXd& u, double lambda, Eigen::VectorXd& out,
                            std::string& why) const {
    OrbitEvaluation e;
    if (!evaluate_at(u, lambda, false, e, why)) return false;
    out = std::move(e.residual);
    return true;
}

ModelParameters::ModelParameters(const codegen::HostModel& model, std::vector<double> user, int continued)
    : model_(&model), user_(std::move(user)), continued_(continued) {
    if (static_cast<int>(user_.size()) != model.param_count())
        throw std::invalid_argument("orbit: the parameter values do not match the model's parameters");
    if (continued < 0 || continued >= model.param_count())
        throw std::invalid_argument("orbit: the continued parameter is not a parameter of the model");
}

std::vector<double> ModelParameters::slots(double lambda) const {
    std::vector<double> p(static_cast<std::size_t>(model_->param_slot_count()), 0.0);
    std::copy(user_.begin(), user_.end(), p.begin());
    p[static_cast<std::size_t>(continued_)] = lambda;
    model_->complete_parameters(p.data());
    return p;
}

} // namespace bif::cont
