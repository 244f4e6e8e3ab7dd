#include "engine/continuation/orbit_shooting.h"

#include "engine/continuation/floquet_multipliers.h"

#include <cmath>
#include <stdexcept>

namespace bif::cont {

ShootingOrbit::ShootingOrbit(const codegen::HostModel& model, ModelParameters parameters,
                             Eigen::VectorXd reference, FlowSettings settings, int segments)
    : ModelOrbitProblem(model, std::move(parameters)), reference_(std::move(reference)), settings_(settings),
      segments_(segments) {
    if (segments < 1) throw std::invalid_argument("orbit: at least one shooting segment");
    if (reference_.size() != model.dimension())
        throw std::invalid_argument("orbit: the phase condition's point does not fit the model");
}

bool ShootingOrbit::evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian,
                                OrbitEvaluation& out, std::string& why) const {
    const int n = model_->dimension();
    const std::vector<double> p = parameters_.slots(lambda);
    const Eigen::VectorXd x = u.head(n);
    const double period = u[n];
    if (!(period > 0) || !std::isfinite(period)) {
        why = "the period became " + std::to_string(period);
        return false;
    }
    FlowResult flow;
    if (!flow_span(*model_, p, 0.0, x, period, segments_, with_jacobian, settings_, flow, why)) return false;
    Eigen::VectorXd f_reference(n);
    model_->rhs(0.0, reference_.data(), p.data(), f_reference.data());
    out.residual.resize(n + 1);
    out.residual.head(n) = flow.end - x;
    out.residual[n] = f_reference.dot(x - reference_);
    out.segments = std::move(flow.jacobians);
    if (!with_jacobian) return true;
    Eigen::VectorXd f_end(n);
    model_->rhs(period, flow.end.data(), p.data(), f_end.data());
    out.jacobian = Eigen::MatrixXd::Zero(n + 1, n + 1);
    out.jacobian.topLeftCorner(n, n) = monodromy_matrix(out.segments) - Eigen::MatrixXd::Identity(n, n);
    out.jacobian.block(0, n, n, 1) = f_end;
    out.jacobian.block(n, 0, 1, n) = f_reference.transpose();
    return true;
}

} // namespace bif::cont
