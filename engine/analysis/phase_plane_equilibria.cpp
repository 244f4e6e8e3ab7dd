#include "engine/analysis/phase_plane_equilibria.h"

#include <algorithm>
#include <cmath>

namespace bif::analysis {

const char* name_of(EquilibriumType type) {
    switch (type) {
    case EquilibriumType::Saddle:
        return "saddle";
    case EquilibriumType::StableNode:
        return "stable node";
    case EquilibriumType::UnstableNode:
        return "unstable node";
    case EquilibriumType::StableFocus:
        return "stable focus";
    case EquilibriumType::UnstableFocus:
        return "unstable focus";
    case EquilibriumType::Centre:
        return "centre";
    case EquilibriumType::Degenerate:
        return "degenerate";
    }
    return "degenerate";
}

namespace {

// A unit vector v with (J - lambda I) v = 0 for a real eigenvalue lambda: orthogonal to the larger
// of the two rows of J - lambda I (both rows are multiples of one another).
PlanePoint eigenvector(const std::array<double, 4>& J, double lambda) {
    const double r0x = J[0] - lambda, r0y = J[1];
    const double r1x = J[2], r1y = J[3] - lambda;
    double vx = -r0y, vy = r0x;
    if (std::hypot(r1x, r1y) > std::hypot(r0x, r0y)) vx = -r1y, vy = r1x;
    const double norm = std::hypot(vx, vy);
    if (norm == 0.0) return lambda == J[0] ? PlanePoint{1.0, 0.0} : PlanePoint{0.0, 1.0}; // J = lambda I
    return {vx / norm, vy / norm};
}

} // namespace

Equilibrium classify(PlanePoint at, const std::array<double, 4>& J) {
    Equilibrium e;
    e.at = at;
    e.jacobian = J;
    const double tr = J[0] + J[3], det = J[0] * J[3] - J[1] * J[2];
    const double scale = std::abs(J[0]) + std::abs(J[1]) + std::abs(J[2]) + std::abs(J[3]);
    const double zero = 1e-9 * scale;
    const double half = tr / 2, disc = half * half - det;
    if (disc >= 0) {
        const double root = std::sqrt(disc);
        // the larger in magnitude without cancellation, the other from the product det
        const double big = half >= 0 ? half + root : half - root;
        const double small = big != 0.0 ? det / big : 0.0;
        const double hi = std::max(big, small), lo = std::min(big, small);
        e.eigenvalues = {std::complex<double>(hi), std::complex<double>(lo)};
        e.eigenvectors = {eigenvector(J, hi), eigenvector(J, lo)};
        if (std::abs(hi) <= zero || std::abs(lo) <= zero)
            e.type = EquilibriumType::Degenerate;
        else if (hi > 0 && lo < 0)
            e.type = EquilibriumType::Saddle;
        else
            e.type = hi < 0 ? EquilibriumType::StableNode : EquilibriumType::UnstableNode;
    } else {
        const double im = std::sqrt(-disc);
        e.eigenvalues = {std::complex<double>(half, im), std::complex<double>(half, -im)};
        if (std::abs(half) <= zero)
            e.type = EquilibriumType::Centre;
        else
            e.type = half < 0 ? EquilibriumType::StableFocus : EquilibriumType::UnstableFocus;
    }
    return e;
}

std::optional<PlanePoint> refine_equilibrium(const PlanarSystem& system, PlanePoint seed) {
    PlanePoint p = seed;
    double f[2], J[4];
    for (int step = 0; step < 50; ++step) {
        system.field(p.x, p.y, f);
        system.jacobian(p.x, p.y, J);
        if (!std::isfinite(f[0]) || !std::isfinite(f[1])) return std::nullopt;
        const double det = J[0] * J[3] - J[1] * J[2];
        if (det == 0.0 || !std::isfinite(det)) return std::nullopt;
        // [dx dy] = -J^{-1} f
        const double dx = -(J[3] * f[0] - J[1] * f[1]) / det;
        const double dy = -(-J[2] * f[0] + J[0] * f[1]) / det;
        p.x += dx;
        p.y += dy;
        const double size = 1.0 + std::abs(p.x) + std::abs(p.y);
        if (std::abs(dx) + std::abs(dy) <= 1e-13 * size) return p;
    }
    // Quadratic convergence ends at rounding, where steps may stall above 1e-13: accept a point
    // whose residual is tiny against the Jacobian's scale.
    system.field(p.x, p.y, f);
    system.jacobian(p.x, p.y, J);
    const double scale = (std::abs(J[0]) + std::abs(J[1]) + std::abs(J[2]) + std::abs(J[3])) *
                         (1.0 + std::abs(p.x) + std::abs(p.y));
    if (std::abs(f[0]) + std::abs(f[1]) <= 1e-10 * scale) return p;
    return std::nullopt;
}

namespace {

bool changes_sign(const SampledGrid& g, int i, int j) {
    const double v[4] = {g.value(i, j), g.value(i + 1, j), g.value(i + 1, j + 1), g.value(i, j + 1)};
    bool pos = false, neg = false;
    for (double x : v) {
        if (!std::isfinite(x)) return false;
        pos = pos || x >= 0;
        neg = neg || x <= 0;
    }
    return pos && neg;
}

} // namespace

std::vector<Equilibrium> find_equilibria(const PlanarSystem& system, const SampledGrid& fx,
                                         const SampledGrid& fy) {
    const PlaneWindow& w = fx.window;
    const double cell_x = (w.x_to - w.x_from) / (fx.nx - 1), cell_y = (w.y_to - w.y_from) / (fx.ny - 1);
    std::vector<PlanePoint> found;
    for (int j = 0; j + 1 < fx.ny; ++j)
        for (int i = 0; i + 1 < fx.nx; ++i) {
            if (!changes_sign(fx, i, j) || !changes_sign(fy, i, j)) continue;
            const auto p = refine_equilibrium(system, {fx.x_at(i) + cell_x / 2, fx.y_at(j) + cell_y / 2});
            if (!p || p->x < w.x_from || p->x > w.x_to || p->y < w.y_from || p->y > w.y_to) continue;
            const bool known = std::any_of(found.begin(), found.end(), [&](const PlanePoint& q) {
                return std::abs(q.x - p->x) <= 1e-6 * cell_x && std::abs(q.y - p->y) <= 1e-6 * cell_y;
            });
            if (!known) found.push_back(*p);
        }
    std::sort(found.begin(), found.end(), [](const PlanePoint& a, const PlanePoint& b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    });
    std::vector<Equilibrium> out;
    for (const PlanePoint& p : found) {
        std::array<double, 4> J;
        system.jacobian(p.x, p.y, J.data());
        out.push_back(classify(p, J));
    }
    return out;
}

} // namespace bif::analysis
