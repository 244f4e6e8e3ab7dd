// The `.ode` text editor: line numbers, the current line shaded, XPPAUT syntax colours, and the
// parser's diagnostics as wavy underlines with their message on hover.
#pragma once

#include "engine/model/diagnostic.h"

#include <QPlainTextEdit>
#include <vector>

namespace bif::ui {

class LineNumberGutter;
class OdeHighlighter;

class ModelEditor : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit ModelEditor(QWidget* parent = nullptr);

    // Underlines each diagnostic at its 1-based line and column: the token starting there (at least one
    // character), the whole line when the column is 0; a line-0 diagnostic (about the file) has none.
    void setDiagnostics(const std::vector<model::Diagnostic>& diagnostics);
    const std::vector<model::Diagnostic>& diagnostics() const { return diagnostics_; }
    // The underlines only, as the editor shows them.
    QList<QTextEdit::ExtraSelection> diagnosticSelections() const { return diagnosticSelections_; }
    // "message [code]" lines of the diagnostics under document position `position`.
    QString diagnosticTextAt(int position) const;

    // Moves the cursor to (line, column), column 0 meaning the line's start, shows it and takes focus.
    void goTo(int line, int column);

    OdeHighlighter* highlighter() const { return highlighter_; }

    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

  protected:
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void applyPalette();
    void updateGutterWidth();
    void updateGutter(const QRect& rect, int dy);
    void updateExtraSelections();
    QTextEdit::ExtraSelection underline(const model::Diagnostic& diagnostic) const;

    LineNumberGutter* gutter_;
    OdeHighlighter* highlighter_;
    std::vector<model::Diagnostic> diagnostics_;
    QList<QTextEdit::ExtraSelection> diagnosticSelections_; // parallel to the underlined diagnostics
    std::vector<int> underlined_;                           // their indices in diagnostics_
    QColor currentLine_;
    QColor errorColour_;
    QColor warningColour_;
    QColor noteColour_;
};

} // namespace bif::ui
