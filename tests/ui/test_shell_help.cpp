// The help pages load from the resources as markdown (headings, not raw '#'), and links between
// them navigate.
#include "gui_test_support.h"
#include "ui/shell/help_browser.h"

#include <QFile>
#include <QListWidget>
#include <QRegularExpression>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <catch2/catch.hpp>

using bif::ui::HelpBrowser;

namespace {

QStringList headings(const QTextDocument& document) {
    QStringList found;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0) found.append(block.text());
    return found;
}

// Link targets, read from the markdown source itself.
QStringList markdown_links(const QString& resource) {
    QFile file(resource);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QStringList links;
    static const QRegularExpression link(R"(\]\(([A-Za-z_]+\.md)\))");
    for (const QRegularExpressionMatch& match : link.globalMatch(QString::fromUtf8(file.readAll())))
        links.append(match.captured(1));
    return links;
}

// Clicks the first link to `href` in the browser, where it is drawn.
void click_link(QTextBrowser& browser, const QString& href) {
    for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment) {
            const QTextFormat format = fragment.fragment().charFormat();
            if (!format.isCharFormat() || format.toCharFormat().anchorHref() != href) continue;
            QTextCursor cursor(browser.document());
            cursor.setPosition(fragment.fragment().position() + 1);
            browser.setTextCursor(cursor);
            browser.ensureCursorVisible();
            const QRect where = browser.cursorRect(cursor);
            QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, where.center());
            return;
        }
    FAIL("no link to " << href.toStdString());
}

} // namespace

TEST_CASE("each help page loads as markdown with headings", "[shell][help]") {
    HelpBrowser help;
    for (const HelpBrowser::Page& page : HelpBrowser::pages()) {
        INFO(page.file.toStdString());
        REQUIRE(QFile::exists(":/help/" + page.file));
        help.showPage(page.file);
        CHECK(help.currentPage() == page.file);
        const QTextDocument& document = *help.browser()->document();
        const QStringList found = headings(document);
        REQUIRE(!found.isEmpty());
        CHECK(!found.first().startsWith('#'));
        CHECK(!document.toPlainText().startsWith('#'));
        CHECK(document.toPlainText().size() > 300);
    }
    help.showPage("tutorial.md");
    CHECK(headings(*help.browser()->document()).contains("3. Zoom into the period-3 window"));
    help.resize(980, 700);
    bif::test::save_screenshot(help, "shell_help_tutorial");
    help.showPage("LANGUAGE.md");
    bif::test::save_screenshot(help, "shell_help_language");
    help.showPage("shortcuts.md");
    bif::test::save_screenshot(help, "shell_help_shortcuts");
}

TEST_CASE("links between help pages navigate and the page list follows", "[shell][help]") {
    HelpBrowser help;
    const QStringList links = markdown_links(":/help/tutorial.md") + markdown_links(":/help/shortcuts.md");
    REQUIRE(links.contains("shortcuts.md"));
    REQUIRE(links.contains("LANGUAGE.md"));
    QStringList known;
    for (const HelpBrowser::Page& page : HelpBrowser::pages())
        known.append(page.file);
    for (const QString& link : links)
        CHECK(known.contains(link));

    help.showPage("tutorial.md");
    auto* list = help.findChild<QListWidget*>();
    REQUIRE(list);
    help.resize(900, 640);
    help.show();
    REQUIRE(QTest::qWaitForWindowExposed(&help));
    click_link(*help.browser(), "shortcuts.md");
    CHECK(help.currentPage() == "shortcuts.md");
    CHECK(headings(*help.browser()->document()).contains("Keyboard shortcuts"));
    CHECK(help.browser()->toPlainText().contains("Alt+Left"));
    CHECK(list->currentItem()->text().toStdString() == "Keyboard shortcuts");
    help.browser()->backward();
    CHECK(help.currentPage() == "tutorial.md");
    CHECK(list->currentRow() == 0);

    list->setCurrentRow(2);
    CHECK(help.currentPage() == "LANGUAGE.md");
}
