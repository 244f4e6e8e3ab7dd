// Find and replace in the model editor: the keys a user presses, the matches they land on, the text
// after replacing, and undo.
#include "gui_test_support.h"
#include "ui/editor/find_replace_bar.h"
#include "ui/editor/model_editor.h"
#include "ui/editor/model_editor_panel.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QTest>
#include <QTextBlock>
#include <catch2/catch.hpp>

using namespace bif;
using bif::test::save_screenshot;
using bif::test::wait_until;

namespace {

const QString kText = "par alpha=1, Alpha2=3\nx'=alpha*x - ALPHA2\n# alpha is the rate\n";

// The start of the n-th occurrence of `needle` in kText, by plain string search.
int occurrence(const QString& needle, int n, Qt::CaseSensitivity cs) {
    int at = -1;
    for (int i = 0; i <= n; ++i)
        at = int(kText.indexOf(needle, at + 1, cs));
    return at;
}

struct Fixture {
    ui::ModelEditorPanel panel;
    ui::FindReplaceBar* bar;
    ui::ModelEditor* editor;
    Fixture() : bar(panel.findBar()), editor(panel.editor()) {
        panel.resize(760, 420);
        panel.setText(kText);
        panel.show();
        panel.activateWindow();
        REQUIRE(QTest::qWaitForWindowActive(&panel));
        editor->setFocus();
        editor->moveCursor(QTextCursor::Start);
    }
    int selectionStart() const { return editor->textCursor().selectionStart(); }
};

} // namespace

TEST_CASE("Ctrl+F opens the bar; Enter and Shift+Enter walk the matches; Escape closes",
          "[editor][find][gui]") {
    Fixture f;
    REQUIRE_FALSE(f.bar->isVisible());
    QTest::keySequence(f.editor, QKeySequence::Find);
    REQUIRE(f.bar->isVisible());
    CHECK(f.bar->findField()->hasFocus());
    CHECK_FALSE(f.bar->replaceField()->isVisible());

    QTest::keyClicks(f.bar->findField(), "alpha");
    // Case-insensitive: alpha, Alpha(2), alpha, ALPHA(2), alpha.
    for (int n = 0; n < 5; ++n) {
        QTest::keyClick(f.bar->findField(), Qt::Key_Return);
        CHECK(f.selectionStart() == occurrence("alpha", n, Qt::CaseInsensitive));
    }
    QTest::keyClick(f.bar->findField(), Qt::Key_Return); // wraps around to the first
    CHECK(f.selectionStart() == occurrence("alpha", 0, Qt::CaseInsensitive));
    QTest::keyClick(f.bar->findField(), Qt::Key_Return, Qt::ShiftModifier); // back past the start: the last
    CHECK(f.selectionStart() == occurrence("alpha", 4, Qt::CaseInsensitive));

    f.bar->matchCaseBox()->setChecked(true);
    f.editor->moveCursor(QTextCursor::Start);
    QTest::keyClick(f.bar->findField(), Qt::Key_Return);
    CHECK(f.selectionStart() == occurrence("alpha", 0, Qt::CaseSensitive));
    QTest::keyClick(f.bar->findField(), Qt::Key_Return);
    CHECK(f.selectionStart() == occurrence("alpha", 1, Qt::CaseSensitive));
    CHECK(f.bar->status().isEmpty());

    f.bar->findField()->setText("omega");
    CHECK_FALSE(f.bar->findNext());
    CHECK(f.bar->status() == "No match");
    CHECK(f.bar->findField()->palette().color(QPalette::Base) !=
          f.bar->replaceField()->palette().color(QPalette::Base));
    save_screenshot(f.panel, "editor_find_no_match");

    QTest::keyClick(f.bar->findField(), Qt::Key_Escape);
    CHECK_FALSE(f.bar->isVisible());
    CHECK(f.editor->hasFocus());
}

TEST_CASE("replace all replaces exactly the matching occurrences, in one undo step", "[editor][find][gui]") {
    Fixture f;
    QTest::keySequence(f.editor, QKeySequence::Replace);
    REQUIRE(f.bar->isVisible());
    REQUIRE(f.bar->replaceField()->isVisible());
    f.bar->findField()->setText("alpha");
    f.bar->replaceField()->setText("rate");
    save_screenshot(f.panel, "editor_find_replace");

    SECTION("match case") {
        f.bar->matchCaseBox()->setChecked(true);
        CHECK(f.bar->replaceAll() == int(kText.count("alpha", Qt::CaseSensitive)));
        CHECK(f.panel.text() == QString(kText).replace("alpha", "rate", Qt::CaseSensitive));
    }
    SECTION("any case") {
        CHECK(f.bar->replaceAll() == int(kText.count("alpha", Qt::CaseInsensitive)));
        CHECK(f.panel.text() == QString(kText).replace("alpha", "rate", Qt::CaseInsensitive));
    }
    CHECK(f.panel.document()->isModified());
    f.panel.document()->undo();
    CHECK(f.panel.text() == kText);
}

TEST_CASE("replace replaces the selected match and moves to the next", "[editor][find][gui]") {
    Fixture f;
    f.bar->showReplace();
    f.bar->matchCaseBox()->setChecked(true);
    f.bar->findField()->setText("alpha");
    f.bar->replaceField()->setText("k");
    REQUIRE(f.bar->findNext()); // selects the first "alpha"
    QTest::keyClick(f.bar->replaceField(), Qt::Key_Return);
    QString expected = kText;
    expected.replace(occurrence("alpha", 0, Qt::CaseSensitive), 5, "k");
    CHECK(f.panel.text() == expected);
    // The selection moved to the next case-sensitive "alpha" of the edited text.
    CHECK(f.selectionStart() == expected.indexOf("alpha"));
    CHECK(f.editor->textCursor().selectedText() == "alpha");
}
