// The list of the model's diagnostics, in text order: one row each with its severity's icon and
// "line:col  message  [code]"; activating a row asks for that place in the editor.
#pragma once

#include "engine/model/diagnostic.h"

#include <QWidget>
#include <vector>

class QLabel;
class QListWidget;
class QListWidgetItem;

namespace bif::ui {

class ProblemsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ProblemsPanel(QWidget* parent = nullptr);

    void setDiagnostics(const std::vector<model::Diagnostic>& diagnostics);
    int errorCount() const { return errors_; }
    int warningCount() const { return warnings_; }
    QListWidget* list() const { return list_; }

    // The row text the panel shows for a diagnostic.
    static QString rowText(const model::Diagnostic& diagnostic);

  signals:
    void locationActivated(int line, int column);

  private:
    void activate(QListWidgetItem* item);

    QLabel* summary_;
    QListWidget* list_;
    int errors_ = 0;
    int warnings_ = 0;
};

} // namespace bif::ui
