#include "ui/editor/line_number_gutter.h"

#include "ui/editor/model_editor.h"

namespace bif::ui {

LineNumberGutter::LineNumberGutter(ModelEditor* editor) : QWidget(editor), editor_(editor) {}

QSize LineNumberGutter::sizeHint() const {
    return QSize(editor_->gutterWidth(), 0);
}

void LineNumberGutter::paintEvent(QPaintEvent* event) {
    editor_->paintGutter(event);
}

} // namespace bif::ui
