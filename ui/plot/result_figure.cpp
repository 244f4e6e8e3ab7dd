#include "ui/plot/result_figure.h"

#include "bif/render/binning.h"
#include "ui/plot/figure_title.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace bif::plot {

namespace {

// The column names an analysis produces for this study, from a one-system stand-in (a whole
// allocate_result of a 4096^2 map would cost hundreds of megabytes).
study::Result layout_of(const study::ResolvedStudy& s) {
    study::ResolvedStudy one = s;
    std::vector<std::vector<double>> values;
    for (std::size_t a = 0; a < s.grid.axis_count(); ++a)
        values.push_back({s.grid.values(a).front()});
    one.grid = study::SweepGrid(values);
    one.study.bifurcation.continuation = false;
    return study::allocate_result(one);
}

} // namespace

ResultFigure::ResultFigure(std::shared_ptr<const study::ResolvedStudy> study, bool kept_on_device)
    : study_(std::move(study)),
      kind_(study_->study.analysis == study::AnalysisKind::Bifurcation ? FigureKind::Diagram
                                                                       : FigureKind::Map) {
    const study::Result layout = layout_of(*study_);
    if (kind_ == FigureKind::Diagram) {
        for (const auto& c : layout.points.columns)
            quantities_ << QString::fromStdString(c);
        column_range_.assign(layout.points.columns.size(), {std::numeric_limits<double>::infinity(),
                                                            -std::numeric_limits<double>::infinity()});
    } else {
        for (const auto& c : layout.scalars)
            quantities_ << QString::fromStdString(c.name);
        quantities_ << QStringLiteral("status");
        if (kept_on_device && !study_->is_continuation()) {
            const study::MapShape shape = study::map_shape(*study_);
            kept_.emplace(shape.width, shape.height, quantities_.mid(0, quantities_.size() - 1));
            viewport_ = fullRange();
            return;
        }
        cell_source_.assign(study_->grid.system_count(), no_owner);
        cell_stride_.assign(study_->grid.system_count(), 0);
    }
    const std::size_t n = study_->system_count();
    owner_.assign(n, no_owner);
    owner_row_.assign(n, 0);
    status_.assign(n, study::SystemStatus::NotRun);
    viewport_ = fullRange();
}

QString ResultFigure::title() const {
    return study_title(study_->study);
}

QString ResultFigure::xLabel() const {
    return study_->study.sweep.empty() ? QString() : QString::fromStdString(study_->study.sweep[0].name);
}

QString ResultFigure::yLabel() const {
    if (kind_ == FigureKind::Diagram) return quantities_.value(quantity_);
    return study_->study.sweep.size() > 1 ? QString::fromStdString(study_->study.sweep[1].name) : QString();
}

bool ResultFigure::setQuantity(const QString& name) {
    const int i = quantities_.indexOf(name);
    if (i < 0) return false;
    setQuantity(i);
    return true;
}

void ResultFigure::setQuantity(int index) {
    if (index < 0 || index >= quantities_.size() || index == quantity_) return;
    quantity_ = index;
    ++data_revision_;
    if (kind_ == FigureKind::Diagram) {
        // Another quantity has another y range: start from its whole range.
        dropLogYIfRefused();
        viewport_set_ = false;
        viewport_.y = fullRange().y;
        dirty_ = Dirty::Bins;
    } else {
        dirty_ = std::max(dirty_, Dirty::Colours);
    }
}

QString ResultFigure::logYRefusal() const {
    if (kind_ != FigureKind::Diagram) return QStringLiteral("only a bifurcation diagram has a log y axis");
    if (column_range_.empty()) return QStringLiteral("nothing is recorded");
    const double lo = column_range_[quantity_].first;
    if (lo <= 0.0)
        return QStringLiteral("%1 has values <= 0 (down to %2)")
            .arg(quantities_.value(quantity_), figure_number(lo));
    return {};
}

QString ResultFigure::setLogY(bool log) {
    if (log == log_y_) return {};
    if (log) {
        if (QString why = logYRefusal(); !why.isEmpty()) return why;
    }
    log_y_ = log;
    // Keep the y range the user chose where it fits the new axis, as PlotView does.
    viewport_.y.log = log;
    if (!viewport_set_ || (log && !(viewport_.y.from > 0.0 && viewport_.y.to > 0.0))) {
        viewport_set_ = false;
        viewport_.y = fullRange().y;
    }
    dirty_ = Dirty::Bins;
    return {};
}

void ResultFigure::dropLogYIfRefused() {
    if (!log_y_ || logYRefusal().isEmpty()) return;
    log_y_ = false;
    viewport_set_ = false;
    viewport_.y = fullRange().y;
    dirty_ = Dirty::Bins;
}

void ResultFigure::setDensityScale(DensityScale scale) {
    if (scale == scale_) return;
    scale_ = scale;
    dirty_ = std::max(dirty_, Dirty::Colours);
}

void ResultFigure::setDarkBackground(bool dark) {
    if (dark == dark_) return;
    dark_ = dark;
    if (kind_ == FigureKind::Diagram) dirty_ = std::max(dirty_, Dirty::Colours);
}

double ResultFigure::sweptValue(std::size_t system, std::size_t axis) const {
    return study_->grid.value(study_->grid_point(system), axis);
}

PlotRange ResultFigure::fullRange() const {
    PlotRange r;
    const auto axis_range = [this](std::size_t axis) {
        AxisRange a;
        if (axis >= study_->study.sweep.size()) return a;
        const auto& values = study_->grid.values(axis);
        a.log = study_->study.sweep[axis].scale == study::SweepScale::Log;
        double lo = a.to_display(std::min(values.front(), values.back()));
        double hi = a.to_display(std::max(values.front(), values.back()));
        // Maps reach the outer cell edges; a single value gets a unit-wide cell.
        const double half = values.size() > 1 ? (hi - lo) / (2.0 * (values.size() - 1)) : 0.5;
        if (kind_ == FigureKind::Map || values.size() == 1) lo -= half, hi += half;
        a.from = a.from_display(lo);
        a.to = a.from_display(hi);
        return a;
    };
    r.x = axis_range(0);
    if (kind_ == FigureKind::Map) {
        r.y = axis_range(1);
        return r;
    }
    const auto [lo, hi] = column_range_.empty() ? std::pair{0.0, 1.0} : column_range_[quantity_];
    if (!(hi >= lo)) return r.y = log_y_ ? AxisRange{1.0, 10.0, true} : AxisRange{0.0, 1.0, false}, r;
    if (log_y_ && lo > 0.0) {
        // Padded by the same share as a linear axis, in decades; a constant gets a tenth of one.
        const double dlo = std::log10(lo), dhi = std::log10(hi);
        const double pad = dhi > dlo ? 0.04 * (dhi - dlo) : 0.1;
        r.y = {std::pow(10.0, dlo - pad), std::pow(10.0, dhi + pad), true};
        return r;
    }
    const double pad = hi > lo ? 0.04 * (hi - lo) : std::max(0.5, std::abs(lo) * 0.1);
    r.y = {lo - pad, hi + pad, false};
    return r;
}

void ResultFigure::setViewport(const PlotRange& range, QSize pixels) {
    pixels = pixels.expandedTo(QSize(1, 1)).boundedTo(QSize(8192, 8192));
    viewport_set_ = true;
    if (range == viewport_ && pixels == pixels_) return;
    viewport_ = range;
    pixels_ = pixels;
    if (kind_ == FigureKind::Diagram) dirty_ = Dirty::Bins;
    if (kept_ && kept_->kept() && keptStep() != kept_->step()) dirty_ = std::max(dirty_, Dirty::Colours);
}

PlotRange ResultFigure::viewport() const {
    return viewport_;
}

PlotRange ResultFigure::imageRange() const {
    if (image_.isNull()) return kind_ == FigureKind::Diagram ? viewport_ : fullRange();
    return image_range_;
}

void ResultFigure::setResult(std::shared_ptr<const study::Result> result) {
    if (kept_) {
        if (result->kept) {
            kept_->setKept(result->kept);
            received_ = result->system_count;
        } else {
            // the run could not keep its cells (it says why): its host result fills the lattice
            std::vector<std::size_t> systems(result->status.size());
            std::iota(systems.begin(), systems.end(), std::size_t{0});
            received_ += kept_->addBlock(*result, systems);
        }
        ++data_revision_;
        dirty_ = std::max(dirty_, Dirty::Colours);
        return;
    }
    // a cancelled run that ended before any system: nothing to note
    if (result->status.size() != result->system_count) return;
    if (result->kept_points && kind_ == FigureKind::Diagram) {
        // the points stay where they are: their range from there, every picture binned there
        kept_points_ = result->kept_points;
        for (std::size_t c = 0; c < column_range_.size(); ++c)
            column_range_[c] = kept_points_->range(c).value_or(
                std::pair{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
        dirty_ = Dirty::Bins;
    }
    std::vector<std::size_t> systems(result->system_count);
    for (std::size_t i = 0; i < systems.size(); ++i)
        systems[i] = i;
    noteBlock(result, systems, 1);
}

void ResultFigure::addBlock(const jobs::ResultBlock& block) {
    if (kept_) {
        received_ += kept_->addBlock(*block.result, block.systems);
        ++data_revision_;
        dirty_ = std::max(dirty_, Dirty::Colours);
        return;
    }
    noteBlock(block.result, block.systems, block.stride);
}

std::optional<std::size_t> ResultFigure::keptColumn() const {
    if (!kept_) return std::nullopt;
    return kept_->keptColumn(scalarShown());
}

// As fine a sample as the viewport's pixels show of the cells in view (at least one sample per
// pixel), before any viewport the preview's; within the picture's finest and the preview's step.
std::size_t ResultFigure::keptStep() const {
    if (!viewport_set_) return kept_->previewStep();
    const study::MapShape shape = study::map_shape(*study_);
    const PlotRange full = fullRange();
    const auto in_view = [](std::size_t cells, const AxisRange& view, const AxisRange& whole) {
        const double span = whole.display_to() - whole.display_from();
        const double shown = std::min(view.display_to(), whole.display_to()) -
                             std::max(view.display_from(), whole.display_from());
        return span > 0 && shown > 0 ? double(cells) * std::min(1.0, shown / span) : double(cells);
    };
    const double per_pixel = std::min(in_view(shape.width, viewport_.x, full.x) / pixels_.width(),
                                      in_view(shape.height, viewport_.y, full.y) / pixels_.height());
    return std::clamp(static_cast<std::size_t>(per_pixel), kept_->finestStep(), kept_->previewStep());
}

// The sample's picture at once, resampled first where the view asks for another step.
void ResultFigure::repaintKept() {
    kept_->resample(keptStep(), scalarShown());
    colours_ = kept_->colouring(scalarShown());
    kept_->paint(image_, *colours_, scalarShown());
    key_ = colours_->key();
    image_range_ = fullRange();
    image_pixels_ = image_.size();
    ++revision_;
}

void ResultFigure::noteBlock(const std::shared_ptr<const study::Result>& result,
                             const std::vector<std::size_t>& systems, int stride) {
    ++data_revision_;
    const auto index = static_cast<std::uint32_t>(results_.size());
    results_.push_back(result);
    result_users_.push_back(0);
    bool superseded = false;
    for (std::size_t row = 0; row < systems.size(); ++row) {
        const std::size_t s = systems[row];
        if (s >= owner_.size()) continue;
        if (owner_[s] != no_owner) {
            superseded = true;
            // Drop a result once no system refers to it (a superseded provisional block).
            if (--result_users_[owner_[s]] == 0) results_[owner_[s]].reset();
        }
        received_ += owner_[s] == no_owner;
        owner_[s] = index;
        ++result_users_[index];
        owner_row_[s] = static_cast<std::uint32_t>(row);
        status_[s] = result->status[row];
    }
    if (kind_ == FigureKind::Map)
        noteMapBlock(systems, stride);
    else
        noteDiagramBlock(*result, systems, superseded);
}

void ResultFigure::noteMapBlock(const std::vector<std::size_t>& systems, int stride) {
    const std::size_t n0 = study_->grid.axis_count() > 0 ? study_->grid.values(0).size() : 1;
    const std::size_t n1 = study_->grid.axis_count() > 1 ? study_->grid.values(1).size() : 1;
    const auto s16 = static_cast<std::uint16_t>(std::clamp(stride, 1, 65535));
    bool recolour = false;
    for (std::size_t s : systems) {
        if (s >= owner_.size()) continue;
        // Colours stay valid while the new values fall inside the range they were painted with.
        const double v = mapValue(s);
        const bool front_invalid = !colours_ || colours_->include(v, status_[s]);
        const bool pass_invalid = pass_ && pass_->colours->include(v, status_[s]);
        recolour |= pass_ ? pass_invalid : front_invalid;
        // A system of a stride-s pass stands for the s x s cells from it until finer passes come.
        const std::size_t i0 = s % n0, j0 = (s / n0) % n1;
        for (std::size_t j = j0; j < std::min(n1, j0 + s16); ++j) {
            bool row_changed = false;
            for (std::size_t i = i0; i < std::min(n0, i0 + s16); ++i) {
                const std::size_t cell = j * n0 + i;
                if (cell_stride_[cell] == 0 || cell_stride_[cell] >= s16) {
                    cell_stride_[cell] = s16;
                    cell_source_[cell] = static_cast<std::uint32_t>(s);
                    row_changed = true;
                }
            }
            if (row_changed && j < dirty_rows_.size()) dirty_rows_[j] = 1, any_dirty_row_ = true;
        }
    }
    if (recolour) dirty_ = std::max(dirty_, Dirty::Colours);
}

void ResultFigure::noteDiagramBlock(const study::Result& result, const std::vector<std::size_t>& systems,
                                    bool superseded) {
    const PlotRange before = fullRange();
    updateDataRange(result);
    dropLogYIfRefused();
    if (!viewport_set_ && !(fullRange() == before)) {
        viewport_.y = fullRange().y;
        dirty_ = Dirty::Bins;
    }
    if (superseded) dirty_ = Dirty::Bins;
    if (dirty_ == Dirty::Bins) return;
    if (!pass_) {
        binSystems(systems, up_counts_, down_counts_, image_range_, image_pixels_, most_, &dirty_rows_);
        return;
    }
    // A rebin under way takes the systems it has passed; the rest it meets in turn.
    std::vector<std::size_t> passed;
    for (std::size_t s : systems)
        if (pass_->stage == Pass::Stage::Paint || s < pass_->cursor) passed.push_back(s);
    binSystems(passed, pass_->up, pass_->down, pass_->range, pass_->pixels, pass_->most,
               pass_->stage == Pass::Stage::Paint ? &dirty_rows_ : nullptr);
}

void ResultFigure::updateDataRange(const study::Result& result) {
    const auto& p = result.points;
    if (p.rows_filled.size() < result.system_count) return; // kept points: their range came with them
    for (std::size_t row = 0; row < result.system_count; ++row)
        for (std::size_t r = 0; r < p.rows_filled[row]; ++r)
            for (std::size_t c = 0; c < column_range_.size() && c < p.width(); ++c) {
                const double v = p.value(row, r, c);
                if (!std::isfinite(v)) continue;
                auto& [lo, hi] = column_range_[c];
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
}

void ResultFigure::binSystems(const std::vector<std::size_t>& systems, std::vector<std::uint32_t>& up,
                              std::vector<std::uint32_t>& down, const PlotRange& range, QSize pixels,
                              std::uint32_t& most, std::vector<char>* rows) const {
    const int w = pixels.width(), h = pixels.height();
    if (up.size() != static_cast<std::size_t>(w) * h) return;
    // The rule the CUDA path bins with too (kernels/bif/render/binning.h).
    const render::DensityBinning bins = render::make_density_binning(
        range.x.from, range.x.to, range.x.log, range.y.from, range.y.to, range.y.log, w, h);
    const std::size_t column = static_cast<std::size_t>(quantity_);
    for (std::size_t s : systems) {
        if (owner_[s] == no_owner || !results_[owner_[s]]) continue;
        const double px = render::density_column(bins, sweptValue(s, 0));
        if (!(px >= 0.0 && px < w)) continue;
        const auto& p = results_[owner_[s]]->points;
        if (column >= p.width() || p.rows_filled.empty()) continue;
        auto& counts = study_->is_continuation() && study_->runs_down(s) ? down : up;
        const std::size_t row = owner_row_[s];
        const double* v = &p.values[row * p.rows_per_system * p.width() + column];
        for (std::size_t r = 0; r < p.rows_filled[row]; ++r, v += p.width()) {
            const double py = render::density_row(bins, *v);
            if (!(py >= 0.0 && py < h)) continue;
            const std::size_t i = static_cast<std::size_t>(py) * w + static_cast<std::size_t>(px);
            most = std::max(most, ++counts[i]);
            if (rows) (*rows)[static_cast<std::size_t>(py)] = 1;
        }
    }
}

void ResultFigure::pointColumns(std::vector<double>& x, std::vector<double>& y) const {
    x.clear();
    y.clear();
    if (kind_ != FigureKind::Diagram || kept_points_) return;
    const std::size_t column = static_cast<std::size_t>(quantity_);
    for (std::size_t s = 0; s < owner_.size(); ++s) {
        if (owner_[s] == no_owner || !results_[owner_[s]]) continue;
        const auto& p = results_[owner_[s]]->points;
        if (column >= p.width() || p.rows_filled.empty()) continue;
        const double swept = sweptValue(s, 0);
        const double* v = &p.values[owner_row_[s] * p.rows_per_system * p.width() + column];
        for (std::size_t r = 0; r < p.rows_filled[owner_row_[s]]; ++r, v += p.width()) {
            x.push_back(swept);
            y.push_back(*v);
        }
    }
}

std::optional<std::pair<double, study::SystemStatus>> ResultFigure::mapCell(std::size_t i,
                                                                            std::size_t j) const {
    if (kept_) return kept_->cell(i, j, scalarShown());
    const std::size_t width = study_->grid.axis_count() > 0 ? study_->grid.values(0).size() : 1;
    const std::size_t k = j * width + i;
    if (kind_ != FigureKind::Map || i >= width || k >= cell_source_.size() || cell_source_[k] == no_owner)
        return std::nullopt;
    const std::uint32_t s = cell_source_[k];
    return std::pair{mapValue(s), status_[s]};
}

std::uint32_t ResultFigure::count(int px, int py) const {
    return count(px, py, false) + count(px, py, true);
}

std::uint32_t ResultFigure::count(int px, int py, bool down) const {
    if (px < 0 || py < 0 || px >= image_pixels_.width() || py >= image_pixels_.height()) return 0;
    const std::size_t i = static_cast<std::size_t>(py) * image_pixels_.width() + px;
    const auto& counts = down ? down_counts_ : up_counts_;
    return i < counts.size() ? counts[i] : 0;
}

ResultFigure::Run ResultFigure::pointRun(const PlotRange& range, QSize pixels) const {
    if (kind_ != FigureKind::Diagram || study_->grid.axis_count() == 0) return {};
    const auto& values = study_->grid.values(0);
    const double span = std::abs(range.x.display_to() - range.x.display_from());
    if (!(span > 0.0)) return {};
    double spacing = 3.0; // one value: as wide as a run gets
    if (values.size() > 1) {
        const double first = range.x.to_display(values.front()), last = range.x.to_display(values.back());
        spacing = std::abs(last - first) / double(values.size() - 1) / span * pixels.width();
    }
    // Neighbouring values' columns are at least floor(spacing) apart, so runs of that width (centred
    // when 3 wide) never meet.
    const int width = std::clamp(static_cast<int>(std::floor(spacing)), 1, 3);
    return width == 3 ? Run{1, 1} : width == 2 ? Run{0, 1} : Run{};
}

std::uint32_t ResultFigure::shownCount(int px, int py, bool down) const {
    const Run run = pointRun(image_range_, image_pixels_);
    std::uint32_t most = 0;
    for (int c = px - run.right; c <= px + run.left; ++c)
        most = std::max(most, count(c, py, down));
    return most;
}

double ResultFigure::mapValue(std::size_t system) const {
    const auto& r = results_[owner_[system]];
    if (!r) return study::missing_value;
    if (quantity_ >= static_cast<int>(r->scalars.size())) return static_cast<double>(status_[system]);
    return r->scalars[quantity_].values[owner_row_[system]];
}

} // namespace bif::plot
