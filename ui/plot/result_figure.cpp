#include "ui/plot/result_figure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bif::plot {

namespace {

constexpr std::uint32_t no_owner = std::numeric_limits<std::uint32_t>::max();

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

bool is_categorical(const QString& name) {
    return name == "period" || name == "label" || name == "status";
}

QString number(double v) {
    return QString::number(v, 'g', 4);
}

} // namespace

ResultFigure::ResultFigure(std::shared_ptr<const study::ResolvedStudy> study)
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
    if (!study_->study.title.empty()) return QString::fromStdString(study_->study.title);
    QStringList names;
    for (const auto& a : study_->study.sweep)
        names << QString::fromStdString(a.name);
    return QString::fromLatin1(study::name_of(study_->study.analysis)) + ": " + names.join(", ");
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
    if (kind_ == FigureKind::Diagram) {
        // Another quantity has another y range: start from its whole range.
        viewport_set_ = false;
        viewport_.y = fullRange().y;
        dirty_ = Dirty::Bins;
    } else {
        dirty_ = std::max(dirty_, Dirty::Colours);
    }
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
    if (!(hi >= lo)) return r.y = {0.0, 1.0, false}, r;
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
}

PlotRange ResultFigure::viewport() const {
    return viewport_;
}

PlotRange ResultFigure::imageRange() const {
    return kind_ == FigureKind::Diagram ? viewport_ : fullRange();
}

void ResultFigure::setResult(std::shared_ptr<const study::Result> result) {
    std::vector<std::size_t> systems(result->system_count);
    for (std::size_t i = 0; i < systems.size(); ++i)
        systems[i] = i;
    noteBlock(result, systems, 1);
}

void ResultFigure::addBlock(const jobs::ResultBlock& block) {
    noteBlock(block.result, block.systems, block.stride);
}

void ResultFigure::noteBlock(const std::shared_ptr<const study::Result>& result,
                             const std::vector<std::size_t>& systems, int stride) {
    const auto index = static_cast<std::uint32_t>(results_.size());
    results_.push_back(result);
    bool superseded = false;
    for (std::size_t row = 0; row < systems.size(); ++row) {
        const std::size_t s = systems[row];
        if (s >= owner_.size()) continue;
        superseded |= owner_[s] != no_owner;
        received_ += owner_[s] == no_owner;
        owner_[s] = index;
        owner_row_[s] = static_cast<std::uint32_t>(row);
        status_[s] = result->status[row];
    }
    // Drop results that no system refers to any more (superseded provisional blocks).
    if (superseded) {
        std::vector<bool> used(results_.size(), false);
        for (auto o : owner_)
            if (o != no_owner) used[o] = true;
        for (std::size_t i = 0; i < results_.size(); ++i)
            if (!used[i]) results_[i].reset();
    }
    if (kind_ == FigureKind::Map) {
        const std::size_t n0 = study_->grid.axis_count() > 0 ? study_->grid.values(0).size() : 1;
        const std::size_t n1 = study_->grid.axis_count() > 1 ? study_->grid.values(1).size() : 1;
        const auto s16 = static_cast<std::uint16_t>(std::clamp(stride, 1, 65535));
        // A system of a stride-s pass stands for the s x s cells from it until finer passes come.
        for (std::size_t s : systems) {
            const std::size_t i0 = s % n0, j0 = (s / n0) % n1;
            for (std::size_t j = j0; j < std::min(n1, j0 + s16); ++j)
                for (std::size_t i = i0; i < std::min(n0, i0 + s16); ++i) {
                    const std::size_t cell = j * n0 + i;
                    if (cell_stride_[cell] == 0 || cell_stride_[cell] >= s16) {
                        cell_stride_[cell] = s16;
                        cell_source_[cell] = static_cast<std::uint32_t>(s);
                    }
                }
        }
        dirty_ = std::max(dirty_, Dirty::Colours);
        return;
    }
    const PlotRange before = fullRange();
    updateDataRange(*result);
    if (!viewport_set_ && !(fullRange() == before)) {
        viewport_.y = fullRange().y;
        dirty_ = Dirty::Bins;
    }
    if (superseded || dirty_ == Dirty::Bins) {
        dirty_ = Dirty::Bins;
        return;
    }
    binSystems(systems);
    dirty_ = std::max(dirty_, Dirty::Colours);
}

void ResultFigure::updateDataRange(const study::Result& result) {
    const auto& p = result.points;
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

void ResultFigure::rebin() {
    const std::size_t size = static_cast<std::size_t>(pixels_.width()) * pixels_.height();
    up_counts_.assign(size, 0);
    down_counts_.assign(study_->is_continuation() ? size : 0, 0);
    std::vector<std::size_t> all;
    all.reserve(received_);
    for (std::size_t s = 0; s < owner_.size(); ++s)
        if (owner_[s] != no_owner) all.push_back(s);
    binSystems(all);
}

void ResultFigure::binSystems(const std::vector<std::size_t>& systems) {
    const int w = pixels_.width(), h = pixels_.height();
    if (up_counts_.size() != static_cast<std::size_t>(w) * h) return; // rebin() follows
    const double x0 = viewport_.x.display_from(), x1 = viewport_.x.display_to();
    const double y0 = viewport_.y.display_from(), y1 = viewport_.y.display_to();
    const double sx = w / (x1 - x0), sy = h / (y1 - y0);
    const std::size_t column = static_cast<std::size_t>(quantity_);
    const std::size_t half = study_->grid.system_count();
    for (std::size_t s : systems) {
        if (owner_[s] == no_owner || !results_[owner_[s]]) continue;
        const double px = (viewport_.x.to_display(sweptValue(s, 0)) - x0) * sx;
        if (!(px >= 0.0 && px < w)) continue;
        const auto& p = results_[owner_[s]]->points;
        if (column >= p.width()) continue;
        auto& counts = study_->is_continuation() && s >= half ? down_counts_ : up_counts_;
        const std::size_t row = owner_row_[s];
        const double* v = &p.values[row * p.rows_per_system * p.width() + column];
        for (std::size_t r = 0; r < p.rows_filled[row]; ++r, v += p.width()) {
            const double py = (y1 - viewport_.y.to_display(*v)) * sy;
            if (!(py >= 0.0 && py < h)) continue;
            ++counts[static_cast<std::size_t>(py) * w + static_cast<std::size_t>(px)];
        }
    }
}

std::uint32_t ResultFigure::count(int px, int py) const {
    if (px < 0 || py < 0 || px >= pixels_.width() || py >= pixels_.height()) return 0;
    const std::size_t i = static_cast<std::size_t>(py) * pixels_.width() + px;
    return (i < up_counts_.size() ? up_counts_[i] : 0) + (i < down_counts_.size() ? down_counts_[i] : 0);
}

void ResultFigure::refresh() {
    if (dirty_ == Dirty::None) return;
    if (kind_ == FigureKind::Diagram) {
        if (dirty_ == Dirty::Bins) rebin();
        colourDiagram();
    } else {
        colourMap();
    }
    dirty_ = Dirty::None;
    ++revision_;
}

void ResultFigure::colourDiagram() {
    const int w = pixels_.width(), h = pixels_.height();
    if (image_.size() != pixels_ || image_.format() != QImage::Format_ARGB32_Premultiplied)
        image_ = QImage(pixels_, QImage::Format_ARGB32_Premultiplied);
    std::uint32_t most = 1;
    for (auto c : up_counts_)
        most = std::max(most, c);
    for (auto c : down_counts_)
        most = std::max(most, c);
    const bool log = scale_ == DensityScale::Log;
    const double norm = log ? std::log1p(static_cast<double>(most)) : static_cast<double>(most);
    const auto level = [&](std::uint32_t c) { return (log ? std::log1p(double(c)) : double(c)) / norm; };
    const ColorMap magma(ColorMapKind::Magma);
    // A single pass of points: light (orange) where sparse to black where dense, readable on white.
    std::array<QRgb, 256> ramp{};
    for (int i = 0; i < 256; ++i)
        ramp[i] = dark_ ? magma.at(0.3 + 0.7 * i / 255.0) : magma.at(0.72 * (1.0 - i / 255.0));
    const QRgb up_colour = categorical_color(4), down_colour = categorical_color(5);
    const bool two = !down_counts_.empty();
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            const std::uint32_t up = up_counts_[i], down = two ? down_counts_[i] : 0;
            if (up + down == 0) {
                line[x] = 0;
            } else if (!two) {
                line[x] = ramp[static_cast<std::size_t>(std::min(255.0, level(up) * 255.0 + 0.5))];
            } else {
                // Up and down sweeps in two hues, mixed by their shares; opacity grows with density.
                const double share = double(up) / double(up + down);
                const double a = 0.45 + 0.55 * level(up + down);
                const auto mix = [&](int u, int d) {
                    return static_cast<int>(a * (u * share + d * (1 - share)));
                };
                line[x] = qRgba(mix(qRed(up_colour), qRed(down_colour)),
                                mix(qGreen(up_colour), qGreen(down_colour)),
                                mix(qBlue(up_colour), qBlue(down_colour)), static_cast<int>(a * 255));
            }
        }
    }
    key_ = {};
    key_.label = log ? QStringLiteral("points per pixel (log)") : QStringLiteral("points per pixel");
    if (two) {
        key_.categorical = true;
        key_.entries = {{up_colour, QStringLiteral("sweep up")}, {down_colour, QStringLiteral("sweep down")}};
        return;
    }
    key_.ramp.assign(ramp.begin(), ramp.end());
    key_.from = 1.0;
    key_.to = std::max<double>(most, 2.0);
    key_.log = log;
}

double ResultFigure::mapValue(std::size_t system) const {
    const auto& r = results_[owner_[system]];
    if (!r) return study::missing_value;
    if (quantity_ >= static_cast<int>(r->scalars.size())) return static_cast<double>(status_[system]);
    return r->scalars[quantity_].values[owner_row_[system]];
}

void ResultFigure::colourMap() {
    const std::size_t n0 = study_->grid.axis_count() > 0 ? study_->grid.values(0).size() : 1;
    const std::size_t n1 = study_->grid.axis_count() > 1 ? study_->grid.values(1).size() : 1;
    const QString name = quantities_.value(quantity_);
    const bool status_view = quantity_ == quantities_.size() - 1;
    const bool categorical = is_categorical(name);
    const bool diverging = name.startsWith("lambda");
    const bool labels = name == "label";
    // Each received result's column of this quantity: a system's value is two loads away (a 4096^2
    // map recolours in tens of milliseconds).
    std::vector<const double*> columns(results_.size(), nullptr);
    for (std::size_t b = 0; b < results_.size(); ++b)
        if (results_[b] && !status_view) columns[b] = results_[b]->scalars[quantity_].values.data();
    const auto value_of = [&](std::size_t s) {
        const double* c = columns[owner_[s]];
        return c ? c[owner_row_[s]] : static_cast<double>(status_[s]);
    };
    // Value range over the systems received that did not fail; the categories present.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    constexpr int most_categories = 1024;
    std::vector<char> present(most_categories + 1, 0); // values -1 .. most_categories - 1
    for (std::size_t s = 0; s < owner_.size(); ++s) {
        if (owner_[s] == no_owner || (study::is_failure(status_[s]) && !status_view)) continue;
        const double v = value_of(s);
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v), hi = std::max(hi, v);
        if (categorical) present[std::clamp<long>(std::lround(v), -1, most_categories - 1) + 1] = 1;
    }
    if (!(hi >= lo)) lo = 0.0, hi = 1.0;
    if (diverging) hi = std::max({std::abs(lo), std::abs(hi), 1e-12}), lo = -hi;
    if (hi == lo) hi = lo + 1.0;
    const ColorMap map(diverging                    ? ColorMapKind::Diverging
                       : name.startsWith("events_") ? ColorMapKind::Magma
                                                    : ColorMapKind::Viridis);
    const auto category_colour = [&](int v) -> QRgb {
        if (status_view) return categorical_color(v);
        if (labels) return v < 0 ? none_found_color : categorical_color(v);
        return v <= 0 ? none_found_color : categorical_color(v - 1);
    };
    const auto colour_of = [&](std::size_t s) -> QRgb {
        if (study::is_failure(status_[s]) && !status_view) return failed_color;
        const double v = value_of(s);
        if (!std::isfinite(v)) return failed_color;
        if (categorical) return category_colour(static_cast<int>(std::lround(v)));
        return map.at((v - lo) / (hi - lo));
    };
    const int w = static_cast<int>(n0), h = static_cast<int>(n1);
    if (image_.width() != w || image_.height() != h)
        image_ = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int j = 0; j < h; ++j) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(h - 1 - j)); // y grows upwards
        for (int i = 0; i < w; ++i) {
            const std::uint32_t s = cell_source_[static_cast<std::size_t>(j) * n0 + i];
            line[i] = s == no_owner ? 0u : colour_of(s);
        }
    }
    key_ = {};
    key_.label = name;
    key_.categorical = categorical;
    if (categorical) {
        for (int v = -1; v < most_categories; ++v) {
            if (!present[v + 1]) continue;
            QString text = status_view ? QString::fromLatin1(study::name_of(study::SystemStatus(v)))
                           : name == "label"
                               ? (v < 0 ? QStringLiteral("none") : QStringLiteral("attractor %1").arg(v))
                           : v <= 0 ? QStringLiteral("none found")
                                    : QStringLiteral("period %1").arg(v);
            key_.entries.push_back({category_colour(v), text});
        }
    } else {
        for (int i = 0; i < 256; ++i)
            key_.ramp.push_back(map.at(i / 255.0));
        key_.from = lo;
        key_.to = hi;
    }
    bool any_failed = false;
    for (std::size_t s = 0; s < owner_.size() && !status_view; ++s)
        any_failed |= owner_[s] != no_owner && study::is_failure(status_[s]);
    if (any_failed) key_.entries.push_back({failed_color, QStringLiteral("failed")});
}

std::optional<std::size_t> ResultFigure::nearestGridIndex(std::size_t axis, double value) const {
    if (axis >= study_->grid.axis_count()) return std::size_t{0};
    const auto& values = study_->grid.values(axis);
    const AxisRange a{0, 1, study_->study.sweep[axis].scale == study::SweepScale::Log};
    const double d = a.to_display(value);
    std::size_t best = 0;
    if (values.size() > 1) {
        const double first = a.to_display(values.front()), last = a.to_display(values.back());
        const double f = (d - first) / (last - first) * (values.size() - 1);
        if (kind_ == FigureKind::Map && (f < -0.5 || f > values.size() - 0.5)) return std::nullopt;
        best = static_cast<std::size_t>(std::clamp(std::lround(f), 0L, long(values.size() - 1)));
    }
    return best;
}

std::optional<std::size_t> ResultFigure::systemAt(double x, double y) const {
    const auto i = nearestGridIndex(0, x);
    if (!i) return std::nullopt;
    if (kind_ == FigureKind::Diagram) return *i;
    const auto j = nearestGridIndex(1, y);
    if (!j) return std::nullopt;
    return *j * study_->grid.values(0).size() + *i;
}

QString ResultFigure::describe(double x, double y) const {
    const auto system = systemAt(x, y);
    if (!system) return {};
    QString text = xLabel() + " = " + number(sweptValue(*system, 0));
    if (kind_ == FigureKind::Diagram) {
        const AxisRange& ax = viewport_.x;
        const AxisRange& ay = viewport_.y;
        const int px = static_cast<int>(std::floor((ax.to_display(x) - ax.display_from()) /
                                                   (ax.display_to() - ax.display_from()) * pixels_.width()));
        const int py = static_cast<int>(std::floor((ay.display_to() - ay.to_display(y)) /
                                                   (ay.display_to() - ay.display_from()) * pixels_.height()));
        if (study::is_failure(status_[*system]))
            return text + ": " + QString::fromLatin1(study::name_of(status_[*system]));
        const std::uint32_t n = count(px, py);
        return text + ", " + yLabel() + " = " + number(y) + ", " + QString::number(n) +
               (n == 1 ? " point" : " points");
    }
    if (study_->grid.axis_count() > 1) text += ", " + yLabel() + " = " + number(sweptValue(*system, 1));
    if (owner_[*system] == no_owner) return text + ": not computed yet";
    if (study::is_failure(status_[*system]))
        return text + ": " + QString::fromLatin1(study::name_of(status_[*system]));
    const QString name = quantities_.value(quantity_);
    const double v = mapValue(*system);
    if (quantity_ == quantities_.size() - 1)
        return text + ": " + QString::fromLatin1(study::name_of(status_[*system]));
    if (name == "period")
        return text + (v > 0 ? QStringLiteral(", period %1").arg(v) : QStringLiteral(", no period found"));
    if (name == "label")
        return text + (v >= 0 ? QStringLiteral(", attractor %1").arg(v) : QStringLiteral(", no attractor"));
    return text + ", " + name + " = " + number(v);
}

} // namespace bif::plot
