#include "engine/continuation/map_orbit.h"

#include "engine/continuation/floquet_multipliers.h"

#include <stdexcept>

namespace bif::cont {

MapOrbit::MapOrbit(const codegen::HostModel& model, ModelParameters parameters, int k, double t0)
    : ModelOrbitProblem(model, std::move(parameters)), k_(k), t0_(t0) {
    if (k < 1) throw std::invalid_argument("orbit: the period must be at least 1");
    if (model.event_count() > 0)
        throw std::invalid_argument("orbit: periodic orbits of maps with events are not supported");
}

bool MapOrbit::evaluate_at(const Eigen::VectorXd& u, double lambda, bool with_jacobian, OrbitEvaluation& out,
                           std::string& why) const {
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const int n = model_->dimension();
    const std::vector<double> p = parameters_.slots(lambda);
    Eigen::VectorXd x = u, next(n);
    RowMajor jac(n, n);
    out.segments.clear();
    for (int j = 0; j < k_; ++j) {
        const double t = t0_ + j;
        if (with_jacobian) {
            model_->jacobian(t, x.data(), p.data(), jac.data());
            out.segments.emplace_back(jac);
        }
        model_->rhs(t, x.data(), p.data(), next.data());
        x = next;
        if (!x.allFinite()) {
            why = "the map's iterate " + std::to_string(j + 1) + " is not finite";
            return false;
        }
    }
    out.residual = x - u;
    if (with_jacobian) out.jacobian = monodromy_matrix(out.segments) - Eigen::MatrixXd::Identity(n, n);
    return true;
}

} // namespace bif::cont
