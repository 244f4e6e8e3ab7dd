// Help › Contents: the tutorial, the keyboard shortcuts and the model language reference, markdown
// from the app's resources (:/help/*.md) shown in a QTextBrowser. Links between pages follow, and
// the page list tracks the page shown; web links open in the system browser.
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QListWidget;
class QTextBrowser;
class QUrl;

namespace bif::ui {

class HelpBrowser : public QWidget {
    Q_OBJECT
  public:
    struct Page {
        QString file; // under :/help/
        QString title;
    };
    static QList<Page> pages();

    explicit HelpBrowser(QWidget* parent = nullptr);

    void showPage(const QString& file); // e.g. "tutorial.md"
    QString currentPage() const;        // the file name of the page shown
    QTextBrowser* browser() const { return browser_; }

  private:
    void followSource(const QUrl& source);

    QListWidget* list_;
    QTextBrowser* browser_;
};

} // namespace bif::ui
