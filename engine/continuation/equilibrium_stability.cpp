#include "engine/continuation/equilibrium_stability.h"

#include <algorithm>
#include <vector>

namespace bif::cont {

Eigen::VectorXcd sorted_eigenvalues(const Eigen::MatrixXd& j) {
    Eigen::EigenSolver<Eigen::MatrixXd> solver(j, false);
    std::vector<std::complex<double>> v(solver.eigenvalues().begin(), solver.eigenvalues().end());
    std::sort(v.begin(), v.end(), [](auto a, auto b) {
        return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag();
    });
    Eigen::VectorXcd out(Eigen::Index(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
        out[Eigen::Index(i)] = v[i];
    return out;
}

Stability classify(const Eigen::VectorXcd& eigenvalues, double tolerance) {
    Stability s;
    const double scale = std::max(1.0, eigenvalues.size() ? eigenvalues.cwiseAbs().maxCoeff() : 0.0);
    const double zero = tolerance * scale;
    int complex_members = 0;
    for (const std::complex<double>& l : eigenvalues) {
        if (l.real() > zero)
            ++s.unstable;
        else if (l.real() < -zero)
            ++s.stable;
        else
            ++s.neutral;
        if (std::abs(l.imag()) > zero) ++complex_members;
    }
    s.complex_pairs = complex_members / 2;
    const bool complex = s.complex_pairs > 0;
    if (s.neutral > 0)
        s.type = eigenvalues.size() == 2 && s.neutral == 2 && complex ? EquilibriumType::Centre
                                                                      : EquilibriumType::NonHyperbolic;
    else if (s.unstable == 0)
        s.type = complex ? EquilibriumType::StableFocus : EquilibriumType::StableNode;
    else if (s.stable == 0)
        s.type = complex ? EquilibriumType::UnstableFocus : EquilibriumType::UnstableNode;
    else
        s.type = complex ? EquilibriumType::SaddleFocus : EquilibriumType::Saddle;
    return s;
}

const char* name_of(EquilibriumType type) {
    switch (type) {
    case EquilibriumType::StableNode:
        return "stable node";
    case EquilibriumType::UnstableNode:
        return "unstable node";
    case EquilibriumType::Saddle:
        return "saddle";
    case EquilibriumType::StableFocus:
        return "stable focus";
    case EquilibriumType::UnstableFocus:
        return "unstable focus";
    case EquilibriumType::SaddleFocus:
        return "saddle-focus";
    case EquilibriumType::Centre:
        return "centre";
    case EquilibriumType::NonHyperbolic:
        return "non-hyperbolic";
    }
    return "?";
}

} // namespace bif::cont
