// What a result tab shows for the dense analyses, as an image in data space:
//   bifurcation      a point-density image: each pixel counts the section points (x: the system's
//                    swept value, y: the selected recorded quantity) that fall in it;
//   map, basins      one cell per grid point coloured by the selected scalar column (or the status).
// Fed progressively (jobs::ResultBlock, coarse passes first, provisional blocks superseded by the
// same systems later) or with a whole study::Result. The data stay shared with the engine's
// immutable results, so the picture can be rebinned for a new viewport or quantity at any time.
//
// Sparse sweeps: when the sweep has fewer values in view than the image has pixel columns, each
// point is painted as a short horizontal run (up to 3 px, never reaching the next value's column)
// so that it stays visible. count() stays the raw binned count of the pixel's own column; the
// run is only how the image (and describe()) shows it.
//
// Cost model: addBlock only records data (and bins the new points when nothing else changed);
// refreshSlice() brings the image up to date in slices of bounded time, and is what a view calls
// from a coalescing timer, never from paintEvent. Cells and pixels changed by new blocks are
// repainted alone while the colours stay valid; a whole recolour (another quantity, or values
// beyond the painted range) or a rebin (another viewport) is done into a back image across as
// many slices as it takes, while image() keeps the previous picture at its own imageRange().
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/kept_points.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result.h"
#include "ui/plot/color_map.h"
#include "ui/plot/kept_map_picture.h"
#include "ui/plot/map_colouring.h"
#include "ui/plot/plot_range.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace bif::plot {

enum class FigureKind { Diagram, Map };
enum class DensityScale { Log, Linear };

struct LegendEntry {
    QRgb color = 0;
    QString label;
    int number = -1; // the period or attractor it stands for, where it has one
};

// The key beside the image: a continuous ramp with a value range, or categorical entries.
struct ColorKey {
    QString label;
    bool categorical = false;
    std::vector<QRgb> ramp; // bottom (from) to top (to)
    double from = 0.0, to = 1.0;
    bool log = false;
    std::vector<LegendEntry> entries;
    QString numbered; // what the entries' numbers count, plural: "periods", "attractors"
};

// The legend's last line when only `shown` of its entries fit: "… 14 more (periods 19–32)".
QString legend_overflow(const ColorKey& key, std::size_t shown);

// A value as the figure's texts print it: 4 significant digits.
QString figure_number(double v);

class ResultFigure {
  public:
    // `kept_on_device`: a map whose run keeps its cells on a device (JobOptions::keep): the figure
    // holds its sample lattice alone (KeptMapPicture), not a cell per system, and its image is the
    // sample's; until a kept result arrives its blocks fill the lattice.
    explicit ResultFigure(std::shared_ptr<const study::ResolvedStudy> study, bool kept_on_device = false);

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
    // Diagram: a logarithmic y axis. Refused, with the reason returned, for a map or while the shown
    // quantity has a value <= 0; an empty string means done. A quantity switch or new data with a
    // value <= 0 turns it off again (logY() says what is in force).
    QString setLogY(bool log);
    bool logY() const { return log_y_; }
    // Why a log y axis cannot be had now; empty when it can.
    QString logYRefusal() const;

    void addBlock(const jobs::ResultBlock& block);
    void setResult(std::shared_ptr<const study::Result> result);
    std::size_t systemsReceived() const { return received_; }

    // The whole data: the sweep ranges (map: to the outer cell edges), the data range of y (diagram).
    PlotRange fullRange() const;
    // What the image covers and at how many pixels (diagram; a map's image is one pixel per cell).
    // Until set, the full range at 1024 x 640; follows the data range while never set.
    void setViewport(const PlotRange& range, QSize pixels);
    PlotRange viewport() const;

    // Brings the image up to date with at most about `budget` of work (at least one step);
    // returns whether it is. refresh() does all of it at once (export, tests).
    bool refreshSlice(std::chrono::nanoseconds budget);
    void refresh();
    bool needsRefresh() const;
    const QImage& image() const { return image_; }
    PlotRange imageRange() const;
    ColorKey colorKey() const { return key_; }
    std::uint64_t revision() const { return revision_; }

    // Diagram: points binned in pixel (px, py) of the image, py = 0 at the top (both sweeps, or one).
    std::uint32_t count(int px, int py) const;
    std::uint32_t count(int px, int py, bool down) const;
    // Diagram: every received point of the shown quantity as data columns (x: its system's swept
    // value, y: the value), both sweep directions, for renderers that bin on their own (the CUDA
    // path of ui/render); none once the points are kept on a device (keptPoints()).
    void pointColumns(std::vector<double>& x, std::vector<double>& y) const;
    // Changes whenever pointColumns() or the map cells may have (new blocks, another quantity).
    std::uint64_t dataRevision() const { return data_revision_; }
    // Map: the value and status shown in grid cell (i along x, j along y), none before its system
    // arrived; and the colours the image is painted with (null before the first paint). For
    // renderers that colour the cells themselves (ui/render).
    std::optional<std::pair<double, study::SystemStatus>> mapCell(std::size_t i, std::size_t j) const;
    const MapColouring* mapColouring() const { return colours_ ? &*colours_ : nullptr; }
    // A figure made for a kept map (the constructor's kept_on_device), and its picture.
    bool keptOnDevice() const { return kept_.has_value(); }
    const KeptMapPicture* keptPicture() const { return kept_ ? &*kept_ : nullptr; }
    // The kept map once its result came (null before, and for other figures), and its column of the
    // quantity shown (the status view: column 0, whose statuses it shows; none: a column it does not
    // keep).
    const study::KeptMap* keptMap() const { return kept_ ? kept_->kept() : nullptr; }
    std::optional<std::size_t> keptColumn() const;
    // A diagram whose points stay on a device (a result with kept_points): every picture of it is
    // binned there (KeptPoints::density), and pointColumns() is empty; null for other figures.
    std::shared_ptr<const study::KeptPoints> keptPoints() const { return kept_points_; }
    // The scalar column shown, -1 for the status view (maps).
    int scalarShown() const { return quantity_ == quantities_.size() - 1 ? -1 : quantity_; }
    // Grid point of a map cell (i along x, j along y), or the system nearest to x (diagram).
    std::optional<std::size_t> systemAt(double x, double y) const;
    // "k = 0.2513, y1 = 0.874, 12 points", "k = 0.2, b = 0.3, period 3", "k = 0.2, b = 0.3: non_finite".
    QString describe(double x, double y) const;

  private:
    enum class Dirty { None, Colours, Bins };
    // A whole recolour (map) or rebin (diagram) under way into a back image.
    struct Pass {
        enum class Stage { Gather, Paint } stage = Stage::Gather;
        std::size_t cursor = 0; // next system (Gather) or image row (Paint)
        QImage image;
        std::optional<MapColouring> colours;
        PlotRange range;
        QSize pixels;
        std::vector<std::uint32_t> up, down;
        std::uint32_t most = 0;
    };
    using Clock = std::chrono::steady_clock;
    // owner_ and cell_source_ of a system not received yet
    static constexpr std::uint32_t no_owner = std::numeric_limits<std::uint32_t>::max();
    // The columns beside its own that a point's run covers, left and right.
    struct Run {
        int left = 0, right = 0;
    };

    void noteBlock(const std::shared_ptr<const study::Result>& result,
                   const std::vector<std::size_t>& systems, int stride);
    void noteMapBlock(const std::vector<std::size_t>& systems, int stride);
    void repaintKept();
    std::size_t keptStep() const;
    void noteDiagramBlock(const study::Result& result, const std::vector<std::size_t>& systems,
                          bool superseded);
    void binSystems(const std::vector<std::size_t>& systems, std::vector<std::uint32_t>& up,
                    std::vector<std::uint32_t>& down, const PlotRange& range, QSize pixels,
                    std::uint32_t& most, std::vector<char>* rows) const;
    void startPass();
    void binKept(Pass& p) const;
    bool advancePass(Clock::time_point deadline);
    void finishPass();
    bool paintDirtyRows(Clock::time_point deadline);
    std::vector<const double*> mapColumns() const;
    void paintMapRow(QImage& image, int j, const MapColouring& colours,
                     const std::vector<const double*>& columns) const;
    Run pointRun(const PlotRange& range, QSize pixels) const;
    std::uint32_t shownCount(int px, int py, bool down) const;
    void paintDiagramRow(QImage& image, int y, const std::vector<std::uint32_t>& up,
                         const std::vector<std::uint32_t>& down, std::uint32_t most, Run run) const;
    void dropLogYIfRefused();
    std::array<QRgb, 256> densityRamp() const;
    void updateDiagramKey();
    void updateDataRange(const study::Result& result);
    double sweptValue(std::size_t system, std::size_t axis) const;
    std::optional<std::size_t> nearestGridIndex(std::size_t axis, double value) const;
    double mapValue(std::size_t system) const;
    QString describeDiagram(std::size_t system, double x, double y) const;

    std::shared_ptr<const study::ResolvedStudy> study_;
    FigureKind kind_;
    QStringList quantities_;
    int quantity_ = 0;
    DensityScale scale_ = DensityScale::Log;
    bool dark_ = false;
    bool log_y_ = false;

    // Per system: which received result holds it (index into results_) and at which row.
    std::vector<std::shared_ptr<const study::Result>> results_;
    std::vector<std::uint32_t> owner_;
    std::vector<std::size_t> result_users_; // per result: how many systems it holds
    std::vector<std::uint32_t> owner_row_;
    std::vector<study::SystemStatus> status_;
    std::size_t received_ = 0;

    // Diagram: data range of each recorded column; the viewport asked for, and the counts of the
    // picture on show (image_range_, image_pixels_).
    std::vector<std::pair<double, double>> column_range_;
    PlotRange viewport_;
    QSize pixels_{1024, 640};
    bool viewport_set_ = false;
    PlotRange image_range_;
    QSize image_pixels_;
    std::vector<std::uint32_t> up_counts_, down_counts_;
    std::uint32_t most_ = 0, painted_most_ = 0; // densest pixel now, and as painted

    // Map: which system paints each grid cell and at what stride (0: none yet).
    std::vector<std::uint32_t> cell_source_;
    std::vector<std::uint16_t> cell_stride_;
    std::optional<MapColouring> colours_; // what image_ is painted with
    std::optional<KeptMapPicture> kept_;  // a kept map's figure: none of the per-system vectors above
    std::shared_ptr<const study::KeptPoints> kept_points_; // a diagram's points, where they are kept

    Dirty dirty_ = Dirty::Bins;
    std::optional<Pass> pass_;
    std::vector<char> dirty_rows_; // rows of image_ (map: grid rows j) to repaint
    bool any_dirty_row_ = false;
    QImage image_;
    QImage spare_image_;
    ColorKey key_;
    std::uint64_t revision_ = 0;
    std::uint64_t data_revision_ = 0;
};

} // namespace bif::plot
