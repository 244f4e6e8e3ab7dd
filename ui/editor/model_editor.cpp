#include "ui/editor/model_editor.h"

#include "ui/editor/line_number_gutter.h"
#include "ui/editor/ode_highlighter.h"
#include "ui/editor/text_position.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace bif::ui {

namespace {

constexpr int kGutterPadding = 6;

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

} // namespace

ModelEditor::ModelEditor(QWidget* parent)
    : QPlainTextEdit(parent), gutter_(new LineNumberGutter(this)),
      highlighter_(new OdeHighlighter(document())) {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    setFont(font);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(' '));
    connect(this, &QPlainTextEdit::blockCountChanged, this, &ModelEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &ModelEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &ModelEditor::updateExtraSelections);
    updateGutterWidth();
    applyPalette();
}

void ModelEditor::setDiagnostics(const std::vector<model::Diagnostic>& diagnostics) {
    diagnostics_ = diagnostics;
    diagnosticSelections_.clear();
    underlined_.clear();
    for (std::size_t i = 0; i < diagnostics_.size(); ++i) {
        QTextEdit::ExtraSelection selection = underline(diagnostics_[i]);
        if (selection.cursor.isNull()) continue;
        diagnosticSelections_.append(selection);
        underlined_.push_back(int(i));
    }
    updateExtraSelections();
    gutter_->update();
}

QString ModelEditor::diagnosticTextAt(int position) const {
    QStringList lines;
    for (int i = 0; i < diagnosticSelections_.size(); ++i) {
        const QTextCursor& c = diagnosticSelections_[i].cursor;
        if (position < c.selectionStart() || position >= c.selectionEnd()) continue;
        const model::Diagnostic& d = diagnostics_[underlined_[i]];
        lines << QString::fromStdString(d.message + " [" + d.code + "]");
    }
    return lines.join('\n');
}

void ModelEditor::goTo(int line, int column) {
    setTextCursor(cursorAt(document(), line, column));
    ensureCursorVisible();
    setFocus(Qt::OtherFocusReason);
}

int ModelEditor::gutterWidth() const {
    int digits = 1;
    for (int n = qMax(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    return 2 * kGutterPadding + fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits);
}

void ModelEditor::paintGutter(QPaintEvent* event) {
    QPainter painter(gutter_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setFont(font());
    std::vector<bool> errorLine(std::size_t(blockCount()) + 1, false);
    for (const model::Diagnostic& d : diagnostics_)
        if (d.severity == model::Severity::Error && d.line > 0 && d.line <= blockCount())
            errorLine[std::size_t(d.line)] = true;
    const int current = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int number = block.blockNumber() + 1;
            QColor colour =
                palette().color(block.blockNumber() == current ? QPalette::Text : QPalette::PlaceholderText);
            if (errorLine[std::size_t(number)]) colour = errorColour_;
            painter.setPen(colour);
            painter.drawText(0, top, gutter_->width() - kGutterPadding, fontMetrics().height(),
                             Qt::AlignRight, QString::number(number));
        }
        block = block.next();
        top = bottom;
    }
}

bool ModelEditor::viewportEvent(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QPlainTextEdit::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QTextCursor cursor = cursorForPosition(help->pos());
    // cursorForPosition rounds to the nearest gap between characters; the character under the mouse is
    // the one before that gap when the mouse is left of it.
    int position = cursor.position();
    if (position > 0 && cursorRect(cursor).left() > help->pos().x()) --position;
    const QString text = diagnosticTextAt(position);
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, viewport());
    }
    return true;
}

void ModelEditor::changeEvent(QEvent* event) {
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) applyPalette();
}

void ModelEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    gutter_->setGeometry(r.left(), r.top(), gutterWidth(), r.height());
}

void ModelEditor::applyPalette() {
    const bool dark = isDark(palette());
    highlighter_->setPalette(palette());
    currentLine_ = palette().color(QPalette::Highlight);
    currentLine_.setAlpha(dark ? 70 : 40);
    errorColour_ = QColor(dark ? "#ff6b6b" : "#d32f2f");
    warningColour_ = QColor(dark ? "#ffb74d" : "#c77c00");
    noteColour_ = QColor(dark ? "#79b8ff" : "#1f6feb");
    for (int i = 0; i < diagnosticSelections_.size(); ++i)
        diagnosticSelections_[i].format = underline(diagnostics_[underlined_[i]]).format;
    updateExtraSelections();
    gutter_->update();
}

void ModelEditor::updateGutterWidth() {
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void ModelEditor::updateGutter(const QRect& rect, int dy) {
    if (dy != 0)
        gutter_->scroll(0, dy);
    else
        gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    if (rect.contains(viewport()->rect())) updateGutterWidth();
}

void ModelEditor::updateExtraSelections() {
    QTextEdit::ExtraSelection line;
    line.format.setBackground(currentLine_);
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    line.cursor = textCursor();
    line.cursor.clearSelection();
    setExtraSelections(QList<QTextEdit::ExtraSelection>{line} + diagnosticSelections_);
    gutter_->update();
}

QTextEdit::ExtraSelection ModelEditor::underline(const model::Diagnostic& diagnostic) const {
    QTextEdit::ExtraSelection selection;
    const QTextBlock block = document()->findBlockByNumber(diagnostic.line - 1);
    if (diagnostic.line <= 0 || !block.isValid()) return selection;
    const QString text = block.text();
    int start = 0;
    int length = int(text.size());
    if (diagnostic.column > 0) {
        start = utf8ColumnToIndex(text, diagnostic.column);
        length = tokenLengthAt(text, start);
        // A column just past the line's end (a formula cut short) underlines its last character.
        if (length == 0 && start > 0) {
            --start;
            length = 1;
        }
    }
    if (length == 0) return selection;
    selection.cursor = QTextCursor(block);
    selection.cursor.setPosition(block.position() + start);
    selection.cursor.setPosition(block.position() + start + length, QTextCursor::KeepAnchor);
    const bool note = diagnostic.severity == model::Severity::Note;
    selection.format.setUnderlineStyle(note ? QTextCharFormat::DotLine : QTextCharFormat::WaveUnderline);
    const QColor colour = diagnostic.severity == model::Severity::Error     ? errorColour_
                          : diagnostic.severity == model::Severity::Warning ? warningColour_
                                                                            : noteColour_;
    selection.format.setUnderlineColor(colour);
    // A wave under one character (`+`) is easy to miss; a faint shade of the same colour is not.
    if (!note) {
        QColor shade = colour;
        shade.setAlpha(45);
        selection.format.setBackground(shade);
    }
    return selection;
}

} // namespace bif::ui
