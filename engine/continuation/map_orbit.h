// A period-k orbit of a map x(n+1) = f(n, x(n)) (model kind map): a fixed point of the k-fold
// composition, G(x) = f^k(x) - x, dG/dx = J_k ... J_1 - I with J_j the map's exact Jacobian at
// the j-th iterate (codegen's HostModel). Each iterate is one segment for the multipliers.
// The model's `global` events are not applied: a map with events is refused.
#pragma once

#include "engine/continuation/orbit_problem.h"

namespace bif::cont {

class MapOrbit : public ModelOrbitProblem {
  public:
    // `t0`: the iterate index the orbit starts at (maps that depend on n); k >= 1.
    // Throws std::invalid_argument for a flow, a map with events, or k < 1.
    MapOrbit(const codegen::HostModel& model, ModelParameters parameters, int k, double t0 = 0.0);

    int unknowns() const override { return model_->dimension(); }
    double period(const Eigen::VectorXd&, double) const override { return k_; }

  protected:
    bool evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian, OrbitEvaluation& out,
                     std::string& why) const override;

  private:
    int k_;
    double t0_;
};

} // namespace bif::cont
