#include "ui/shell/help_browser.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBrowser>

// The resources are compiled into a static library, where nothing references their initializer
// unless it is called by name (and Q_INIT_RESOURCE must be used outside any namespace).
static void init_bifscope_resources() {
    Q_INIT_RESOURCE(bifscope);
}

namespace bif::ui {

namespace {

const QString help_root = "qrc:/help/";

} // namespace

QList<HelpBrowser::Page> HelpBrowser::pages() {
    return {
        {"tutorial.md", tr("Tutorial: the Duffing oscillator")},
        {"shortcuts.md", tr("Keyboard shortcuts")},
        {"LANGUAGE.md", tr("Model language reference")},
    };
}

HelpBrowser::HelpBrowser(QWidget* parent)
    : QWidget(parent), list_(new QListWidget(this)), browser_(new QTextBrowser(this)) {
    init_bifscope_resources();
    setWindowTitle(tr("Bifscope Help"));
    browser_->setOpenExternalLinks(true);
    for (const Page& page : pages())
        list_->addItem(page.title);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(list_);
    splitter->addWidget(browser_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 680});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < pages().size()) showPage(pages()[row].file);
    });
    connect(browser_, &QTextBrowser::sourceChanged, this, &HelpBrowser::followSource);

    resize(900, 640);
    showPage(pages().first().file);
}

void HelpBrowser::showPage(const QString& file) {
    if (currentPage() == file) return;
    browser_->setSource(QUrl(help_root + file), QTextDocument::MarkdownResource);
}

QString HelpBrowser::currentPage() const {
    return QFileInfo(browser_->source().path()).fileName();
}

void HelpBrowser::followSource(const QUrl& source) {
    // The signal comes before source() changes (Qt 6.4): go by its argument.
    const QString page = QFileInfo(source.path()).fileName();
    const QList<Page> all = pages();
    for (int row = 0; row < all.size(); ++row)
        if (all[row].file == page) {
            const QSignalBlocker blocker(list_);
            list_->setCurrentRow(row);
            return;
        }
}

} // namespace bif::ui
