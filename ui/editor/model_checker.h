// Checks model text as the user types: a quiet spell of ~300 ms after the last change starts a parse on
// the thread pool (the parse of a large model takes longer than a keystroke may), and only the result
// for the newest text is announced; results of older texts that finish later are dropped.
#pragma once

#include "ui/editor/model_metatypes.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace bif::ui {

class ModelChecker : public QObject {
    Q_OBJECT
  public:
    explicit ModelChecker(QObject* parent = nullptr);

    // Restarts the quiet spell for this text; the same text as the last one changes nothing.
    void setText(const QString& text);
    // Starts the check of the current text at once (a file just opened).
    void checkNow();
    void setDelay(int milliseconds) { delay_.setInterval(milliseconds); }
    void setFileName(const QString& name) { fileName_ = name; }

    // True from a change until its result is announced.
    bool isPending() const { return announced_ != generation_; }
    quint64 generation() const { return generation_; }

  signals:
    // The newest text's result; the model is null when the diagnostics hold an error.
    void checked(std::shared_ptr<const bif::model::Model> model,
                 std::vector<bif::model::Diagnostic> diagnostics);

  private:
    void start();

    QTimer delay_;
    QString text_;
    QString fileName_ = QStringLiteral("<model>");
    quint64 generation_ = 0; // counts texts set; a result carries the generation it was started for
    quint64 announced_ = 0;
    bool hasText_ = false;
};

} // namespace bif::ui
