#include "ui/editor/text_position.h"

#include <QTextBlock>
#include <QTextDocument>

namespace bif::ui {

namespace {

bool isNameChar(QChar c) {
    return c.isLetterOrNumber() || c == '_';
}

// A number as the model language reads it: 1  1.  .5  1e-3  2.5E+7
int numberLength(const QString& line, int index) {
    int i = index;
    while (i < line.size() && line[i].isDigit())
        ++i;
    if (i < line.size() && line[i] == '.') ++i;
    while (i < line.size() && line[i].isDigit())
        ++i;
    if (i < line.size() && (line[i] == 'e' || line[i] == 'E')) {
        int j = i + 1;
        if (j < line.size() && (line[j] == '+' || line[j] == '-')) ++j;
        if (j < line.size() && line[j].isDigit()) {
            i = j;
            while (i < line.size() && line[i].isDigit())
                ++i;
        }
    }
    return i - index;
}

} // namespace

int utf8ColumnToIndex(const QString& line, int column) {
    int bytes = 0;
    for (int i = 0; i < line.size(); ++i) {
        if (bytes >= column - 1) return i;
        const char16_t unit = line[i].unicode();
        if (QChar::isHighSurrogate(unit)) {
            bytes += 4;
            ++i;
        } else {
            bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
        }
    }
    return int(line.size());
}

int tokenLengthAt(const QString& line, int index) {
    if (index >= line.size()) return 0;
    const QChar c = line[index];
    const bool startsNumber =
        c.isDigit() || (c == '.' && index + 1 < line.size() && line[index + 1].isDigit());
    if (startsNumber) return numberLength(line, index);
    if (!isNameChar(c)) return 1;
    int end = index;
    while (end < line.size() && isNameChar(line[end]))
        ++end;
    return end - index;
}

QTextCursor cursorAt(QTextDocument* document, int line, int column) {
    QTextCursor cursor(document);
    const QTextBlock block = document->findBlockByNumber(line - 1);
    if (!block.isValid()) {
        cursor.movePosition(QTextCursor::End);
        return cursor;
    }
    const int index = column > 0 ? utf8ColumnToIndex(block.text(), column) : 0;
    cursor.setPosition(block.position() + index);
    return cursor;
}

} // namespace bif::ui
