// Which widget of the study panel holds which JSON path of the study ("sweep[0].count",
// "analysis.section.period"), so that a problem the engine reports is shown at its field: a red
// frame, the message as the tooltip.
#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

namespace bif::ui {

class FieldMarks {
  public:
    void add(const std::string& path, QWidget* widget);
    void clearPaths() { paths_.clear(); }

    // Marks the widget that holds `path`; false when none does. Several messages on one widget
    // are all shown.
    bool mark(const std::string& path, const QString& message);
    static void markWidget(QWidget* widget, const QString& message);
    void unmarkAll();

    QWidget* widget(const std::string& path) const;
    static bool isMarked(const QWidget* widget);

  private:
    std::map<std::string, QPointer<QWidget>> paths_;
    std::vector<QPointer<QWidget>> marked_;
};

} // namespace bif::ui
