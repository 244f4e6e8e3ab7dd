// Offered at start-up when crashed sessions left unsaved work: each snapshot by its model file (or
// "untitled") and time, to Restore into the window or Discard for good. Closing keeps the files for
// the next start.
#pragma once

#include "ui/shell/recovery_snapshot.h"

#include <QDialog>
#include <QList>

class QListWidget;
class QPushButton;

namespace bif::ui {

class RecoveryStore;

class RecoveryDialog : public QDialog {
    Q_OBJECT
  public:
    explicit RecoveryDialog(RecoveryStore& store, QWidget* parent = nullptr);

    int pendingCount() const { return static_cast<int>(pending_.size()); }
    void selectRow(int row);
    // The buttons' actions on the selected row, for tests as much as for clicks.
    void restoreSelected();
    void discardSelected();

    static QString describe(const PendingRecovery& recovery);

  signals:
    // The file is discarded once emitted: this session's own autosave takes over.
    void restoreChosen(const bif::ui::RecoverySnapshot& snapshot);

  private:
    void fillList();
    void updateButtons();

    RecoveryStore& store_;
    QList<PendingRecovery> pending_;
    QListWidget* list_;
    QPushButton* restore_button_;
    QPushButton* discard_button_;
};

} // namespace bif::ui
