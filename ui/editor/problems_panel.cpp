#include "ui/editor/problems_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

namespace bif::ui {

namespace {

constexpr int kLineRole = Qt::UserRole;
constexpr int kColumnRole = Qt::UserRole + 1;

QStyle::StandardPixmap iconFor(model::Severity severity) {
    switch (severity) {
    case model::Severity::Error:
        return QStyle::SP_MessageBoxCritical;
    case model::Severity::Warning:
        return QStyle::SP_MessageBoxWarning;
    case model::Severity::Note:
        break;
    }
    return QStyle::SP_MessageBoxInformation;
}

QString countText(int n, const char* one, const char* many) {
    return QString("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), list_(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(summary_);
    layout->addWidget(list_);
    summary_->setContentsMargins(4, 2, 4, 0);
    list_->setUniformItemSizes(true);
    list_->setWordWrap(false);
    connect(list_, &QListWidget::itemClicked, this, &ProblemsPanel::activate);
    connect(list_, &QListWidget::itemActivated, this, &ProblemsPanel::activate);
    setDiagnostics({});
}

QString ProblemsPanel::rowText(const model::Diagnostic& d) {
    const QString where = d.line > 0 ? QString("%1:%2  ").arg(d.line).arg(d.column) : QString();
    return where + QString::fromStdString(d.message) + "  [" + QString::fromStdString(d.code) + "]";
}

void ProblemsPanel::setDiagnostics(const std::vector<model::Diagnostic>& diagnostics) {
    std::vector<const model::Diagnostic*> sorted;
    for (const model::Diagnostic& d : diagnostics)
        sorted.push_back(&d);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
        return std::pair(a->line, a->column) < std::pair(b->line, b->column);
    });
    list_->clear();
    errors_ = warnings_ = 0;
    for (const model::Diagnostic* d : sorted) {
        auto* item = new QListWidgetItem(style()->standardIcon(iconFor(d->severity)), rowText(*d), list_);
        item->setData(kLineRole, d->line);
        item->setData(kColumnRole, d->column);
        item->setToolTip(QString::fromStdString(d->format()));
        errors_ += d->severity == model::Severity::Error;
        warnings_ += d->severity == model::Severity::Warning;
    }
    if (sorted.empty()) {
        auto* item = new QListWidgetItem(tr("No problems"), list_);
        item->setFlags(Qt::NoItemFlags);
    }
    summary_->setText(
        tr("Problems: %1, %2")
            .arg(countText(errors_, "error", "errors"), countText(warnings_, "warning", "warnings")));
}

void ProblemsPanel::activate(QListWidgetItem* item) {
    if (!item || !item->data(kLineRole).isValid()) return;
    const int line = item->data(kLineRole).toInt();
    if (line > 0) emit locationActivated(line, item->data(kColumnRole).toInt());
}

} // namespace bif::ui
