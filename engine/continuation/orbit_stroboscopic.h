// A periodic orbit of a forced flow (periodic in t with the forcing period T_f): a fixed point of
// the stroboscopic map over k forcing periods from the phase t0, G(x) = phi(t0 + k T_f; t0, x) - x,
// dG/dx = M - I with M the monodromy matrix of the variational equations. Each forcing period is
// split into `segments_per_period` segments for the multipliers.
#pragma once

#include "engine/continuation/orbit_flow.h"
#include "engine/continuation/orbit_problem.h"

#include <functional>

namespace bif::cont {

class StroboscopicOrbit : public ModelOrbitProblem {
  public:
    // The forcing period as a function of the parameter slots (it may depend on lambda, e.g.
    // 2*pi/omega with omega continued). Throws std::invalid_argument for a map, k < 1 or
    // segments_per_period < 1.
    using PeriodOf = std::function<double(const std::vector<double>& slots)>;
    StroboscopicOrbit(const codegen::HostModel& model, ModelParameters parameters, PeriodOf forcing_period,
                      int k, FlowSettings settings, int segments_per_period = 4, double t0 = 0.0);

    int unknowns() const override { return model_->dimension(); }
    double period(const Eigen::VectorXd& u, double lambda) const override;

  protected:
    bool evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian, OrbitEvaluation& out,
                     std::string& why) const override;

  private:
    PeriodOf forcing_period_;
    int k_;
    FlowSettings settings_;
    int segments_per_period_;
    double t0_;
};

} // namespace bif::cont
