#include "engine/analysis/phase_plane_portrait.h"

#include <cmath>
#include <stdexcept>

namespace bif::analysis {

std::vector<FieldArrow> direction_field(const PlanarSystem& system, const PlaneWindow& w, int arrows) {
    std::vector<FieldArrow> out;
    if (arrows <= 0) return out;
    out.reserve(static_cast<std::size_t>(arrows) * static_cast<std::size_t>(arrows));
    const double sx = (w.x_to - w.x_from) / arrows, sy = (w.y_to - w.y_from) / arrows;
    double f[2];
    for (int j = 0; j < arrows; ++j)
        for (int i = 0; i < arrows; ++i) {
            FieldArrow a;
            a.at = {w.x_from + (i + 0.5) * sx, w.y_from + (j + 0.5) * sy};
            system.field(a.at.x, a.at.y, f);
            const double speed = std::hypot(f[0], f[1]);
            if (std::isfinite(speed) && speed > 0) {
                a.dx = f[0] / speed;
                a.dy = f[1] / speed;
                a.speed = speed;
            }
            out.push_back(a);
        }
    return out;
}

PhasePortrait compute_portrait(const PlanarSystem& system, const PortraitSettings& s) {
    const PlaneWindow& w = s.window;
    if (!(w.x_from < w.x_to) || !(w.y_from < w.y_to) || !std::isfinite(w.x_to - w.x_from) ||
        !std::isfinite(w.y_to - w.y_from))
        throw std::invalid_argument("a phase plane needs a window with from < to on both axes");
    if (s.grid < 3) throw std::invalid_argument("a phase plane needs a grid of at least 3 points per axis");
    SampledGrid fx{s.grid, s.grid, w, {}}, fy{s.grid, s.grid, w, {}};
    const std::size_t n = static_cast<std::size_t>(s.grid) * static_cast<std::size_t>(s.grid);
    fx.values.resize(n);
    fy.values.resize(n);
    double f[2];
    for (int j = 0; j < s.grid; ++j)
        for (int i = 0; i < s.grid; ++i) {
            system.field(fx.x_at(i), fx.y_at(j), f);
            const std::size_t k =
                static_cast<std::size_t>(j) * static_cast<std::size_t>(s.grid) + std::size_t(i);
            fx.values[k] = f[0];
            fy.values[k] = f[1];
        }
    PhasePortrait p;
    p.window = w;
    p.nullclines[0] = zero_contours(fx);
    p.nullclines[1] = zero_contours(fy);
    p.arrows = direction_field(system, w, s.arrows);
    p.equilibria = find_equilibria(system, fx, fy);
    return p;
}

} // namespace bif::analysis
