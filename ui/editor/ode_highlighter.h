// Syntax colours for XPPAUT `.ode` text (engine/model/LANGUAGE.md). XPPAUT reads a file line by line,
// so each block is coloured on its own; the block state carries only what crosses lines: a trailing
// `\` (the next line continues a formula) and `done` (everything after it is ignored by the reader,
// so it is shown as ignored text).
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPalette;

namespace bif::ui {

class OdeHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    enum class Role { Comment, Keyword, OptionName, Number, Operator, Derivative, Builtin, Ignored };

    explicit OdeHighlighter(QTextDocument* document);

    // Picks the colours for this palette (dark when its window colour is dark) and recolours.
    void setPalette(const QPalette& palette);
    QTextCharFormat format(Role role) const { return formats_[int(role)]; }

  protected:
    void highlightBlock(const QString& text) override;

  private:
    enum BlockState { Normal = 0, Continued = 1, AfterDone = 2 };

    void colourFormula(const QString& text, int from);
    int colourLeftSide(const QString& text, int start);
    void colourCommand(const QString& text, int start, int wordEnd);
    void colourOptions(const QString& text, int from);
    void set(int start, int count, Role role) { setFormat(start, count, formats_[int(role)]); }

    QTextCharFormat formats_[8];
};

} // namespace bif::ui
