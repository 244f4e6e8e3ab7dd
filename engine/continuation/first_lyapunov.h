// The first Lyapunov coefficient l1 at a Hopf point: negative, the bifurcation is supercritical (a
// stable cycle is born); positive, subcritical. Kuznetsov's invariant formula (Elements of Applied
// Bifurcation Theory, 3rd ed., eq. (3.20)):
//   l1 = 1/(2 omega) Re( <p, C(q,q,conj q)> - 2 <p, B(q, A^-1 B(q, conj q))>
//                        + <p, B(conj q, (2 i omega - A)^-1 B(q, q))> )
// with A q = i omega q, A^T p = -i omega p, <q, q> = <p, q> = 1 (<u, v> = conj(u) . v). So for
// z' = i omega z + c z |z|^2 in z = x + i y, l1 = 2 Re(c) / omega.
// B and C, the second and third derivatives of f, come from central differences of the exact Jacobian.
#pragma once

#include "engine/continuation/model_equations.h"

#include <vector>

namespace bif::cont {

// At an equilibrium y whose Jacobian has a pure imaginary pair; NaN where it has none.
double first_lyapunov_coefficient(const ModelEquations& equations, const double* p,
                                  const std::vector<double>& y);

} // namespace bif::cont
