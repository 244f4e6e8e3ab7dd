// Where a diagnostic's (line, column) lies in a QTextDocument. The engine counts 1-based physical
// lines and 1-based columns in bytes of UTF-8 text; Qt counts UTF-16 code units, so non-ASCII text
// before the column (a comment in Greek, say) needs the conversion.
#pragma once

#include <QString>
#include <QTextCursor>

class QTextDocument;

namespace bif::ui {

// The index in `line` of the character that starts at 1-based UTF-8 byte column `column`; clamped to
// the line's length.
int utf8ColumnToIndex(const QString& line, int column);

// The length of the token that starts at `index`: a name, a number, or one character otherwise;
// 0 only when `index` is at the end of the line.
int tokenLengthAt(const QString& line, int index);

// A cursor at (line, column) with nothing selected; column 0 means the start of the line. A line past
// the end gives the end of the document.
QTextCursor cursorAt(QTextDocument* document, int line, int column);

} // namespace bif::ui
