// The messages panel: what runs did and said (backend choices, notes, warnings, failures, counts of
// failed systems), newest last, each with its time.
#pragma once

#include <QPlainTextEdit>

namespace bif::ui {

class MessagesPanel : public QPlainTextEdit {
    Q_OBJECT
  public:
    enum class Level { Info, Warning, Error };
    explicit MessagesPanel(QWidget* parent = nullptr);

    void add(Level level, const QString& text);
    int count(Level level) const { return counts_[int(level)]; }

  private:
    int counts_[3] = {0, 0, 0};
};

} // namespace bif::ui
