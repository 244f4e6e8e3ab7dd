#include "ui/study/field_marks.h"

#include <QVariant>

namespace bif::ui {

namespace {

constexpr const char* kMarked = "bifscopeProblem";
constexpr const char* kOwnTip = "bifscopeOwnToolTip";

} // namespace

void FieldMarks::add(const std::string& path, QWidget* widget) {
    paths_[path] = widget;
}

QWidget* FieldMarks::widget(const std::string& path) const {
    const auto it = paths_.find(path);
    return it == paths_.end() ? nullptr : it->second.data();
}

bool FieldMarks::mark(const std::string& path, const QString& message) {
    QWidget* w = widget(path);
    if (!w || !w->isEnabled()) return false;
    markWidget(w, message);
    marked_.push_back(w);
    return true;
}

void FieldMarks::markWidget(QWidget* w, const QString& message) {
    if (!isMarked(w)) {
        w->setProperty(kOwnTip, w->toolTip());
        w->setProperty(kMarked, true);
        w->setToolTip(message);
        // Only this widget's own frame: children (a table's cells) keep their look.
        w->setStyleSheet(QString("%1 { border: 2px solid #c62828; }").arg(w->metaObject()->className()));
    } else {
        w->setToolTip(w->toolTip() + "\n" + message);
    }
}

void FieldMarks::unmarkAll() {
    for (const QPointer<QWidget>& w : marked_) {
        if (!w || !isMarked(w)) continue;
        w->setProperty(kMarked, false);
        w->setToolTip(w->property(kOwnTip).toString());
        w->setStyleSheet(QString());
    }
    marked_.clear();
}

bool FieldMarks::isMarked(const QWidget* widget) {
    return widget && widget->property(kMarked).toBool();
}

} // namespace bif::ui
