// What a result tab shows for the dense analyses, as an image in data space:
//   bifurcation      a point-density image: each pixel counts the section points (x: the system's
//                    swept value, y: the selected recorded quantity) that fall in it;
//   map, basins      one cell per grid point coloured by the selected scalar column (or the status).
// Fed progressively (jobs::ResultBlock, coarse passes first, provisional blocks superseded by the
// same systems later) or with a whole study::Result. The data stay shared with the engine's
// immutable results, so the picture can be rebinned for a new viewport or quantity at any time.
//
// Cost model: addBlock only records data (and bins the new points when nothing else changed);
// refresh() brings the image up to date and is what a view calls from a coalescing timer, never
// from paintEvent.
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result.h"
#include "ui/plot/color_map.h"
#include "ui/plot/plot_range.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bif::plot {

enum class FigureKind { Diagram, Map };
enum class DensityScale { Log, Linear };

struct LegendEntry {
    QRgb color = 0;
    QString label;
};

// The key beside the image: a continuous ramp with a value range, or categorical entries.
struct ColorKey {
    QString label;
    bool categorical = false;
    std::vector<QRgb> ramp; // bottom (from) to top (to)
    double from = 0.0, to = 1.0;
    bool log = false;
    std::vector<LegendEntry> entries;
};

class ResultFigure {
  public:
    explicit ResultFigure(std::shared_ptr<const study::ResolvedStudy> study);

    FigureKind kind() const { return kind_; }
    const study::ResolvedStudy& study() const { return *study_; }
    QString title() const;
    QString xLabel() const;
    QString yLabel() const;

    // Diagram: the recorded quantities; map: the scalar columns, then "status".
    QStringList quantities() const { return quantities_; }
    int quantity() const { return quantity_; }
    bool setQuantity(const QString& name);
    void setQuantity(int index);
    void setDensityScale(DensityScale scale);
    DensityScale densityScale() const { return scale_; }
    // Density diagrams run from light (sparse) to dark (dense) on a light background, and the other
    // way round on a dark one.
    void setDarkBackground(bool dark);

    void addBlock(const jobs::ResultBlock& block);
    void setResult(std::shared_ptr<const study::Result> result);
    std::size_t systemsReceived() const { return received_; }

    // The whole data: the sweep ranges (map: to the outer cell edges), the data range of y (diagram).
    PlotRange fullRange() const;
    // What the image covers and at how many pixels (diagram; a map's image is one pixel per cell).
    // Until set, the full range at 1024 x 640; follows the data range while never set.
    void setViewport(const PlotRange& range, QSize pixels);
    PlotRange viewport() const;

    void refresh();
    bool needsRefresh() const { return dirty_ != Dirty::None; }
    const QImage& image() const { return image_; }
    PlotRange imageRange() const;
    ColorKey colorKey() const { return key_; }
    std::uint64_t revision() const { return revision_; }

    // Diagram: points binned in pixel (px, py) of the image, py = 0 at the top.
    std::uint32_t count(int px, int py) const;
    // Grid point of a map cell (i along x, j along y), or the system nearest to x (diagram).
    std::optional<std::size_t> systemAt(double x, double y) const;
    // "k = 0.2513, y1 = 0.874, 12 points", "k = 0.2, b = 0.3, period 3", "k = 0.2, b = 0.3: non_finite".
    QString describe(double x, double y) const;

  private:
    enum class Dirty { None, Colours, Bins };
    void noteBlock(const std::shared_ptr<const study::Result>& result,
                   const std::vector<std::size_t>& systems, int stride);
    void binSystems(const std::vector<std::size_t>& systems);
    void rebin();
    void colourDiagram();
    void colourMap();
    void updateDataRange(const study::Result& result);
    double sweptValue(std::size_t system, std::size_t axis) const;
    std::optional<std::size_t> nearestGridIndex(std::size_t axis, double value) const;
    double mapValue(std::size_t system) const;

    std::shared_ptr<const study::ResolvedStudy> study_;
    FigureKind kind_;
    QStringList quantities_;
    int quantity_ = 0;
    DensityScale scale_ = DensityScale::Log;
    bool dark_ = false;

    // Per system: which received result holds it (index into results_) and at which row.
    std::vector<std::shared_ptr<const study::Result>> results_;
    std::vector<std::uint32_t> owner_;
    std::vector<std::uint32_t> owner_row_;
    std::vector<study::SystemStatus> status_;
    std::size_t received_ = 0;

    // Diagram: data range of each recorded column, and the counts of the current viewport.
    std::vector<std::pair<double, double>> column_range_;
    PlotRange viewport_;
    QSize pixels_{1024, 640};
    bool viewport_set_ = false;
    std::vector<std::uint32_t> up_counts_, down_counts_;

    // Map: which system paints each grid cell and at what stride (0: none yet).
    std::vector<std::uint32_t> cell_source_;
    std::vector<std::uint16_t> cell_stride_;

    Dirty dirty_ = Dirty::Bins;
    QImage image_;
    ColorKey key_;
    std::uint64_t revision_ = 0;
};

} // namespace bif::plot
