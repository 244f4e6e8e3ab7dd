#include "ui/tiles/tile_grid.h"

#include "engine/study/study_json.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bif::tiles {

namespace {

constexpr int max_level = 40; // 2^40 times finer than the first run: far beyond double's reach

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

} // namespace

TileGrid::TileGrid(const study::ResolvedStudy& first, int tile_cells)
    : first_(std::make_shared<const study::ResolvedStudy>(first)), cells_(std::max(2, tile_cells)) {
    study::Study settings = first.study;
    settings.sweep.clear();
    std::ostringstream id;
    id.precision(17);
    id << study::write_study_json(settings);
    for (int a = 0; a < 2 && a < int(first.study.sweep.size()); ++a) {
        const study::SweepAxis& axis = first.study.sweep[a];
        Lattice& l = lattice_[a];
        l.axis = axis;
        l.log = axis.scale == study::SweepScale::Log;
        const auto display = [&](double v) { return l.log ? std::log10(v) : v; };
        const double lo = display(std::min(axis.from, axis.to)), hi = display(std::max(axis.from, axis.to));
        l.origin = lo;
        l.base = hi > lo ? (hi - lo) / std::max(1, axis.count - 1) : 1.0;
        id << '|' << axis.name << ' ' << int(axis.target) << ' ' << l.log << ' ' << l.origin << ' ' << l.base;
    }
    identity_ = id.str();
}

bool TileGrid::supports(const study::ResolvedStudy& study) {
    return study.study.analysis == study::AnalysisKind::ParameterMap && study.study.sweep.size() == 2 &&
           !study.is_continuation();
}

double TileGrid::spacing(int axis, int level) const {
    return std::ldexp(lattice_[axis].base, -level);
}

std::vector<TileKey> TileGrid::keys(const plot::PlotRange& range, QSize pixels) const {
    const plot::AxisRange* view[2] = {&range.x, &range.y};
    const int count[2] = {std::max(1, pixels.width()), std::max(1, pixels.height())};
    int level[2];
    std::int64_t first[2], last[2];
    double centre[2];
    for (int a = 0; a < 2; ++a) {
        const Lattice& l = lattice_[a];
        const auto display = [&](double v) { return l.log ? std::log10(std::max(v, 1e-300)) : v; };
        const double d0 = display(std::min(view[a]->from, view[a]->to));
        const double d1 = display(std::max(view[a]->from, view[a]->to));
        const double pixel = std::max(d1 - d0, 1e-300) / count[a];
        level[a] = std::clamp(int(std::lround(std::log2(l.base / pixel))), -max_level, max_level);
        const double dx = spacing(a, level[a]);
        // The lattice points nearest the view's edges, and the tiles that hold them.
        const auto point = [&](double d) { return std::int64_t(std::floor((d - l.origin) / dx + 0.5)); };
        first[a] = floor_div(point(d0), cells_);
        last[a] = floor_div(point(d1), cells_);
        centre[a] = ((d0 + d1) / 2 - l.origin) / (dx * cells_); // in tile widths
    }
    std::vector<TileKey> keys;
    for (std::int64_t iy = first[1]; iy <= last[1]; ++iy)
        for (std::int64_t ix = first[0]; ix <= last[0]; ++ix)
            keys.push_back({identity_, level[0], level[1], ix, iy, cells_});
    const auto distance = [&](const TileKey& k) {
        return std::hypot(double(k.ix) + 0.5 - centre[0], double(k.iy) + 0.5 - centre[1]);
    };
    std::stable_sort(keys.begin(), keys.end(),
                     [&](const TileKey& a, const TileKey& b) { return distance(a) < distance(b); });
    return keys;
}

std::vector<double> TileGrid::latticeValues(int axis, int level, std::int64_t first_tile,
                                            std::int64_t tiles) const {
    const Lattice& l = lattice_[axis];
    const double dx = spacing(axis, level);
    std::vector<double> values(std::size_t(tiles * cells_));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double d = l.origin + double(first_tile * cells_ + std::int64_t(i)) * dx;
        values[i] = l.log ? std::pow(10.0, d) : d;
    }
    return values;
}

std::shared_ptr<const study::ResolvedStudy> TileGrid::rectStudy(const TileRect& rect) const {
    auto s = std::make_shared<study::ResolvedStudy>(*first_);
    std::vector<double> values[2] = {latticeValues(0, rect.level_x, rect.ix0, rect.nx),
                                     latticeValues(1, rect.level_y, rect.iy0, rect.ny)};
    for (int a = 0; a < 2; ++a) {
        // The study's own description of its axis (its ends and count), for what shows it or saves it.
        study::SweepAxis& axis = s->study.sweep[a];
        axis = lattice_[a].axis;
        axis.from = values[a].front();
        axis.to = values[a].back();
        axis.count = int(values[a].size());
    }
    s->grid = study::SweepGrid({std::move(values[0]), std::move(values[1])});
    s->run_system_count = 0;
    return s;
}

} // namespace bif::tiles
