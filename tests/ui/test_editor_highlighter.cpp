// The `.ode` syntax colours, read back from the document's layouts, and the (line, column) positions
// the editor maps diagnostics to.
#include "ui/editor/ode_highlighter.h"
#include "ui/editor/text_position.h"

#include <QAbstractTextDocumentLayout>
#include <QPalette>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using Role = ui::OdeHighlighter::Role;

namespace {

// The format the highlighter gave the character at `index` of line `line` (0-based); an empty format
// where it gave none.
QTextCharFormat formatAt(const QTextDocument& document, int line, int index) {
    const QTextBlock block = document.findBlockByNumber(line);
    for (const QTextLayout::FormatRange& range : block.layout()->formats())
        if (index >= range.start && index < range.start + range.length) return range.format;
    return {};
}

QColor colourAt(const QTextDocument& document, int line, int index) {
    const QTextCharFormat f = formatAt(document, line, index);
    return f.hasProperty(QTextFormat::ForegroundBrush) ? f.foreground().color() : QColor();
}

// WCAG 2 contrast ratio between two colours.
double contrast(const QColor& a, const QColor& b) {
    auto luminance = [](const QColor& c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

const char* kModel = "# a comment\n"             // 0
                     "\" displayed comment\n"    // 1
                     "par a=1, b=2.5e-3\n"       // 2
                     "x'=sin(x)+a*y\n"           // 3
                     "dy/dt=-x+heav(b)\n"        // 4
                     "@ total=10, meth=rk4\n"    // 5
                     "aux speed=sqrt(x^2+y^2)\n" // 6
                     "w=sin+1\n"                 // 7: `sin` not called: a plain name
                     "done\n"                    // 8
                     "x'=1\n";                   // 9: after done: ignored

} // namespace

TEST_CASE("each kind of text gets its own colour", "[editor][highlighter][gui]") {
    QTextDocument document;
    ui::OdeHighlighter highlighter(&document);
    document.documentLayout(); // a document reports changes, and so gets highlighted, once it has a layout
    document.setPlainText(kModel);

    const QColor comment = colourAt(document, 0, 0);
    const QColor keyword = colourAt(document, 2, 0);
    REQUIRE(comment.isValid());
    REQUIRE(keyword.isValid());
    CHECK(comment != keyword);
    CHECK(formatAt(document, 0, 0).fontItalic());
    CHECK(formatAt(document, 2, 0).fontWeight() == QFont::Bold);

    // Whole lines of comment, both kinds.
    CHECK(colourAt(document, 0, 10) == comment);
    CHECK(colourAt(document, 1, 0) == comment);
    CHECK(colourAt(document, 1, 18) == comment);

    // `par` and `aux` are keywords; the names they declare are plain.
    CHECK(colourAt(document, 2, 2) == keyword);
    CHECK_FALSE(colourAt(document, 2, 4).isValid()); // a
    CHECK(colourAt(document, 6, 0) == keyword);
    CHECK_FALSE(colourAt(document, 6, 4).isValid()); // speed

    // The number 2.5e-3 is one token: every character has the number colour, which is none of the others.
    const QColor number = colourAt(document, 2, 11);
    for (int i = 11; i < 17; ++i)
        CHECK(colourAt(document, 2, i) == number);
    CHECK(number != keyword);
    CHECK(number != comment);

    // State derivatives, both spellings, and builtins (called) versus plain names.
    const QColor derivative = colourAt(document, 3, 0);
    CHECK(colourAt(document, 3, 1) == derivative); // the prime
    CHECK(colourAt(document, 4, 0) == derivative); // dy/dt
    CHECK(colourAt(document, 4, 4) == derivative);
    const QColor builtin = colourAt(document, 3, 3);
    CHECK(builtin.isValid());
    CHECK(builtin != derivative);
    CHECK(colourAt(document, 4, 9) == builtin);      // heav
    CHECK(colourAt(document, 6, 10) == builtin);     // sqrt
    CHECK_FALSE(colourAt(document, 7, 2).isValid()); // sin without a call
    CHECK_FALSE(colourAt(document, 3, 7).isValid()); // x inside sin(x)
    const QColor op = colourAt(document, 3, 9);      // +
    CHECK(op.isValid());
    CHECK(op != builtin);

    // Option lines: the `@`, option names, numbers.
    CHECK(colourAt(document, 5, 0) == keyword);
    const QColor option = colourAt(document, 5, 2);
    CHECK(option.isValid());
    CHECK(option != keyword);
    CHECK(colourAt(document, 5, 12) == option); // meth
    CHECK(colourAt(document, 5, 8) == number);  // 10

    // `done`, then everything after it is ignored.
    CHECK(colourAt(document, 8, 0) == keyword);
    const QColor ignored = colourAt(document, 9, 0);
    CHECK(ignored.isValid());
    CHECK(ignored != derivative);
    CHECK(colourAt(document, 9, 3) == ignored);
}

TEST_CASE("the colours are readable on a light and on a dark base", "[editor][highlighter][gui]") {
    QTextDocument document;
    ui::OdeHighlighter highlighter(&document);
    document.documentLayout(); // a document reports changes, and so gets highlighted, once it has a layout
    document.setPlainText(kModel);
    const QColor lightKeyword = colourAt(document, 2, 0);

    QPalette dark;
    dark.setColor(QPalette::Window, QColor("#2b2b2b"));
    highlighter.setPalette(dark);
    CHECK(colourAt(document, 2, 0) != lightKeyword); // recoloured at once

    const Role roles[] = {Role::Comment,  Role::Keyword,    Role::OptionName, Role::Number,
                          Role::Operator, Role::Derivative, Role::Builtin};
    for (const Role role : roles) {
        highlighter.setPalette(QPalette(QColor("#efefef"), QColor("#efefef")));
        CHECK(contrast(highlighter.format(role).foreground().color(), Qt::white) >= 4.5);
        highlighter.setPalette(dark);
        CHECK(contrast(highlighter.format(role).foreground().color(), QColor("#1e1e1e")) >= 4.5);
    }
}

TEST_CASE("diagnostic columns count UTF-8 bytes; tokens are names, numbers or one character", "[editor]") {
    const QString line = QString::fromUtf8("# αβ x1 2.5e-3+");
    // Reference: the byte offset of each character in the UTF-8 encoding.
    for (int index = 0; index < line.size(); ++index) {
        const int column = int(line.left(index).toUtf8().size()) + 1;
        CHECK(ui::utf8ColumnToIndex(line, column) == index);
    }
    CHECK(ui::utf8ColumnToIndex(line, 999) == line.size());
    CHECK(ui::tokenLengthAt(line, int(line.indexOf("x1"))) == 2);
    CHECK(ui::tokenLengthAt(line, int(line.indexOf("2.5"))) == 6);
    CHECK(ui::tokenLengthAt(line, int(line.indexOf("+"))) == 1);
    CHECK(ui::tokenLengthAt(line, int(line.size())) == 0);

    QTextDocument document("one\ntwo three\n");
    CHECK(ui::cursorAt(&document, 2, 5).position() == int(QString("one\ntwo ").size()));
    CHECK(ui::cursorAt(&document, 2, 0).position() == 4);
    CHECK(ui::cursorAt(&document, 9, 1).atEnd());
}
