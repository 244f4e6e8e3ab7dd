// One continuation study's result in the plot area: its branches, curves or equilibria (a
// BranchFigure in a BranchView) with the choice of the quantity on the y axis, filled when the
// study's job ends, greyed with a note when it was cancelled or failed. Exports PNG, SVG and CSV.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "ui/plot/branch_overlay.h"

#include <QSize>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;

namespace bif::ui {

class BranchView;

class BranchTab : public QWidget {
    Q_OBJECT
  public:
    explicit BranchTab(std::shared_ptr<const study::ResolvedEquilibriumStudy> study,
                       QWidget* parent = nullptr);

    QString title() const;
    std::shared_ptr<const study::ResolvedEquilibriumStudy> study() const { return study_; }
    // The job's overlays; `stale` greys the picture (a cancelled or failed run), `note` says why.
    void setOverlays(std::shared_ptr<const plot::Overlays> overlays, bool stale, const QString& note);
    std::shared_ptr<const plot::Overlays> overlays() const { return overlays_; }
    BranchView& view() { return *view_; }
    QComboBox& quantityBox() { return *quantity_; }

    QString exportPng(const QString& path, QSize size) const;
    QString exportSvg(const QString& path, QSize size) const;
    QString exportCsv(const QString& path) const;

  signals:
    void hoverText(const QString& text);

  private:
    std::shared_ptr<const study::ResolvedEquilibriumStudy> study_;
    std::shared_ptr<const plot::Overlays> overlays_;
    BranchView* view_;
    QComboBox* quantity_;
    QLabel* note_;
};

} // namespace bif::ui
