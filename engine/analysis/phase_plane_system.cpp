#include "engine/analysis/phase_plane_system.h"

#include <stdexcept>
#include <string>

namespace bif::analysis {

PlanarSystem::PlanarSystem(std::shared_ptr<const codegen::HostModel> model, int x, int y,
                           std::vector<double> state, const std::vector<double>& parameters, double t)
    : model_(std::move(model)), x_(x), y_(y), t_(t), y_full_(std::move(state)) {
    const int n = model_->dimension();
    if (x < 0 || y < 0 || x >= n || y >= n || x == y)
        throw std::invalid_argument("a phase plane needs two different states of the model's " +
                                    std::to_string(n) + " as its axes");
    if (static_cast<int>(y_full_.size()) != n)
        throw std::invalid_argument("a phase plane needs a value for each of the model's " +
                                    std::to_string(n) + " states");
    if (static_cast<int>(parameters.size()) != model_->param_count())
        throw std::invalid_argument("a phase plane needs the model's " +
                                    std::to_string(model_->param_count()) + " parameters");
    p_.assign(static_cast<std::size_t>(std::max(model_->param_slot_count(), 1)), 0.0);
    std::copy(parameters.begin(), parameters.end(), p_.begin());
    model_->complete_parameters(p_.data());
    f_full_.assign(static_cast<std::size_t>(n), 0.0);
    j_full_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
}

void PlanarSystem::place(double x, double y) const {
    y_full_[static_cast<std::size_t>(x_)] = x;
    y_full_[static_cast<std::size_t>(y_)] = y;
}

void PlanarSystem::field_at(double t, double x, double y, double* f) const {
    place(x, y);
    model_->rhs(t, y_full_.data(), p_.data(), f_full_.data());
    f[0] = f_full_[static_cast<std::size_t>(x_)];
    f[1] = f_full_[static_cast<std::size_t>(y_)];
}

void PlanarSystem::jacobian(double x, double y, double* J) const {
    place(x, y);
    model_->jacobian(t_, y_full_.data(), p_.data(), j_full_.data());
    const std::size_t n = static_cast<std::size_t>(model_->dimension());
    const auto at = [&](int row, int column) {
        return j_full_[static_cast<std::size_t>(row) * n + static_cast<std::size_t>(column)];
    };
    J[0] = at(x_, x_);
    J[1] = at(x_, y_);
    J[2] = at(y_, x_);
    J[3] = at(y_, y_);
}

void PlanarSystem::set_parameter(int slot, double value) {
    if (slot < 0 || slot >= model_->param_count())
        throw std::invalid_argument("no user parameter slot " + std::to_string(slot));
    p_[static_cast<std::size_t>(slot)] = value;
    model_->complete_parameters(p_.data());
}

PlanarSystem planar_system(const study::ResolvedStudy& study) {
    auto model =
        std::make_shared<const codegen::HostModel>(study.codegen_request(codegen::Precision::Double));
    const auto& plane = study.phase_plane;
    std::vector<double> state = plane.state.empty() ? study.initial_state : plane.state;
    return PlanarSystem(std::move(model), static_cast<int>(plane.x), static_cast<int>(plane.y),
                        std::move(state), study.parameters, study.study.t0);
}

} // namespace bif::analysis
