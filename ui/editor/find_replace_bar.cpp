#include "ui/editor/find_replace_bar.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QStyle>
#include <QToolButton>

namespace bif::ui {

namespace {

QPushButton* button(const QString& text, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setAutoDefault(false);
    return b;
}

} // namespace

FindReplaceBar::FindReplaceBar(QPlainTextEdit* editor, QWidget* parent)
    : QWidget(parent), editor_(editor), find_(new QLineEdit(this)), replace_(new QLineEdit(this)),
      matchCase_(new QCheckBox(tr("Match case"), this)), wholeWords_(new QCheckBox(tr("Whole words"), this)),
      replaceButton_(button(tr("Replace"), this)), replaceAllButton_(button(tr("Replace all"), this)),
      replaceRow_(new QWidget(this)), status_(new QLabel(this)) {
    find_->setPlaceholderText(tr("Find"));
    find_->setClearButtonEnabled(true);
    replace_->setPlaceholderText(tr("Replace with"));
    auto* previous = button(tr("Previous"), this);
    auto* next = button(tr("Next"), this);
    auto* closeButton = new QToolButton(this);
    closeButton->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    closeButton->setToolTip(tr("Close (Esc)"));
    closeButton->setAutoRaise(true);

    auto* findRow = new QHBoxLayout;
    findRow->addWidget(find_, 1);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addWidget(matchCase_);
    findRow->addWidget(wholeWords_);
    findRow->addWidget(status_);
    findRow->addWidget(closeButton);
    auto* replaceLayout = new QHBoxLayout(replaceRow_);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(replace_, 1);
    replaceLayout->addWidget(replaceButton_);
    replaceLayout->addWidget(replaceAllButton_);
    replaceLayout->addStretch(0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(replaceRow_);
    status_->setMinimumWidth(fontMetrics().horizontalAdvance(tr("No match")) + 8);

    find_->installEventFilter(this);
    replace_->installEventFilter(this);
    connect(previous, &QPushButton::clicked, this, &FindReplaceBar::findPrevious);
    connect(next, &QPushButton::clicked, this, &FindReplaceBar::findNext);
    connect(replaceButton_, &QPushButton::clicked, this, &FindReplaceBar::replaceCurrent);
    connect(replaceAllButton_, &QPushButton::clicked, this, &FindReplaceBar::replaceAll);
    connect(closeButton, &QToolButton::clicked, this, &FindReplaceBar::close);
    connect(find_, &QLineEdit::textEdited, this, [this] {
        status_->clear();
        find_->setPalette(QPalette());
    });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &FindReplaceBar::close);
    hide();
}

void FindReplaceBar::showFind() {
    open(false);
}

void FindReplaceBar::showReplace() {
    open(true);
}

void FindReplaceBar::open(bool withReplace) {
    const QString selected = editor_->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator)) find_->setText(selected);
    replaceRow_->setVisible(withReplace);
    show();
    find_->setFocus(Qt::ShortcutFocusReason);
    find_->selectAll();
}

bool FindReplaceBar::findNext() {
    return find({});
}

bool FindReplaceBar::findPrevious() {
    return find(QTextDocument::FindBackward);
}

QTextDocument::FindFlags FindReplaceBar::flags() const {
    QTextDocument::FindFlags f;
    if (matchCase_->isChecked()) f |= QTextDocument::FindCaseSensitively;
    if (wholeWords_->isChecked()) f |= QTextDocument::FindWholeWords;
    return f;
}

bool FindReplaceBar::find(QTextDocument::FindFlags direction) {
    const QString needle = find_->text();
    if (needle.isEmpty()) return false;
    QTextDocument* document = editor_->document();
    QTextCursor found = document->find(needle, editor_->textCursor(), flags() | direction);
    if (found.isNull()) {
        // Wrap around: from the start going forward, from the end going back.
        QTextCursor from(document);
        if (direction & QTextDocument::FindBackward) from.movePosition(QTextCursor::End);
        found = document->find(needle, from, flags() | direction);
    }
    if (!found.isNull()) editor_->setTextCursor(found);
    showResult(!found.isNull());
    return !found.isNull();
}

bool FindReplaceBar::selectionMatches() const {
    const QString selected = editor_->textCursor().selectedText();
    const Qt::CaseSensitivity cs = matchCase_->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    return !selected.isEmpty() && selected.compare(find_->text(), cs) == 0;
}

void FindReplaceBar::replaceCurrent() {
    if (selectionMatches()) editor_->textCursor().insertText(replace_->text());
    findNext();
}

int FindReplaceBar::replaceAll() {
    const QString needle = find_->text();
    if (needle.isEmpty()) return 0;
    QTextDocument* document = editor_->document();
    QTextCursor edit(document);
    edit.beginEditBlock();
    int count = 0;
    for (QTextCursor found = document->find(needle, 0, flags()); !found.isNull();
         found = document->find(needle, found, flags())) {
        found.insertText(replace_->text());
        ++count;
    }
    edit.endEditBlock();
    showResult(count > 0);
    if (count > 0) status_->setText(tr("%n replaced", nullptr, count));
    return count;
}

void FindReplaceBar::showResult(bool found) {
    QPalette palette = found ? QPalette() : this->palette();
    if (!found) {
        const bool dark = palette.color(QPalette::Window).lightness() < 128;
        palette.setColor(QPalette::Base, QColor(dark ? "#5a1d1d" : "#ffd7d5"));
    }
    find_->setPalette(palette);
    QPalette statusPalette = found ? QPalette() : this->palette();
    if (!found) {
        const bool dark = statusPalette.color(QPalette::Window).lightness() < 128;
        statusPalette.setColor(QPalette::WindowText, QColor(dark ? "#ff7b72" : "#b3261e"));
    }
    status_->setPalette(statusPalette);
    status_->setText(found ? QString() : tr("No match"));
}

QString FindReplaceBar::status() const {
    return status_->text();
}

void FindReplaceBar::close() {
    hide();
    editor_->setFocus(Qt::OtherFocusReason);
}

bool FindReplaceBar::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() != Qt::Key_Return && key->key() != Qt::Key_Enter) return false;
    if (watched == replace_)
        replaceCurrent();
    else if (key->modifiers() & Qt::ShiftModifier)
        findPrevious();
    else
        findNext();
    return true;
}

} // namespace bif::ui
