// Find and replace in a plain-text editor: Enter finds the next match, Shift+Enter the previous one
// (both wrap around), Escape hides the bar and gives the editor back its focus. "Replace all" is one
// undo step.
#pragma once

#include <QTextDocument>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace bif::ui {

class FindReplaceBar : public QWidget {
    Q_OBJECT
  public:
    explicit FindReplaceBar(QPlainTextEdit* editor, QWidget* parent = nullptr);

    // Shows the bar (with the replace row or without), seeded with the editor's selection.
    void showFind();
    void showReplace();

    bool findNext();
    bool findPrevious();
    void replaceCurrent();
    int replaceAll(); // the number of replacements

    QLineEdit* findField() const { return find_; }
    QLineEdit* replaceField() const { return replace_; }
    QCheckBox* matchCaseBox() const { return matchCase_; }
    QString status() const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void open(bool withReplace);
    bool find(QTextDocument::FindFlags direction);
    bool selectionMatches() const;
    QTextDocument::FindFlags flags() const;
    void showResult(bool found);
    void close();

    QPlainTextEdit* editor_;
    QLineEdit* find_;
    QLineEdit* replace_;
    QCheckBox* matchCase_;
    QCheckBox* wholeWords_;
    QPushButton* replaceButton_;
    QPushButton* replaceAllButton_;
    QWidget* replaceRow_;
    QLabel* status_;
};

} // namespace bif::ui
