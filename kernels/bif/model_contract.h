// The contract between generated models (engine/codegen) and the integrators in kernels/.
//
// The code generator emits one struct per (model, study expressions, precision); the integrators
// take it as a template argument. Everything is static: no state, no heap, sizes as constants, so
// the compiler keeps y, k-stages and Jacobians in registers. No user text reaches the struct: states
// are y[i], parameter slots p[i], and the type name is chosen by the caller.
//
//   struct SomeModel {
//       using real = double;                       // or float (float literals then carry 'f')
//       static constexpr int num_states;           // N
//       static constexpr int num_params;           // P user parameters (per system or shared)
//       static constexpr int num_param_slots;      // P + D derived parameters
//       static constexpr int num_events;           // E: the model's `global` events, then study events
//       static constexpr int num_aux;              // A: the model's aux quantities
//       static constexpr int num_observables;      // O: study expressions to record
//       // optional (false when absent): rhs is non-finite somewhere whenever y is (a map's orbit
//       // cannot come back from infinity; bif/study/map_iterates.h then tests chunks, not iterates)
//       static constexpr bool nonfinite_persists;
//       // optional (-1 for every k when absent): the state variable that observable k is (y[i]
//       // itself), or -1; a diagram of one state then stores y[i] (bif/study/section_program.h)
//       BIF_HD static constexpr int observable_state(int k);
//       BIF_HD static constexpr int dimension();   // N; likewise event_count() == E,
//       // param_slot_count() == P + D, aux_count() == A, observable_count() == O
//
//       // p[P..P+D) from p[0..P); call once per system and after any reset of a parameter
//       BIF_HD static void complete_parameters(real* p);
//       BIF_HD static void rhs(real t, const real* y, const real* p, real* dydt);
//       // row-major with row stride dimension(): J[i*dimension() + j] = d f_i / d y_j
//       BIF_HD static void jacobian(real t, const real* y, const real* p, real* J);
//       // d f_i / d t
//       BIF_HD static void time_derivative(real t, const real* y, const real* p, real* dfdt);
//       BIF_HD static void events(real t, const real* y, const real* p, real* g);   // g[0..E)
//       BIF_HD static int event_direction(int k);  // +1, -1, 2 (any crossing) or 0 (XPPAUT exact zero:
//       //  fires only when g is exactly 0 at a step end; never located)
//       // Applies event k's resets: all right-hand sides evaluated before any assignment. The front
//       // end has already substituted earlier state assignments into later values, which gives
//       // XPPAUT 6.11's reading ({x=0;y=x+1} sets y=1; parameter targets stay simultaneous);
//       // returns true when the event asks the system to stop (XPPAUT's arret > 0).
//       // Calls complete_parameters itself when a parameter was reset.
//       BIF_HD static bool apply_reset(int k, real t, real* y, real* p);
//       BIF_HD static void aux(real t, const real* y, const real* p, real* a);         // a[0..A)
//       BIF_HD static void observables(real t, const real* y, const real* p, real* o); // o[0..O)
//
//       // Saltation parts, for tangent vectors through resets (bif/lyapunov.h); always generated,
//       // optional for hand-written models (ProvidesSaltation). Evaluated before the reset:
//       // grad[0..N) = d g_k / d y, grad[N] = d g_k / d t (zeros for an event without resets).
//       BIF_HD static void event_gradient(int k, real t, const real* y, const real* p, real* grad);
//       // DR[i*N + l] = d R_i / d y_l, dRdt[i] = d R_i / d t of event k's state resets (the
//       // identity's row and 0 for a state it does not reset); false, writing nothing, when event k
//       // resets no state and no parameter (study events, stop-only events).
//       BIF_HD static bool reset_jacobian(int k, real t, const real* y, const real* p, real* DR, real* dRdt);
//
//       // Only with codegen::Request::tangent_derivatives (ProvidesTangentDerivatives), for the
//       // exact Jacobian of the tangent system: yv = [y | v] (2N values), u = J(t, y) v,
//       BIF_HD static void hessian_vector(real t, const real* yv, const real* p, real* Hv); // Hv[i*N+l] =
//       du_i/dy_l BIF_HD static void jacobian_time_vector(real t, const real* yv, const real* p, real* Jtv);
//       // du_i/dt
//   };
//
// Zero-sized parts (no events, no aux) still provide the functions; they do nothing.
//
// Integrators and analyses hold the model as an object (`const Model& m`) and call `m.rhs(...)`:
// a generated model is an empty struct whose members are static (the call costs nothing), while
// an adapter such as the compiler-free evaluator carries its program and its real size. Array
// capacities come from the compile-time `Model::num_states`; loop bounds from `m.dimension()`,
// which a generated model defines as `static constexpr int dimension() { return num_states; }`
// (so loops unroll) and an adapter returns at run time (<= num_states). Likewise
// `m.event_count()`, `m.param_slot_count()`, `m.aux_count()`, `m.observable_count()`.
#pragma once

#include "bif/config.h"

#if !defined(__CUDACC_RTC__) && __cplusplus >= 202002L
#include <concepts>

namespace bif {

template <class M>
concept GeneratedModel = requires(typename M::real t, typename M::real* w, const typename M::real* r, int k) {
    requires std::floating_point<typename M::real>;
    { M::num_states } -> std::convertible_to<int>;
    { M::num_params } -> std::convertible_to<int>;
    { M::num_param_slots } -> std::convertible_to<int>;
    { M::num_events } -> std::convertible_to<int>;
    { M::num_aux } -> std::convertible_to<int>;
    { M::num_observables } -> std::convertible_to<int>;
    M::complete_parameters(w);
    M::rhs(t, r, r, w);
    M::jacobian(t, r, r, w);
    M::time_derivative(t, r, r, w);
    M::events(t, r, r, w);
    { M::event_direction(k) } -> std::convertible_to<int>;
    { M::apply_reset(k, t, w, w) } -> std::convertible_to<bool>;
    M::aux(t, r, r, w);
    M::observables(t, r, r, w);
};

} // namespace bif
#endif
