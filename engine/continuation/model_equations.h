// A flow's right-hand side f(y, p), its exact Jacobian d f / d y and its exact derivatives d f / d p_k
// for chosen user parameters, evaluated on the CPU through the compiler-free evaluator
// (engine/codegen/host_model.h). Derived parameters are expanded into their formulas before
// differentiating, so d f / d p_k includes the dependence through them.
//
// Equilibria need an autonomous flow: a map, or a right-hand side that reads t, is refused.
#pragma once

#include "engine/codegen/host_model.h"
#include "engine/model/model.h"

#include <memory>
#include <vector>

namespace bif::cont {

class ModelEquations {
  public:
    // Throws std::invalid_argument for a map, a non-autonomous flow, or a parameter index that
    // names no user parameter.
    ModelEquations(const model::Model& model, std::vector<int> differentiated_parameters);

    int dimension() const { return host_->dimension(); }
    int parameter_count() const { return host_->param_count(); }
    int slot_count() const { return host_->param_slot_count(); }
    const std::vector<int>& differentiated_parameters() const { return parameters_; }

    // The parameter slots for user parameter values (P of them): derived slots computed.
    std::vector<double> slots(const std::vector<double>& user_values) const;

    // `p` holds every slot (slots() or complete()).
    void complete(double* p) const { host_->complete_parameters(p); }
    void rhs(const double* y, const double* p, double* f) const { host_->rhs(0.0, y, p, f); }
    void jacobian(const double* y, const double* p, double* j) const { host_->jacobian(0.0, y, p, j); }
    // d f / d p_k for the k-th of differentiated_parameters(): N values.
    void parameter_derivative(int k, const double* y, const double* p, double* dfdp) const;

  private:
    std::unique_ptr<codegen::HostModel> host_;
    std::unique_ptr<codegen::HostModel> parameter_derivatives_; // N per differentiated parameter
    std::vector<int> parameters_;
};

} // namespace bif::cont
