// ResultFigure's picture brought up to date in slices of bounded time (the header's cost model):
// a whole rebin (diagram) or recolour (map) into a back image as a pass, gathered then painted row by
// row, and the rows that new blocks changed repainted alone.
#include "bif/render/binning.h"
#include "ui/plot/result_figure.h"

#include <algorithm>
#include <cmath>

namespace bif::plot {

// Every point at once where the points are kept (one GPU pass, its counts read back).
void ResultFigure::binKept(Pass& p) const {
    const render::DensityBinning bins =
        render::make_density_binning(p.range.x.from, p.range.x.to, p.range.x.log, p.range.y.from,
                                     p.range.y.to, p.range.y.log, p.pixels.width(), p.pixels.height());
    kept_points_->density(static_cast<std::size_t>(quantity_), bins, p.up);
    p.most = p.up.empty() ? 0u : *std::max_element(p.up.begin(), p.up.end());
    p.stage = Pass::Stage::Paint;
    p.cursor = 0;
}

bool ResultFigure::needsRefresh() const {
    return dirty_ != Dirty::None || pass_ || any_dirty_row_ ||
           (kind_ == FigureKind::Diagram && most_ != painted_most_);
}

void ResultFigure::refresh() {
    while (!refreshSlice(std::chrono::hours(1))) {
    }
}

bool ResultFigure::refreshSlice(std::chrono::nanoseconds budget) {
    if (kept_) {
        if (dirty_ != Dirty::None) repaintKept();
        dirty_ = Dirty::None;
        return true;
    }
    const auto deadline = Clock::now() + budget;
    if (dirty_ == Dirty::Bins || (dirty_ == Dirty::Colours && kind_ == FigureKind::Map)) {
        dirty_ = Dirty::None;
        startPass();
    }
    if (pass_) {
        if (!advancePass(deadline)) return false;
        finishPass();
    }
    // Diagram: another density ramp, or a new densest pixel, changes every pixel's colour.
    if (dirty_ == Dirty::Colours || (kind_ == FigureKind::Diagram && most_ != painted_most_)) {
        dirty_ = Dirty::None;
        painted_most_ = most_;
        std::fill(dirty_rows_.begin(), dirty_rows_.end(), 1);
        any_dirty_row_ = true;
    }
    if (any_dirty_row_ && !paintDirtyRows(deadline)) return false;
    return true;
}

void ResultFigure::startPass() {
    pass_.emplace();
    if (kind_ == FigureKind::Map) {
        pass_->colours.emplace(quantities_.value(quantity_), quantity_ == quantities_.size() - 1);
        const std::size_t n0 = study_->grid.axis_count() > 0 ? study_->grid.values(0).size() : 1;
        const std::size_t n1 = study_->grid.axis_count() > 1 ? study_->grid.values(1).size() : 1;
        pass_->pixels = QSize(static_cast<int>(n0), static_cast<int>(n1));
    } else {
        pass_->range = viewport_;
        pass_->pixels = pixels_;
        const std::size_t size = static_cast<std::size_t>(pixels_.width()) * pixels_.height();
        pass_->up.assign(size, 0);
        pass_->down.assign(study_->is_continuation() ? size : 0, 0);
    }
    // The picture a pass replaced is the next pass's canvas: a 4096^2 image is 64 MiB to allocate.
    if (spare_image_.size() == pass_->pixels)
        pass_->image.swap(spare_image_);
    else
        pass_->image = QImage(pass_->pixels, QImage::Format_ARGB32_Premultiplied);
    dirty_rows_.assign(pass_->pixels.height(), 0);
    any_dirty_row_ = false;
}

bool ResultFigure::advancePass(Clock::time_point deadline) {
    Pass& p = *pass_;
    // Systems between looks at the clock: a diagram's hold ~100 points each.
    const std::size_t step = kind_ == FigureKind::Map ? 4096 : 512;
    while (p.stage == Pass::Stage::Gather) {
        const std::size_t end = std::min(owner_.size(), p.cursor + step);
        if (kind_ == FigureKind::Map) {
            const auto columns = mapColumns();
            for (std::size_t s = p.cursor; s < end; ++s) {
                if (owner_[s] == no_owner) continue;
                const double* c = columns[owner_[s]];
                p.colours->include(c ? c[owner_row_[s]] : double(status_[s]), status_[s]);
            }
        } else if (kept_points_) {
            binKept(p);
            break;
        } else {
            std::vector<std::size_t> systems;
            for (std::size_t s = p.cursor; s < end; ++s)
                if (owner_[s] != no_owner) systems.push_back(s);
            binSystems(systems, p.up, p.down, p.range, p.pixels, p.most, nullptr);
        }
        p.cursor = end;
        if (end == owner_.size()) {
            if (p.colours) p.colours->settle();
            p.stage = Pass::Stage::Paint;
            p.cursor = 0;
        }
        if (Clock::now() >= deadline) return false;
    }
    const int h = p.pixels.height();
    const auto columns = kind_ == FigureKind::Map ? mapColumns() : std::vector<const double*>{};
    while (p.cursor < static_cast<std::size_t>(h)) {
        const int row = static_cast<int>(p.cursor++);
        if (kind_ == FigureKind::Map)
            paintMapRow(p.image, row, *p.colours, columns);
        else
            paintDiagramRow(p.image, row, p.up, p.down, p.most, pointRun(p.range, p.pixels));
        if (Clock::now() >= deadline && p.cursor < static_cast<std::size_t>(h)) return false;
    }
    return true;
}

void ResultFigure::finishPass() {
    Pass& p = *pass_;
    image_.swap(p.image);
    if (kind_ == FigureKind::Map) {
        colours_ = std::move(p.colours);
        key_ = colours_->key();
        image_range_ = fullRange();
    } else {
        up_counts_.swap(p.up);
        down_counts_.swap(p.down);
        most_ = painted_most_ = p.most;
        image_range_ = p.range;
        updateDiagramKey();
    }
    image_pixels_ = p.pixels;
    spare_image_.swap(p.image);
    pass_.reset();
    ++revision_;
}

bool ResultFigure::paintDirtyRows(Clock::time_point deadline) {
    const int h = std::min<int>(image_.height(), static_cast<int>(dirty_rows_.size()));
    const auto columns = kind_ == FigureKind::Map ? mapColumns() : std::vector<const double*>{};
    const Run run = pointRun(image_range_, image_pixels_);
    bool painted = false;
    for (int row = 0; row < h; ++row) {
        if (!dirty_rows_[row]) continue;
        if (painted && Clock::now() >= deadline) break; // at least one row a slice
        dirty_rows_[row] = 0;
        if (kind_ == FigureKind::Map)
            paintMapRow(image_, row, *colours_, columns);
        else
            paintDiagramRow(image_, row, up_counts_, down_counts_, painted_most_, run);
        painted = true;
    }
    ++revision_;
    any_dirty_row_ = std::find(dirty_rows_.begin(), dirty_rows_.end(), 1) != dirty_rows_.end();
    if (any_dirty_row_) return false;
    if (kind_ == FigureKind::Map)
        key_ = colours_->key();
    else
        updateDiagramKey();
    return true;
}

std::array<QRgb, 256> ResultFigure::densityRamp() const {
    const ColorMap magma(ColorMapKind::Magma);
    // A single pass of points: light (orange) where sparse to black where dense, readable on white.
    std::array<QRgb, 256> ramp{};
    for (int i = 0; i < 256; ++i)
        ramp[i] = dark_ ? magma.at(0.3 + 0.7 * i / 255.0) : magma.at(0.72 * (1.0 - i / 255.0));
    return ramp;
}

void ResultFigure::paintDiagramRow(QImage& image, int y, const std::vector<std::uint32_t>& up,
                                   const std::vector<std::uint32_t>& down, std::uint32_t most,
                                   Run run) const {
    const int w = image.width();
    const bool log = scale_ == DensityScale::Log;
    const double norm = log ? std::log1p(double(std::max(most, 1u))) : double(std::max(most, 1u));
    const auto level = [&](std::uint32_t c) { return (log ? std::log1p(double(c)) : double(c)) / norm; };
    const auto ramp = densityRamp();
    const QRgb up_colour = categorical_color(4), down_colour = categorical_color(5);
    const bool two = !down.empty();
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
    const std::size_t row = static_cast<std::size_t>(y) * w;
    // A pixel shows the densest point column whose run covers it (runs never overlap, so at most
    // one column with points does).
    const auto covering = [&](const std::vector<std::uint32_t>& counts, int x) {
        std::uint32_t c = counts[row + x];
        for (int from = std::max(0, x - run.right), to = std::min(w - 1, x + run.left), k = from; k <= to;
             ++k)
            c = std::max(c, counts[row + k]);
        return c;
    };
    for (int x = 0; x < w; ++x) {
        const std::uint32_t u = covering(up, x), d = two ? covering(down, x) : 0;
        if (u + d == 0) {
            line[x] = 0;
        } else if (!two) {
            line[x] = ramp[static_cast<std::size_t>(std::min(255.0, level(u) * 255.0 + 0.5))];
        } else {
            // Up and down sweeps in two hues, mixed by their shares; opacity grows with density.
            const double share = double(u) / double(u + d);
            const double a = 0.45 + 0.55 * std::min(1.0, level(u + d));
            const auto mix = [&](int cu, int cd) {
                return static_cast<int>(a * (cu * share + cd * (1 - share)));
            };
            line[x] =
                qRgba(mix(qRed(up_colour), qRed(down_colour)), mix(qGreen(up_colour), qGreen(down_colour)),
                      mix(qBlue(up_colour), qBlue(down_colour)), static_cast<int>(a * 255));
        }
    }
}

void ResultFigure::updateDiagramKey() {
    const bool log = scale_ == DensityScale::Log;
    key_ = {};
    key_.label = log ? QStringLiteral("points per pixel (log)") : QStringLiteral("points per pixel");
    if (!down_counts_.empty()) {
        key_.categorical = true;
        key_.entries = {{categorical_color(4), QStringLiteral("sweep up")},
                        {categorical_color(5), QStringLiteral("sweep down")}};
        return;
    }
    const auto ramp = densityRamp();
    key_.ramp.assign(ramp.begin(), ramp.end());
    key_.from = 1.0;
    key_.to = std::max<double>(painted_most_, 2.0);
    key_.log = log;
}

std::vector<const double*> ResultFigure::mapColumns() const {
    // Each received result's column of this quantity: a system's value is two loads away (a 4096^2
    // map recolours in tens of milliseconds).
    std::vector<const double*> columns(results_.size(), nullptr);
    if (quantity_ == quantities_.size() - 1) return columns; // status
    for (std::size_t b = 0; b < results_.size(); ++b)
        if (results_[b]) columns[b] = results_[b]->scalars[quantity_].values.data();
    return columns;
}

void ResultFigure::paintMapRow(QImage& image, int j, const MapColouring& colours,
                               const std::vector<const double*>& columns) const {
    const int w = image.width(), h = image.height();
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(h - 1 - j)); // y grows upwards
    const std::uint32_t* source = &cell_source_[static_cast<std::size_t>(j) * w];
    for (int i = 0; i < w; ++i) {
        const std::uint32_t s = source[i];
        if (s == no_owner) {
            line[i] = 0u;
            continue;
        }
        const double* c = columns[owner_[s]];
        line[i] = colours.colour(c ? c[owner_row_[s]] : double(status_[s]), status_[s]);
    }
}

} // namespace bif::plot
