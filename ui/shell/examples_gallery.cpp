#include "ui/shell/examples_gallery.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <optional>

namespace bif::ui {

namespace {

constexpr int path_role = Qt::UserRole;
constexpr int entry_role = Qt::UserRole + 1; // index into entries_; absent on group headings

QString kind_name(ExampleEntry::Kind kind) {
    return kind == ExampleEntry::Kind::Study ? QObject::tr("study") : QObject::tr("model");
}

// The preview is for reading, not editing: a bounded read keeps a huge file from stalling the dialog.
QString read_preview(const QString& path) {
    constexpr qint64 max_preview_bytes = 200'000;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return QObject::tr("(cannot read %1)").arg(path);
    return QString::fromUtf8(file.read(max_preview_bytes));
}

} // namespace

ExamplesGallery::ExamplesGallery(const QString& resources_directory, QWidget* parent)
    : QDialog(parent), entries_(scan_examples(resources_directory)), filter_(new QLineEdit(this)),
      list_(new QListWidget(this)), title_(new QLabel(this)), kind_(new QLabel(this)),
      description_(new QLabel(this)), preview_(new QPlainTextEdit(this)) {
    setWindowTitle(tr("Examples"));
    filter_->setPlaceholderText(tr("Filter examples…"));
    filter_->setClearButtonEnabled(true);
    list_->setWordWrap(true);
    QFont title_font = title_->font();
    title_font.setBold(true);
    title_font.setPointSizeF(title_font.pointSizeF() * 1.15);
    title_->setFont(title_font);
    title_->setWordWrap(true);
    kind_->setWordWrap(true);
    kind_->setForegroundRole(QPalette::PlaceholderText); // muted, in either theme
    description_->setWordWrap(true);
    description_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    list_->setSpacing(2);
    std::optional<ExampleEntry::Kind> group;
    for (int index = 0; index < entries_.size(); ++index) {
        const ExampleEntry& entry = entries_[index];
        if (group != entry.kind) {
            group = entry.kind;
            auto* heading = new QListWidgetItem(
                entry.kind == ExampleEntry::Kind::Study ? tr("Studies — ready to run") : tr("Models"), list_);
            QFont font = heading->font();
            font.setBold(true);
            heading->setFont(font);
            heading->setFlags(Qt::ItemIsEnabled); // not selectable, but not greyed out either
        }
        auto* item = new QListWidgetItem(entry.title, list_);
        item->setData(path_role, entry.path);
        item->setData(entry_role, index);
        item->setToolTip(QFileInfo(entry.path).fileName());
    }

    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(filter_);
    left_layout->addWidget(list_);
    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    right_layout->addWidget(title_);
    right_layout->addWidget(kind_);
    right_layout->addWidget(description_);
    right_layout->addWidget(preview_, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    open_button_ = buttons->button(QDialogButtonBox::Open);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);

    connect(filter_, &QLineEdit::textChanged, this, &ExamplesGallery::applyFilter);
    connect(list_, &QListWidget::currentItemChanged, this, &ExamplesGallery::showSelected);
    connect(list_, &QListWidget::itemActivated, this, &ExamplesGallery::openSelected);
    connect(open_button_, &QPushButton::clicked, this, &ExamplesGallery::openSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    resize(980, 620);
    applyFilter();
}

void ExamplesGallery::setFilter(const QString& text) {
    filter_->setText(text);
}

void ExamplesGallery::applyFilter() {
    const QString text = filter_->text().trimmed();
    // Rows run heading, its entries, heading, ...: a heading shows when one of its entries does.
    QListWidgetItem* heading = nullptr;
    bool heading_used = false;
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        if (!item->data(entry_role).isValid()) {
            if (heading) heading->setHidden(!heading_used);
            heading = item;
            heading_used = false;
            continue;
        }
        const ExampleEntry& entry = entries_[item->data(entry_role).toInt()];
        const bool match = text.isEmpty() || entry.title.contains(text, Qt::CaseInsensitive) ||
                           entry.description.contains(text, Qt::CaseInsensitive) ||
                           QFileInfo(entry.path).fileName().contains(text, Qt::CaseInsensitive);
        item->setHidden(!match);
        heading_used = heading_used || match;
    }
    if (heading) heading->setHidden(!heading_used);
    QListWidgetItem* current = list_->currentItem();
    if (!current || current->isHidden()) {
        list_->setCurrentItem(nullptr);
        for (int row = 0; row < list_->count(); ++row) {
            QListWidgetItem* item = list_->item(row);
            if (!item->isHidden() && item->data(entry_role).isValid()) {
                list_->setCurrentItem(item);
                break;
            }
        }
    }
    showSelected();
}

QStringList ExamplesGallery::visiblePaths() const {
    QStringList paths;
    for (int row = 0; row < list_->count(); ++row) {
        const QListWidgetItem* item = list_->item(row);
        if (!item->isHidden() && item->data(entry_role).isValid())
            paths.append(item->data(path_role).toString());
    }
    return paths;
}

bool ExamplesGallery::select(const QString& path) {
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        if (!item->isHidden() && item->data(entry_role).isValid() &&
            item->data(path_role).toString() == wanted) {
            list_->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

QString ExamplesGallery::selectedPath() const {
    const QListWidgetItem* item = list_->currentItem();
    return item && !item->isHidden() && item->data(entry_role).isValid() ? item->data(path_role).toString()
                                                                         : QString();
}

QString ExamplesGallery::previewText() const {
    return preview_->toPlainText();
}

void ExamplesGallery::showSelected() {
    const QString path = selectedPath();
    open_button_->setEnabled(!path.isEmpty());
    if (path.isEmpty()) {
        title_->setText(entries_.isEmpty() ? tr("No examples found") : tr("No example matches the filter"));
        kind_->clear();
        description_->clear();
        preview_->clear();
        return;
    }
    const ExampleEntry& entry = entries_[list_->currentItem()->data(entry_role).toInt()];
    title_->setText(entry.title);
    QString kind = QString("%1 · %2").arg(kind_name(entry.kind), QFileInfo(entry.path).fileName());
    if (!entry.details.isEmpty()) kind += " · " + entry.details;
    kind_->setText(kind);
    description_->setText(entry.description);
    description_->setVisible(!entry.description.isEmpty());
    preview_->setPlainText(read_preview(path));
}

void ExamplesGallery::openSelected() {
    const QString path = selectedPath();
    if (path.isEmpty()) return;
    emit exampleChosen(path);
    accept();
}

} // namespace bif::ui
