// What a result tab shows, whatever draws it: the dense pictures of ui/views (diagrams, maps,
// basins) or the Qt Charts of ui/charts (Lyapunov curves, trajectories). ResultTab talks to this
// interface only; make_result_view picks the implementation for a study's analysis.
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"
#include "ui/plot/branch_overlay.h"

#include <QImage>
#include <QObject>
#include <QPoint>
#include <QPointF>
#include <memory>
#include <optional>

class QWidget;

namespace bif::plot {
class ResultFigure;
}

namespace bif::ui {

class ResultView : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;

    virtual QWidget* widget() = 0;
    // A run of `study` starts: keep showing the old picture (stretched to the new ranges) until blocks come.
    virtual void begin(std::shared_ptr<const study::ResolvedStudy> study) = 0;
    // begin() for a run whose map stays on a device (JobOptions::keep): views that draw maps hold
    // its sample alone (plot::KeptMapPicture).
    virtual void beginKept(std::shared_ptr<const study::ResolvedStudy> study) { begin(std::move(study)); }
    // Where a map's cells or a diagram's points for this view would best stay: the CUDA device it
    // draws on, -1 for none (host pictures, or not a figure view), none while that is not known yet
    // (nothing drawn).
    virtual std::optional<int> keptMapDevice() const { return -1; }
    virtual void addBlock(const jobs::ResultBlock& block) = 0;
    virtual void setResult(std::shared_ptr<const study::Result> result) = 0;
    virtual void setStale(bool stale) = 0;
    virtual QImage renderImage(QSize size) = 0;
    virtual bool writeSvg(const QString& path, QSize size) = 0;

    virtual bool zoomable() const { return false; }
    virtual void back() {}
    virtual void forward() {}
    virtual void resetView() {}
    virtual plot::ResultFigure* figure() { return nullptr; }
    // How the picture is drawn, for the status bar: PlotView::renderPath() for the dense pictures.
    virtual QString renderPath() const { return QStringLiteral("Qt Charts"); }
    // Continuation overlays over the picture (figure views; charts ignore them) and in its exports.
    virtual void setBranches(std::shared_ptr<const plot::Overlays>) {}

  signals:
    void zoomRequested(const bif::study::Study& zoomed);
    void systemClicked(std::size_t system);
    void hoverText(const QString& text);
    void renderPathChanged(const QString& path);
    // Figure views: a right click at data point `data` (its menu), and "continue from here" (key B).
    void pointMenuRequested(QPointF data, QPoint global);
    void continueRequested(QPointF data);
};

std::unique_ptr<ResultView> make_result_view(std::shared_ptr<const study::ResolvedStudy> study,
                                             QWidget* parent);

} // namespace bif::ui
