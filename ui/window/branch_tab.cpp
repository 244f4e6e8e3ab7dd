#include "ui/window/branch_tab.h"

#include "ui/plot/branch_csv.h"
#include "ui/plot/branch_figure.h"
#include "ui/plot/save_output.h"
#include "ui/views/branch_view.h"
#include "ui/window/continuation_seed.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QVBoxLayout>

namespace bif::ui {

BranchTab::BranchTab(std::shared_ptr<const study::ResolvedEquilibriumStudy> study, QWidget* parent)
    : QWidget(parent), study_(std::move(study)), overlays_(std::make_shared<const plot::Overlays>()),
      view_(new BranchView(this)), quantity_(new QComboBox(this)), note_(new QLabel(this)) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(quantity_);
    bar->addSpacing(12);
    bar->addWidget(note_, 1);
    note_->setText(tr("continuing…"));
    // A long note is cut at the tab's width (the tooltip has it whole), never widening the window.
    note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);
    connect(view_, &BranchView::hovered, this, &BranchTab::hoverText);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_, &QWidget::customContextMenuRequested, this,
            [this](QPoint at) { showMenu(view_->mapToGlobal(at)); });
    connect(quantity_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!view_->figure() || name.isEmpty()) return;
        view_->figure()->setQuantity(name);
        view_->setRange(view_->figure()->fullRange());
    });
}

QString BranchTab::title() const {
    const auto& s = study_->study;
    if (!s.title.empty()) return QString::fromStdString(s.title);
    return tr("%1 of the model").arg(QString::fromLatin1(study::name_of(s.analysis)));
}

void BranchTab::setOverlays(std::shared_ptr<const plot::Overlays> overlays, bool stale, const QString& note) {
    overlays_ = std::move(overlays);
    auto figure = std::make_shared<plot::BranchFigure>(title(), overlays_);
    // A continued branch added to the tab keeps the quantity the user chose.
    const QString shown = quantity_->currentText();
    if (!shown.isEmpty() && figure->quantities().contains(shown)) figure->setQuantity(shown);
    {
        const QSignalBlocker block(quantity_);
        quantity_->clear();
        quantity_->addItems(figure->quantities());
        quantity_->setCurrentText(figure->quantity());
    }
    view_->setFigure(figure);
    view_->setStale(stale);
    note_->setText(note);
    note_->setToolTip(note);
}

void BranchTab::showMenu(QPoint global) {
    if (overlays_->empty()) return;
    QMenu menu(this);
    menu.setToolTipsVisible(true); // why an action is disabled
    for (std::size_t i = 0; i < overlays_->size(); ++i) {
        QString why;
        QAction* more = menu.addAction(tr("Continue this branch: %1").arg((*overlays_)[i].name), this,
                                       [this, i] { continueBranch(i); });
        more->setEnabled(continuation_from_branch((*overlays_)[i], why).has_value());
        more->setToolTip(why.isEmpty() ? tr("Runs its continuation study again from its last point") : why);
    }
    menu.exec(global);
}

QString BranchTab::exportPng(const QString& path, QSize size) const {
    if (!view_->figure()) return tr("there are no branches yet");
    return plot::export_branch_png(*view_->figure(), view_->range(), size, path);
}

QString BranchTab::exportSvg(const QString& path, QSize size) const {
    if (!view_->figure()) return tr("there are no branches yet");
    return plot::export_branch_svg(*view_->figure(), view_->range(), size, path);
}

QString BranchTab::exportCsv(const QString& path) const {
    return plot::save_output(path, plot::branch_csv(*overlays_));
}

} // namespace bif::ui
