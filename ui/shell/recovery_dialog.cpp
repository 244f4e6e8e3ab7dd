#include "ui/shell/recovery_dialog.h"

#include "ui/shell/recovery_store.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace bif::ui {

RecoveryDialog::RecoveryDialog(RecoveryStore& store, QWidget* parent)
    : QDialog(parent), store_(store), list_(new QListWidget(this)) {
    setWindowTitle(tr("Recover unsaved work"));
    list_->setSpacing(4);
    auto* intro = new QLabel(tr("Bifscope did not close normally. These unsaved edits were kept:"), this);
    intro->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(this);
    restore_button_ = buttons->addButton(tr("&Restore"), QDialogButtonBox::AcceptRole);
    discard_button_ = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    QPushButton* later = buttons->addButton(tr("&Later"), QDialogButtonBox::RejectRole);
    later->setToolTip(tr("Keep the files and ask again at the next start"));
    restore_button_->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(list_);
    layout->addWidget(buttons);

    connect(restore_button_, &QPushButton::clicked, this, &RecoveryDialog::restoreSelected);
    connect(discard_button_, &QPushButton::clicked, this, &RecoveryDialog::discardSelected);
    connect(later, &QPushButton::clicked, this, &QDialog::reject);
    connect(list_, &QListWidget::currentRowChanged, this, &RecoveryDialog::updateButtons);
    connect(list_, &QListWidget::itemDoubleClicked, this, &RecoveryDialog::restoreSelected);

    fillList();
    resize(520, 300);
}

QString RecoveryDialog::describe(const PendingRecovery& recovery) {
    const RecoverySnapshot& snapshot = recovery.snapshot;
    QString model =
        snapshot.model_path.isEmpty() ? tr("untitled") : QFileInfo(snapshot.model_path).fileName();
    QString text = tr("%1 — saved %2")
                       .arg(model, QLocale().toString(recovery.saved_at.toLocalTime(), QLocale::ShortFormat));
    if (!snapshot.model_path.isEmpty()) text += "\n" + snapshot.model_path;
    if (!snapshot.study_path.isEmpty()) text += "\n" + tr("study: %1").arg(snapshot.study_path);
    if (!snapshot.phase_planes.isEmpty())
        text += "\n" + tr("%n phase plane(s)", "", int(snapshot.phase_planes.size()));
    return text;
}

void RecoveryDialog::fillList() {
    pending_ = store_.pendingRecoveries();
    list_->clear();
    for (const PendingRecovery& recovery : pending_)
        list_->addItem(describe(recovery));
    if (!pending_.isEmpty()) list_->setCurrentRow(0);
    updateButtons();
}

void RecoveryDialog::updateButtons() {
    const bool selected = list_->currentRow() >= 0;
    restore_button_->setEnabled(selected);
    discard_button_->setEnabled(selected);
}

void RecoveryDialog::selectRow(int row) {
    list_->setCurrentRow(row);
}

void RecoveryDialog::restoreSelected() {
    const int row = list_->currentRow();
    if (row < 0 || row >= pending_.size()) return;
    const PendingRecovery recovery = pending_[row];
    emit restoreChosen(recovery.snapshot);
    store_.discard(recovery);
    accept();
}

void RecoveryDialog::discardSelected() {
    const int row = list_->currentRow();
    if (row < 0 || row >= pending_.size()) return;
    store_.discard(pending_[row]);
    fillList();
    if (pending_.isEmpty()) accept();
}

} // namespace bif::ui
