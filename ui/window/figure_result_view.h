// Diagrams, maps and basins: a ResultFigure in a PlotView, with the quantity and colour-scale
// choosers above it. A zoom's new figure replaces the old one only when its first block arrives,
// so the stretched old picture stays on screen until there is something new to show.
#pragma once

#include "ui/window/result_view.h"

class QCheckBox;
class QComboBox;

namespace bif::ui {

class PlotView;

class FigureResultView : public ResultView {
    Q_OBJECT
  public:
    FigureResultView(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent);

    QWidget* widget() override { return container_; }
    void begin(std::shared_ptr<const study::ResolvedStudy> study) override;
    void beginKept(std::shared_ptr<const study::ResolvedStudy> study) override;
    std::optional<int> keptMapDevice() const override;
    void addBlock(const jobs::ResultBlock& block) override;
    void setResult(std::shared_ptr<const study::Result> result) override;
    void setStale(bool stale) override;
    QImage renderImage(QSize size) override;
    bool writeSvg(const QString& path, QSize size) override;

    bool zoomable() const override { return true; }
    void back() override;
    void forward() override;
    void resetView() override;
    plot::ResultFigure* figure() override { return figure_.get(); }
    PlotView& plotView() { return *view_; }
    QString renderPath() const override;
    void setBranches(std::shared_ptr<const plot::Overlays> branches) override;

  private:
    std::shared_ptr<plot::ResultFigure> makeFigure(std::shared_ptr<const study::ResolvedStudy> study,
                                                   bool kept = false) const;
    void show(std::shared_ptr<plot::ResultFigure> figure);
    void keepPictureAsBackdrop();
    void fillQuantities();
    void syncLogY();

    QWidget* container_;
    PlotView* view_;
    QComboBox* quantity_;
    QComboBox* scale_;
    QCheckBox* log_y_;
    std::shared_ptr<const study::ResolvedStudy> study_;
    std::shared_ptr<plot::ResultFigure> figure_;  // on screen
    std::shared_ptr<plot::ResultFigure> pending_; // the run's, until its first block
    bool shown_once_ = false;
};

} // namespace bif::ui
