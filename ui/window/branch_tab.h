// One continuation study's result in the plot area: its branches, curves or equilibria (a
// BranchFigure in a BranchView) with the choice of the quantity on the y axis, filled when the
// study's job ends, greyed with a note when it was cancelled or failed. Exports PNG, SVG and CSV. Its
// right-click menu continues a branch that stopped short, as a diagram's does.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "ui/plot/branch_overlay.h"

#include <QPoint>
#include <QSize>
#include <QWidget>
#include <memory>
#include <string>

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
    // The folder the study's relative paths start from (its file's), for the studies its branches
    // continue with.
    void setBaseDirectory(std::string directory) { base_directory_ = std::move(directory); }
    const std::string& baseDirectory() const { return base_directory_; }

    // "Continue this branch" on branch `index` (the menu's action).
    void continueBranch(std::size_t index) { emit continueBranchRequested(this, index); }
    // The right-click menu at `global`: one "Continue this branch" per branch, disabled with the
    // reason as its tooltip where the branch cannot go on.
    void showMenu(QPoint global);

    QString exportPng(const QString& path, QSize size) const;
    QString exportSvg(const QString& path, QSize size) const;
    QString exportCsv(const QString& path) const;

  signals:
    void hoverText(const QString& text);
    void continueBranchRequested(bif::ui::BranchTab* tab, std::size_t index);

  private:
    std::shared_ptr<const study::ResolvedEquilibriumStudy> study_;
    std::shared_ptr<const plot::Overlays> overlays_;
    BranchView* view_;
    QComboBox* quantity_;
    QLabel* note_;
    std::string base_directory_;
};

} // namespace bif::ui
