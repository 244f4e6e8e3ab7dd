// The plot area: one tab per result or phase plane, kept until closed, and a welcome page while
// there is none.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "engine/study/resolved_study.h"

#include <QPointF>
#include <QWidget>
#include <functional>
#include <memory>

class QStackedLayout;
class QTabWidget;

namespace bif::ui {

class BranchTab;
class PhasePlanePanel;
class ResultTab;

class PlotArea : public QWidget {
    Q_OBJECT
  public:
    explicit PlotArea(QWidget* parent = nullptr);

    ResultTab* addResultTab(std::shared_ptr<const study::ResolvedStudy> study);
    ResultTab* currentTab() const;
    // The result tab whose study on show is `study`; null when none is.
    ResultTab* tabShowing(const std::shared_ptr<const study::ResolvedStudy>& study) const;
    // A phase-plane view of a resolved phase_plane study as a tab; null (and `why`) when its model
    // has no phase plane.
    PhasePlanePanel* addPhasePlaneTab(std::shared_ptr<const study::ResolvedStudy> study,
                                      QString* why = nullptr);
    PhasePlanePanel* currentPhasePlane() const;
    // A continuation study's branches as a tab (filled when its job ends).
    BranchTab* addBranchTab(std::shared_ptr<const study::ResolvedEquilibriumStudy> study);
    BranchTab* currentBranchTab() const;
    int tabCount() const;
    QTabWidget& tabs() { return *tabs_; }
    // Asked before a tab closes (its close button): false keeps it (the user cancelled a question).
    void setCloseCheck(std::function<bool(QWidget* page)> check) { close_check_ = std::move(check); }

  signals:
    void zoomRequested(bif::ui::ResultTab* tab, const bif::study::Study& zoomed);
    void systemClicked(std::shared_ptr<const bif::study::ResolvedStudy> study, std::size_t system);
    void hoverText(const QString& text);
    void currentTabChanged(bif::ui::ResultTab* tab);
    void tabRestored(bif::ui::ResultTab* tab); // back on an earlier result: no run wanted for it
    // How the current tab's picture is drawn changed (ResultTab::renderPath()); also on a tab switch.
    void renderPathChanged(const QString& path);
    void openExampleRequested();
    void message(const QString& text, bool is_error); // from a phase plane
    // "Continue from here" on a diagram's point (ResultTab::continueRequested).
    void continueRequested(bif::ui::ResultTab* tab, std::size_t system, QPointF data);
    void overlayStudyRequested(bif::ui::ResultTab* tab);
    void continueBranchRequested(bif::ui::ResultTab* tab, std::size_t index);
    // The same from a continuation study's own tab (BranchTab::continueBranchRequested).
    void continueBranchTabRequested(bif::ui::BranchTab* tab, std::size_t index);

  private:
    void closeTab(int index);
    // Adds `page` as the current tab and shows the tabs (not the welcome page).
    void showTab(QWidget* page, const QString& title, const QString& label = {});

    QStackedLayout* pages_;
    QTabWidget* tabs_;
    std::function<bool(QWidget*)> close_check_;
};

} // namespace bif::ui
