// The planar system a phase plane shows: the model's right-hand side with two of its states as the
// coordinates (x, y), every other state held at a fixed value and the time at t (for models whose
// right-hand side depends on t the plane is a snapshot at that time).
//
// Evaluations go through the compiler-free evaluator (codegen::HostModel), so that a redraw needs
// no compiler. A PlanarSystem keeps scratch arrays for the full state: use one per thread (copies
// share the evaluator, which is safe on many threads).
#pragma once

#include "engine/codegen/host_model.h"
#include "engine/study/resolved_study.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace bif::analysis {

class PlanarSystem {
  public:
    // `state`: N values (those of the axes are ignored); `parameters`: the P user parameters.
    // Throws std::invalid_argument when the axes are not two distinct states of the model.
    PlanarSystem(std::shared_ptr<const codegen::HostModel> model, int x, int y, std::vector<double> state,
                 const std::vector<double>& parameters, double t);

    // (x', y') at (x, y), at the system's time or at `t`.
    void field(double x, double y, double* f) const { field_at(t_, x, y, f); }
    void field_at(double t, double x, double y, double* f) const;
    // d(x', y')/d(x, y), row-major: J[0] = dx'/dx, J[1] = dx'/dy, J[2] = dy'/dx, J[3] = dy'/dy.
    void jacobian(double x, double y, double* J) const;

    // Sets user parameter `slot` and recomputes the derived parameters.
    void set_parameter(int slot, double value);
    double parameter(int slot) const { return p_[static_cast<std::size_t>(slot)]; }
    int parameter_count() const { return model_->param_count(); }

    double time() const { return t_; }
    int x_index() const { return x_; }
    int y_index() const { return y_; }

  private:
    void place(double x, double y) const;

    std::shared_ptr<const codegen::HostModel> model_;
    int x_, y_;
    double t_;
    std::vector<double> p_; // all parameter slots, derived ones completed
    mutable std::vector<double> y_full_, f_full_, j_full_;
};

// The planar system a resolved phase-plane study describes (its parameters, fixed states and t0).
PlanarSystem planar_system(const study::ResolvedStudy& study);

} // namespace bif::analysis
