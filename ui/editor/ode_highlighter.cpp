#include "ui/editor/ode_highlighter.h"

#include "engine/model/builtins.h"
#include "ui/editor/text_position.h"

#include <QPalette>
#include <QRegularExpression>
#include <QSet>

namespace bif::ui {

namespace {

// The statement heads of LANGUAGE.md and XPPAUT.md, including those Bifscope refuses (they are still
// the language's words, and the refusal is a diagnostic, not a colour).
const QSet<QString>& commandWords() {
    static const QSet<QString> words = {
        "par",    "param", "params",  "parameter", "parameters", "p",        "init",  "i",
        "aux",    "a",     "number",  "n",         "global",     "g",        "table", "set",
        "wiener", "bdry",  "b",       "markov",    "special",    "volterra", "solv",  "export",
        "vector", "group", "options", "o",         "done",
    };
    return words;
}

bool isOperator(QChar c) {
    return QStringLiteral("+-*/^<>=&|!").contains(c);
}

bool isNameStart(QChar c) {
    return c.isLetter() || c == '_';
}

int skipBlanks(const QString& text, int i) {
    while (i < text.size() && text[i].isSpace())
        ++i;
    return i;
}

// The left side of `=` that makes a line a formula rather than a command: x'  x[1..3]'  dx/dt  w
// f(a,b)  x(0)  x(t+1)  0 (a DAE, refused later but still a formula).
bool isFormulaLeftSide(const QString& left) {
    static const QRegularExpression form(
        R"(^\s*(0|[A-Za-z_][\w\[\].+\-*/]*\s*'|d[A-Za-z_][\w\[\].]*\s*/\s*dt|[A-Za-z_][\w\[\].]*\s*(\(.*\))?)\s*$)");
    return form.match(left).hasMatch();
}

struct Palette {
    const char* comment;
    const char* keyword;
    const char* option;
    const char* number;
    const char* op;
    const char* derivative;
    const char* builtin;
    const char* ignored;
};

// Chosen for contrast on the palette's base colour: on white the light set's darkest hues, on a dark
// base the dark set's light ones (each at least 4.5:1 against #1e1e1e / #ffffff).
constexpr Palette kLight = {"#5f6b76", "#0b4fa8", "#7a3e9d", "#a14f00",
                            "#8a2252", "#00705f", "#6f42c1", "#8b949e"};
constexpr Palette kDark = {"#8b949e", "#6cb6ff", "#d2a8ff", "#f0a35e",
                           "#f47fb8", "#4fd1b5", "#c49bff", "#6e7681"};

} // namespace

OdeHighlighter::OdeHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    setPalette(QPalette());
}

void OdeHighlighter::setPalette(const QPalette& palette) {
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    const Palette& p = dark ? kDark : kLight;
    const char* colours[] = {p.comment, p.keyword,    p.option,  p.number,
                             p.op,      p.derivative, p.builtin, p.ignored};
    for (int i = 0; i < 8; ++i) {
        formats_[i] = QTextCharFormat();
        formats_[i].setForeground(QColor(colours[i]));
    }
    formats_[int(Role::Comment)].setFontItalic(true);
    formats_[int(Role::Ignored)].setFontItalic(true);
    formats_[int(Role::Keyword)].setFontWeight(QFont::Bold);
    formats_[int(Role::Derivative)].setFontWeight(QFont::Bold);
    rehighlight();
}

void OdeHighlighter::highlightBlock(const QString& text) {
    const int previous = previousBlockState() < 0 ? Normal : previousBlockState();
    if (previous == AfterDone) {
        set(0, int(text.size()), Role::Ignored);
        setCurrentBlockState(AfterDone);
        return;
    }
    setCurrentBlockState(text.trimmed().endsWith('\\') ? Continued : Normal);
    if (previous == Continued) {
        colourFormula(text, 0);
        return;
    }
    const int start = skipBlanks(text, 0);
    if (start == text.size()) return;
    const QChar first = text[start];
    if (first == '#' || first == '"') {
        set(start, int(text.size()) - start, Role::Comment);
        setCurrentBlockState(Normal);
    } else if (first == '@') {
        set(start, 1, Role::Keyword);
        colourOptions(text, start + 1);
    } else if (first == '!') {
        set(start, 1, Role::Keyword);
        colourFormula(text, start + 1);
    } else if (const int eq = int(text.indexOf('=', start));
               eq >= 0 && isFormulaLeftSide(text.mid(start, eq - start))) {
        colourFormula(text, colourLeftSide(text, start));
    } else {
        int wordEnd = start;
        while (wordEnd < text.size() && text[wordEnd].isLetter())
            ++wordEnd;
        colourCommand(text, start, wordEnd);
    }
}

int OdeHighlighter::colourLeftSide(const QString& text, int start) {
    static const QRegularExpression derivative(
        R"(\G\s*([A-Za-z_][\w\[\].+\-*/]*\s*'|d[A-Za-z_][\w\[\].]*\s*/\s*dt|[A-Za-z_]\w*\s*\(\s*t\s*\+\s*1\s*\)))",
        QRegularExpression::CaseInsensitiveOption);
    const int eq = int(text.indexOf('=', start));
    const QRegularExpressionMatch m = derivative.match(text, start);
    if (m.hasMatch() && skipBlanks(text, int(m.capturedEnd())) == eq)
        set(int(m.capturedStart(1)), int(m.capturedLength(1)), Role::Derivative);
    else
        colourFormula(text.left(eq), start);
    set(eq, 1, Role::Operator);
    return eq + 1;
}

void OdeHighlighter::colourCommand(const QString& text, int start, int wordEnd) {
    const QString word = text.mid(start, wordEnd - start).toLower();
    // XPPAUT ends the file at any word starting with d where a command stands.
    if (word.startsWith('d')) {
        set(start, wordEnd - start, Role::Keyword);
        set(wordEnd, int(text.size()) - wordEnd, Role::Ignored);
        setCurrentBlockState(AfterDone);
        return;
    }
    if (commandWords().contains(word)) set(start, wordEnd - start, Role::Keyword);
    colourFormula(text, wordEnd);
}

void OdeHighlighter::colourOptions(const QString& text, int from) {
    int i = from;
    while (i < text.size()) {
        const QChar c = text[i];
        if (isNameStart(c)) {
            const int length = tokenLengthAt(text, i);
            const int next = skipBlanks(text, i + length);
            if (next < text.size() && text[next] == '=') set(i, length, Role::OptionName);
            i += length;
        } else if (c.isDigit() || c == '.' ||
                   ((c == '-' || c == '+') && i + 1 < text.size() &&
                    (text[i + 1].isDigit() || text[i + 1] == '.'))) {
            const int sign = c.isDigit() || c == '.' ? 0 : 1;
            const int length = sign + tokenLengthAt(text, i + sign);
            set(i, length, Role::Number);
            i += length;
        } else {
            if (c == '=') set(i, 1, Role::Operator);
            ++i;
        }
    }
}

void OdeHighlighter::colourFormula(const QString& text, int from) {
    int i = from;
    while (i < text.size()) {
        const QChar c = text[i];
        if (isNameStart(c)) {
            const int length = tokenLengthAt(text, i);
            const std::string name = text.mid(i, length).toLower().toStdString();
            const int next = skipBlanks(text, i + length);
            const bool called = next < text.size() && text[next] == '(';
            if (called && (model::detail::find_builtin(name) || model::detail::find_refused_function(name)))
                set(i, length, Role::Builtin);
            else if (name == "if" || name == "then" || name == "else")
                set(i, length, Role::Keyword);
            else if (name == "pi")
                set(i, length, Role::Builtin);
            i += length;
        } else if (c.isDigit() || (c == '.' && i + 1 < text.size() && text[i + 1].isDigit())) {
            const int length = tokenLengthAt(text, i);
            set(i, length, Role::Number);
            i += length;
        } else {
            if (isOperator(c)) set(i, 1, Role::Operator);
            ++i;
        }
    }
}

} // namespace bif::ui
