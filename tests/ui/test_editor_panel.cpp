// The model editor panel as a user meets it: typing a model with a mistake, seeing it underlined and
// listed, jumping to it from the list, fixing it.
#include "engine/model/parse.h"
#include "gui_test_support.h"
#include "ui/editor/model_checker.h"
#include "ui/editor/model_editor.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/editor/problems_panel.h"

#include <QFile>
#include <QHelpEvent>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QToolTip>
#include <catch2/catch.hpp>

using namespace bif;
using bif::test::save_screenshot;
using bif::test::wait_until;

namespace {

void typeLines(QWidget* editor, const QStringList& lines) {
    for (const QString& line : lines) {
        QTest::keyClicks(editor, line);
        QTest::keyClick(editor, Qt::Key_Return);
    }
}

QList<QTextEdit::ExtraSelection> underlines(const ui::ModelEditor& editor) {
    QList<QTextEdit::ExtraSelection> result;
    for (const auto& s : editor.extraSelections())
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline) result << s;
    return result;
}

bool settled(const ui::ModelEditorPanel& panel) {
    return !panel.checker()->isPending();
}

QString readResource(const QString& relative) {
    QFile file(bif::test::source_path(relative));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QString::fromUtf8(file.readAll());
}

double meanGray(const QImage& image, const QRect& rect) {
    double sum = 0;
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); y += 3)
        for (int x = rect.left(); x <= rect.right(); x += 3, ++n)
            sum += qGray(image.pixel(x, y));
    return sum / n;
}

} // namespace

TEST_CASE("a typed mistake is underlined at its place, listed, and clears when fixed", "[editor][gui]") {
    ui::ModelEditorPanel panel;
    panel.resize(720, 480);
    panel.show();
    QSignalSpy counts(&panel, &ui::ModelEditorPanel::problemCountChanged);
    ui::ModelEditor* editor = panel.editor();
    editor->setFocus();
    const QString bad = "x'=a*+y";
    typeLines(editor, {"# a mistake on line 3", "par a=1", bad, "y'=-y"});

    REQUIRE(wait_until([&] { return settled(panel) && !panel.diagnostics().empty(); }, 5000));
    // The reference: the parser called directly on the same text.
    const model::ParseResult direct = model::parse_model(panel.text().toStdString());
    REQUIRE(direct.diagnostics.size() == 1);
    const model::Diagnostic& d = panel.diagnostics().front();
    CHECK(panel.diagnostics().size() == 1);
    CHECK(panel.model() == nullptr);
    CHECK(d.severity == model::Severity::Error);
    CHECK(d.line == 3);
    CHECK(d.column == bad.indexOf("+") + 1); // the unexpected `+`
    CHECK(d.code == direct.diagnostics.front().code);
    REQUIRE(!counts.isEmpty());
    CHECK(counts.last().at(0).toInt() == 1);
    CHECK(counts.last().at(1).toInt() == 0);

    // The underline starts exactly at the `+` (block 2, index 5) and covers that one character.
    const QTextBlock line3 = panel.document()->findBlockByNumber(2);
    const auto wavy = underlines(*editor);
    REQUIRE(wavy.size() == 1);
    CHECK(wavy.front().cursor.selectionStart() == line3.position() + bad.indexOf("+"));
    CHECK(wavy.front().cursor.selectedText() == "+");

    // Hovering the `+` shows "message [code]".
    QTextCursor at(line3);
    at.setPosition(line3.position() + int(bad.indexOf("+")));
    const QPoint hover = editor->cursorRect(at).center() + QPoint(2, 0);
    QHelpEvent help(QEvent::ToolTip, hover, editor->viewport()->mapToGlobal(hover));
    QCoreApplication::sendEvent(editor->viewport(), &help);
    CHECK(QToolTip::text() == QString::fromStdString(d.message + " [" + d.code + "]"));
    QToolTip::hideText();

    // The problems list has the row; clicking it puts the cursor on the `+`.
    QListWidget* list = panel.problems()->list();
    REQUIRE(list->count() == 1);
    CHECK(list->item(0)->text() ==
          QString("3:%1  %2  [%3]")
              .arg(d.column)
              .arg(QString::fromStdString(d.message), QString::fromStdString(d.code)));
    editor->moveCursor(QTextCursor::Start);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
    CHECK(editor->textCursor().blockNumber() == 2);
    CHECK(editor->textCursor().positionInBlock() == bad.indexOf("+"));
    save_screenshot(panel, "editor_error");

    // Deleting the `+` under the cursor fixes the model: no diagnostic, no underline, "No problems".
    QTest::keyClick(editor, Qt::Key_Delete);
    REQUIRE(wait_until([&] { return settled(panel) && panel.diagnostics().empty(); }, 5000));
    CHECK(panel.document()->findBlockByNumber(2).text() == "x'=a*y");
    CHECK(panel.model() != nullptr);
    CHECK(underlines(*editor).isEmpty());
    REQUIRE(list->count() == 1);
    CHECK(list->item(0)->text() == "No problems");
    CHECK(counts.last().at(0).toInt() == 0);
}

TEST_CASE("warnings are underlined in a colour of their own; column 0 underlines the line", "[editor][gui]") {
    ui::ModelEditor editor;
    editor.setPlainText("par a = 1\nx'=-x\nx'=2\n");
    model::Diagnostic warning;
    warning.severity = model::Severity::Warning;
    warning.code = "W-space-equals";
    warning.message = "blanks";
    warning.line = 1;
    warning.column = 7;
    model::Diagnostic error = warning;
    error.severity = model::Severity::Error;
    error.code = "E-duplicate";
    error.line = 3;
    error.column = 0;
    editor.setDiagnostics({warning, error});
    const auto wavy = underlines(editor);
    REQUIRE(wavy.size() == 2);
    CHECK(wavy[0].cursor.selectedText() == "=");
    CHECK(wavy[1].cursor.selectedText() == "x'=2");
    CHECK(wavy[0].format.underlineColor() != wavy[1].format.underlineColor());
}

TEST_CASE("a bundled model is coloured in the light and the dark look", "[editor][gui]") {
    ui::ModelEditorPanel panel;
    panel.resize(760, 560);
    panel.setText(readResource("resources/models/forced_vanderpol.ode"));
    REQUIRE(wait_until([&] { return settled(panel) && panel.model() != nullptr; }, 5000));
    const QImage light = save_screenshot(panel, "editor_highlighted");
    QPalette dark;
    dark.setColor(QPalette::Window, QColor("#2b2b2b"));
    dark.setColor(QPalette::Base, QColor("#1e1e1e"));
    dark.setColor(QPalette::AlternateBase, QColor("#262626"));
    dark.setColor(QPalette::Text, QColor("#dcdcdc"));
    dark.setColor(QPalette::WindowText, QColor("#dcdcdc"));
    dark.setColor(QPalette::PlaceholderText, QColor("#8a8a8a"));
    dark.setColor(QPalette::Button, QColor("#333333"));
    dark.setColor(QPalette::ButtonText, QColor("#dcdcdc"));
    panel.setPalette(dark);
    const QImage darkImage = save_screenshot(panel, "editor_highlighted_dark");
    // The editor's text area is mostly dark in the dark look and mostly light otherwise.
    const QRect area(panel.editor()->mapTo(&panel, QPoint(0, 0)), panel.editor()->size());
    CHECK(meanGray(light, area) > 160);
    CHECK(meanGray(darkImage, area) < 96);
}
