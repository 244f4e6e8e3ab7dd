// The reference solution of resources/models/schnakenberg_chain.ode by Boost.Odeint's rosenbrock4,
// with a right-hand side and Jacobian written here. In a translation unit of its own: Boost 1.74's
// uBLAS (which rosenbrock4 uses) does not compile as C++20, so that file is built as C++17.
#pragma once

#include <cstddef>
#include <vector>

namespace bif::test {

inline constexpr std::size_t kSchnakenbergCells = 101;

// The state at t_end from x0 at t = 0 (states u0 v0 u1 v1 ..., the model's parameter values),
// tolerances 1e-11.
std::vector<double> schnakenberg_chain_odeint(const std::vector<double>& x0, double t_end);

} // namespace bif::test
