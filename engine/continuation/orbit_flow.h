// The flow of a model over a time span, with the Jacobian of each of its segments, on the host:
// the kernels' driver (bif/integrate.h) on the compiler-free evaluator (codegen::HostModel), the
// variational equations integrated beside the state by bif/lyapunov.h's TangentModel, so that
// resets map the tangent vectors through their saltation matrices.
//
// Each segment restarts the tangent vectors at the identity: segment i's Jacobian A_i then only
// holds the stretching of that segment, and the monodromy's product form A_m ... A_1 keeps what an
// integrated product would round away (engine/continuation/floquet_multipliers.h).
#pragma once

#include "engine/codegen/host_model.h"

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace bif::cont {

enum class FlowMethod { Dopri5, Rodas4 }; // Rodas4 for stiff flows

struct FlowSettings {
    FlowMethod method = FlowMethod::Dopri5;
    double rtol = 1e-10;
    double atol = 1e-12;
    double initial_step = 1e-3;
    int max_steps = 200000; // per segment
};

struct FlowResult {
    Eigen::VectorXd end;                    // the state after the span
    std::vector<Eigen::MatrixXd> jacobians; // one per segment, when asked for
};

// Largest state dimension flow_span handles (it instantiates the integrator per dimension).
inline constexpr int max_flow_dimension = 8;

// Integrates x0 from t0 over `span` (> 0) in `segments` equal parts. `parameters` holds all the
// model's parameter slots (complete_parameters applied); resets may change a copy of them.
// Returns false with `why` set when the integration fails (a step-size underflow, a non-finite
// state, the step budget spent, an event that stops the system).
bool flow_span(const codegen::HostModel& model, const std::vector<double>& parameters, double t0,
               const Eigen::VectorXd& x0, double span, int segments, bool with_jacobians,
               const FlowSettings& settings, FlowResult& out, std::string& why);

} // namespace bif::cont
