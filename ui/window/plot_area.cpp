#include "ui/window/plot_area.h"

#include "ui/phase/phase_plane_panel.h"
#include "ui/window/branch_tab.h"
#include "ui/window/result_tab.h"

#include <QLabel>
#include <QPushButton>
#include <QStackedLayout>
#include <QTabWidget>
#include <QVBoxLayout>

namespace bif::ui {

namespace {

QWidget* welcome_page(PlotArea* area) {
    auto* page = new QWidget(area);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(2);
    auto* text =
        new QLabel(QObject::tr("<h2>Bifscope</h2>"
                               "<p>Type a model on the left (or open one), set up a study on the right,<br>"
                               "then press <b>Run</b> (Ctrl+R). Results appear here, one tab each.</p>"
                               "<p>Wheel: zoom · drag: pan · Shift+drag: zoom to a box · "
                               "Alt+Left/Right: zoom history · click: inspect a trajectory</p>"),
                   page);
    text->setAlignment(Qt::AlignCenter);
    text->setTextFormat(Qt::RichText);
    layout->addWidget(text);
    auto* open = new QPushButton(QObject::tr("Open an example…"), page);
    open->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    layout->addWidget(open, 0, Qt::AlignHCenter);
    layout->addStretch(3);
    QObject::connect(open, &QPushButton::clicked, area, &PlotArea::openExampleRequested);
    return page;
}

} // namespace

PlotArea::PlotArea(QWidget* parent)
    : QWidget(parent), pages_(new QStackedLayout(this)), tabs_(new QTabWidget(this)) {
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->setDocumentMode(true);
    pages_->addWidget(welcome_page(this));
    pages_->addWidget(tabs_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &PlotArea::closeTab);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        ResultTab* tab = currentTab();
        emit currentTabChanged(tab);
        emit renderPathChanged(tab ? tab->renderPath() : QString());
    });
}

ResultTab* PlotArea::addResultTab(std::shared_ptr<const study::ResolvedStudy> study) {
    auto* tab = new ResultTab(std::move(study), tabs_);
    connect(tab, &ResultTab::zoomRequested, this,
            [this, tab](const study::Study& zoomed) { emit zoomRequested(tab, zoomed); });
    connect(tab, &ResultTab::systemClicked, this, &PlotArea::systemClicked);
    connect(tab, &ResultTab::hoverText, this, &PlotArea::hoverText);
    connect(tab, &ResultTab::restored, this, [this, tab] { emit tabRestored(tab); });
    connect(tab, &ResultTab::continueRequested, this, &PlotArea::continueRequested);
    connect(tab, &ResultTab::overlayStudyRequested, this, &PlotArea::overlayStudyRequested);
    connect(tab, &ResultTab::continueBranchRequested, this, &PlotArea::continueBranchRequested);
    connect(tab, &ResultTab::renderPathChanged, this, [this, tab](const QString& path) {
        if (tab == currentTab()) emit renderPathChanged(path);
    });
    showTab(tab, tab->title());
    return tab;
}

PhasePlanePanel* PlotArea::addPhasePlaneTab(std::shared_ptr<const study::ResolvedStudy> study, QString* why) {
    auto* panel = new PhasePlanePanel(tabs_);
    if (!panel->setStudy(std::move(study), why)) {
        delete panel;
        return nullptr;
    }
    connect(panel, &PhasePlanePanel::hoverText, this, &PlotArea::hoverText);
    connect(panel, &PhasePlanePanel::message, this, &PlotArea::message);
    showTab(panel, panel->title(), tr("Phase plane"));
    return panel;
}

BranchTab* PlotArea::addBranchTab(std::shared_ptr<const study::ResolvedEquilibriumStudy> study) {
    auto* tab = new BranchTab(std::move(study), tabs_);
    connect(tab, &BranchTab::hoverText, this, &PlotArea::hoverText);
    connect(tab, &BranchTab::continueBranchRequested, this, &PlotArea::continueBranchTabRequested);
    showTab(tab, tab->title());
    return tab;
}

// The tab reads `label`, or the title (past 40 characters, its first 38 and an ellipsis); its
// tooltip is the whole title.
void PlotArea::showTab(QWidget* page, const QString& title, const QString& label) {
    QString text = label.isEmpty() ? title : label;
    if (text.size() > 40) text = text.left(38) + "…";
    const int index = tabs_->addTab(page, text);
    tabs_->setTabToolTip(index, title);
    tabs_->setCurrentIndex(index);
    pages_->setCurrentWidget(tabs_);
}

BranchTab* PlotArea::currentBranchTab() const {
    return qobject_cast<BranchTab*>(tabs_->currentWidget());
}

PhasePlanePanel* PlotArea::currentPhasePlane() const {
    return qobject_cast<PhasePlanePanel*>(tabs_->currentWidget());
}

ResultTab* PlotArea::currentTab() const {
    return qobject_cast<ResultTab*>(tabs_->currentWidget());
}

ResultTab* PlotArea::tabShowing(const std::shared_ptr<const study::ResolvedStudy>& study) const {
    for (int i = 0; i < tabs_->count(); ++i)
        if (auto* tab = qobject_cast<ResultTab*>(tabs_->widget(i)); tab && tab->study() == study) return tab;
    return nullptr;
}

int PlotArea::tabCount() const {
    return tabs_->count();
}

void PlotArea::closeTab(int index) {
    QWidget* tab = tabs_->widget(index);
    if (!tab || (close_check_ && !close_check_(tab))) return;
    tabs_->removeTab(tabs_->indexOf(tab)); // the question may have let other tabs close
    tab->deleteLater();
    if (tabs_->count() == 0) pages_->setCurrentIndex(0);
}

} // namespace bif::ui
