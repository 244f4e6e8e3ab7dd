// Helper for test_shell_recovery: a Bifscope session that has unsaved work and then dies.
// Arguments: DIRECTORY MODEL_TEXT MODEL_PATH STUDY_JSON STUDY_PATH. It saves that snapshot into a
// RecoveryStore in DIRECTORY, prints "saved" and waits for the test to kill it.
#include "ui/shell/recovery_store.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 6) {
        std::fprintf(stderr, "usage: recovery_child DIRECTORY MODEL_TEXT MODEL_PATH STUDY_JSON STUDY_PATH\n");
        return 2;
    }
    bif::ui::RecoveryStore store(args[1]);
    const bif::ui::RecoverySnapshot snapshot{args[2], args[3], args[4], args[5]};
    store.setSnapshotFunction([snapshot] { return snapshot; });
    if (store.saveNow() != bif::ui::RecoveryStore::SaveResult::Written) return 1;
    std::printf("saved\n");
    std::fflush(stdout);
    return app.exec();
}
