// One redraw of a phase plane: both nullclines, the direction field and the equilibria of a planar
// system over a window. Immutable once computed; the GUI computes it on a worker thread.
#pragma once

#include "engine/analysis/phase_plane_contours.h"
#include "engine/analysis/phase_plane_equilibria.h"
#include "engine/analysis/phase_plane_system.h"

#include <array>
#include <vector>

namespace bif::analysis {

struct PortraitSettings {
    PlaneWindow window;
    int grid = 121;  // field samples per axis for the nullclines and the equilibrium seeds (>= 3)
    int arrows = 21; // direction-field arrows per axis (0: none)
};

// A direction-field arrow at (x, y): the field's direction as a unit vector (0, 0 where the field
// vanishes or is not finite) and its length |f|.
struct FieldArrow {
    PlanePoint at;
    double dx = 0.0, dy = 0.0;
    double speed = 0.0;
};

struct PhasePortrait {
    PlaneWindow window;
    std::array<std::vector<Polyline>, 2> nullclines; // [0]: x' = 0, [1]: y' = 0
    std::vector<FieldArrow> arrows;                  // row by row from the bottom left
    std::vector<Equilibrium> equilibria;
};

// Throws std::invalid_argument for an empty window or a grid below 3.
PhasePortrait compute_portrait(const PlanarSystem& system, const PortraitSettings& settings);

// The direction field alone, arrows x arrows points centred in their cells.
std::vector<FieldArrow> direction_field(const PlanarSystem& system, const PlaneWindow& window, int arrows);

} // namespace bif::analysis
