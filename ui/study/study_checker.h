// Checks a study against its model off the UI thread (study::resolve_study through QtConcurrent),
// debounced: a burst of edits gives one check, and the newest study wins over one still running.
#pragma once

#include "engine/study/resolved_study.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <optional>

namespace bif::ui {

class StudyChecker : public QObject {
    Q_OBJECT
  public:
    explicit StudyChecker(QObject* parent = nullptr);

    // Checks `study` ~250 ms after the last request.
    void request(study::Study study, std::string base_directory);

  signals:
    void checked(bif::study::ResolveResult result);

  private:
    void start();
    void finished();

    QTimer debounce_;
    QFutureWatcher<study::ResolveResult> watcher_;
    std::optional<std::pair<study::Study, std::string>> pending_;
};

} // namespace bif::ui
