// Shows a BranchFigure (continuation overlays alone) with the same painter as its exports; hovering a
// branch point describes it (eigenvalues or multipliers, stability) as a tooltip and in hovered().
#pragma once

#include "ui/plot/branch_figure.h"

#include <QWidget>
#include <memory>

namespace bif::ui {

class BranchView : public QWidget {
    Q_OBJECT
  public:
    explicit BranchView(QWidget* parent = nullptr);

    // Shows the figure at its full range.
    void setFigure(std::shared_ptr<plot::BranchFigure> figure);
    plot::BranchFigure* figure() const { return figure_.get(); }
    plot::PlotRange range() const { return range_; }
    void setRange(const plot::PlotRange& range);
    void setStale(bool stale);
    QRectF plotArea() const;
    plot::PaintOptions paintOptions() const;
    // The branch point at `pixel` in words; empty where there is none.
    QString textAt(QPointF pixel) const;

  signals:
    void hovered(const QString& text);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    std::shared_ptr<plot::BranchFigure> figure_;
    plot::PlotRange range_;
    bool stale_ = false;
};

} // namespace bif::ui
