// The strip left of the model editor's text that shows line numbers; the editor paints it, because
// only the editor knows where its blocks lie.
#pragma once

#include <QWidget>

namespace bif::ui {

class ModelEditor;

class LineNumberGutter : public QWidget {
    Q_OBJECT
  public:
    explicit LineNumberGutter(ModelEditor* editor);
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    ModelEditor* editor_;
};

} // namespace bif::ui
