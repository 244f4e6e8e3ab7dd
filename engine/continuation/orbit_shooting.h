// A periodic orbit of an autonomous flow by shooting: unknowns u = (x, T), a point of the orbit
// and its period, and
//   G(x, T) = [ phi(T; x) - x ;  f(x_ref) . (x - x_ref) ],
// the second row a phase condition (x on the hyperplane through a reference point x_ref normal to
// the flow there; x_ref moves to each accepted solution of a branch, as AUTO's integral condition
// refers to the previous solution). dG/dx = [M - I ; f(x_ref)^T], dG/dT = [f(phi(T; x)) ; 0].
// The period map's multiplier 1 along the flow is trivial.
#pragma once

#include "engine/continuation/orbit_flow.h"
#include "engine/continuation/orbit_problem.h"

namespace bif::cont {

class ShootingOrbit : public ModelOrbitProblem {
  public:
    // `reference`: the first phase condition's point (a point near the orbit, usually the guess).
    // Throws std::invalid_argument when segments < 1 or the reference does not fit the model.
    ShootingOrbit(const codegen::HostModel& model, ModelParameters parameters, Eigen::VectorXd reference,
                  FlowSettings settings, int segments = 8);

    int unknowns() const override { return model_->dimension() + 1; }
    bool has_trivial_multiplier() const override { return true; }
    double period(const Eigen::VectorXd& u, double) const override { return u[u.size() - 1]; }
    void set_reference(const Eigen::VectorXd& u) const override { reference_ = u.head(model_->dimension()); }

  protected:
    bool evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian, OrbitEvaluation& out,
                     std::string& why) const override;

  private:
    mutable Eigen::VectorXd reference_; // moves along a branch (set_reference)
    FlowSettings settings_;
    int segments_;
};

} // namespace bif::cont
