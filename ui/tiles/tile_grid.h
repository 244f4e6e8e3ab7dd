// Tiles of a two-parameter map: a fixed lattice of grid points per study, so that the same part of
// parameter space at the same resolution is always the same tile, whatever the view around it.
//
// Along each axis (in display coordinates: log10 of the value on a log axis) the lattice has points
// origin + k * dx(level), dx(level) = base * 2^-level, where origin and base are the first study's
// lower bound and grid spacing. A view picks the level whose spacing is nearest its own pixel size,
// and is covered by the tiles of `cells` x `cells` points that hold its lattice points: tile (ix, iy)
// holds points [ix*cells, (ix+1)*cells) along x and likewise along y. Panning by one tile width
// shifts the tile indices by one; zooming back to a level gives that level's keys again.
#pragma once

#include "engine/study/resolved_study.h"
#include "ui/plot/plot_range.h"

#include <QSize>
#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bif::tiles {

// One tile: which study, its level and position on the lattice. The parameter ranges and the
// resolution follow from these (TileGrid::tileStudy); equal keys mean the same sub-study.
struct TileKey {
    std::string study; // TileGrid::identity()
    int level_x = 0, level_y = 0;
    std::int64_t ix = 0, iy = 0;
    int cells = 0; // grid points per side
    auto operator<=>(const TileKey&) const = default;
};

// A rectangle of tiles of one level, run as one sub-study (a batch) or shown as one (a cover):
// tiles ix0 .. ix0+nx-1 along x and iy0 .. iy0+ny-1 along y.
struct TileRect {
    int level_x = 0, level_y = 0;
    std::int64_t ix0 = 0, iy0 = 0;
    std::int64_t nx = 1, ny = 1;

    static TileRect of(const TileKey& key) { return {key.level_x, key.level_y, key.ix, key.iy, 1, 1}; }
    bool contains(const TileKey& key) const {
        return key.level_x == level_x && key.level_y == level_y && key.ix >= ix0 && key.ix < ix0 + nx &&
               key.iy >= iy0 && key.iy < iy0 + ny;
    }
    std::size_t tiles() const { return std::size_t(nx * ny); }
    bool operator==(const TileRect&) const = default;
};

class TileGrid {
  public:
    // `first` is the study the map was first run with: it fixes the lattice.
    TileGrid(const study::ResolvedStudy& first, int tile_cells = 256);

    // Whether a study's map can be tiled: a parameter map over exactly two axes.
    static bool supports(const study::ResolvedStudy& study);

    const std::string& identity() const { return identity_; }
    int tileCells() const { return cells_; }

    // The tiles covering `range` drawn at `pixels`, the one nearest the view's centre first, then
    // outwards (the order to compute them in).
    std::vector<TileKey> keys(const plot::PlotRange& range, QSize pixels) const;
    // The study of a rectangle of tiles: the same model, settings and formulas, only the grid changed
    // (so no file is read again and no name is resolved again). Its swept values are the lattice's
    // own, origin + k * dx, not an interpolation between the rectangle's ends: a grid point has the
    // very same value in every rectangle that holds it, so a tile computed alone, in a batch or as
    // part of a cover gives the same numbers bit for bit.
    std::shared_ptr<const study::ResolvedStudy> rectStudy(const TileRect& rect) const;
    std::shared_ptr<const study::ResolvedStudy> tileStudy(const TileKey& key) const {
        return rectStudy(TileRect::of(key));
    }

  private:
    struct Lattice {
        study::SweepAxis axis; // name, target and scale of the first study's axis
        double origin = 0.0;   // display coordinate of lattice point 0
        double base = 1.0;     // spacing at level 0, display units
        bool log = false;
    };
    double spacing(int axis, int level) const;
    // The lattice values of `tiles` consecutive tiles from `first_tile` along one axis.
    std::vector<double> latticeValues(int axis, int level, std::int64_t first_tile, std::int64_t tiles) const;

    std::shared_ptr<const study::ResolvedStudy> first_;
    Lattice lattice_[2];
    int cells_;
    std::string identity_;
};

} // namespace bif::tiles
