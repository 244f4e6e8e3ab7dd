// A periodic orbit as a zero of G(u; lambda) = 0, u its unknowns, lambda the continued parameter:
// a fixed point of a period map P (P^k of a map, the stroboscopic map of a forced flow over k
// forcing periods, the flow over an unknown period T with a phase condition). Newton, the
// continuation core and the bifurcation location all see an orbit through this interface.
//
// G's Jacobian comes from the variational equations; the period map's segment Jacobians come with
// it, for the Floquet multipliers (engine/continuation/floquet_multipliers.h). dG/dlambda is a
// central difference of G in lambda (two integrations without tangents).
#pragma once

#include "engine/codegen/host_model.h"

#include <Eigen/Dense>
#include <string>
#include <utility>
#include <vector>

namespace bif::cont {

struct OrbitEvaluation {
    Eigen::VectorXd residual;              // G(u; lambda)
    Eigen::MatrixXd jacobian;              // dG/du
    Eigen::VectorXd parameter_derivative;  // dG/dlambda, when asked for; empty otherwise
    std::vector<Eigen::MatrixXd> segments; // the period map's segment Jacobians, in orbit order
};

class OrbitProblem {
  public:
    virtual ~OrbitProblem() = default;

    virtual int unknowns() const = 0;        // the length of u
    virtual int state_dimension() const = 0; // the model's states; u starts with a point of the orbit
    // An autonomous flow's period map keeps the multiplier 1 along the orbit: not a stability
    // direction, left out of stability and test functions.
    virtual bool has_trivial_multiplier() const { return false; }
    // The orbit's period in the model's time (iterates for a map).
    virtual double period(const Eigen::VectorXd& u, double lambda) const = 0;
    // Phase conditions that refer to a known solution move their reference to u (after each
    // accepted point of a branch); others ignore it. Const: the reference picks which point of an
    // orbit solves G, not which orbits do.
    virtual void set_reference(const Eigen::VectorXd& u) const { (void)u; }

    // G, dG/du and the segments at (u, lambda); with `parameter_derivative` also dG/dlambda.
    // False with `why` when the period map cannot be evaluated there (a failed integration).
    bool evaluate(const Eigen::VectorXd& u, double lambda, bool parameter_derivative, OrbitEvaluation& out,
                  std::string& why) const;
    // G alone.
    bool residual(const Eigen::VectorXd& u, double lambda, Eigen::VectorXd& out, std::string& why) const;

  protected:
    // with_jacobian false: only out.residual is needed.
    virtual bool evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian,
                             OrbitEvaluation& out, std::string& why) const = 0;
};

// The model's parameter slots for a value of the continued parameter: the user parameters with the
// continued one replaced, derived parameters completed.
class ModelParameters {
  public:
    // `user` holds the model's user parameters (ResolvedStudy::parameters); `continued` is the
    // user-parameter slot lambda sets. Throws std::invalid_argument when they do not fit the model.
    ModelParameters(const codegen::HostModel& model, std::vector<double> user, int continued);

    std::vector<double> slots(double lambda) const;
    int continued() const { return continued_; }

  private:
    const codegen::HostModel* model_;
    std::vector<double> user_;
    int continued_;
};

// What the period maps of a model (MapOrbit, StroboscopicOrbit, ShootingOrbit) share: the model,
// which must outlive the problem, the parameter slots at each lambda, and the model's states as
// the first unknowns.
class ModelOrbitProblem : public OrbitProblem {
  public:
    int state_dimension() const override { return model_->dimension(); }

  protected:
    ModelOrbitProblem(const codegen::HostModel& model, ModelParameters parameters)
        : model_(&model), parameters_(std::move(parameters)) {}

    const codegen::HostModel* model_;
    ModelParameters parameters_;
};

} // namespace bif::cont
