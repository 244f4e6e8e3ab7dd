#include "engine/continuation/orbit_stroboscopic.h"

#include "engine/continuation/floquet_multipliers.h"

#include <cmath>
#include <stdexcept>

namespace bif::cont {

StroboscopicOrbit::StroboscopicOrbit(const codegen::HostModel& model, ModelParameters parameters,
                                     PeriodOf forcing_period, int k, FlowSettings settings,
                                     int segments_per_period, double t0)
    : ModelOrbitProblem(model, std::move(parameters)), forcing_period_(std::move(forcing_period)), k_(k),
      settings_(settings), segments_per_period_(segments_per_period), t0_(t0) {
    if (k < 1) throw std::invalid_argument("orbit: the number of forcing periods must be at least 1");
    if (segments_per_period < 1) throw std::invalid_argument("orbit: at least one segment per period");
}

double StroboscopicOrbit::period(const Eigen::VectorXd&, double lambda) const {
    return k_ * forcing_period_(parameters_.slots(lambda));
}

bool StroboscopicOrbit::evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian,
                                    OrbitEvaluation& out, std::string& why) const {
    const std::vector<double> p = parameters_.slots(lambda);
    const double span = k_ * forcing_period_(p);
    if (!(span > 0) || !std::isfinite(span)) {
        why = "the forcing period is not a positive number at this parameter value";
        return false;
    }
    FlowResult flow;
    if (!flow_span(*model_, p, t0_, u, span, k_ * segments_per_period_, with_jacobian, settings_, flow, why))
        return false;
    out.residual = flow.end - u;
    out.segments = std::move(flow.jacobians);
    if (with_jacobian)
        out.jacobian = monodromy_matrix(out.segments) - Eigen::MatrixXd::Identity(u.size(), u.size());
    return true;
}

} // namespace bif::cont
