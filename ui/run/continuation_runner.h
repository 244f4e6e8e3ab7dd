// Runs continuation studies (engine/jobs/continuation_job.h) for the UI, as StudyRunner runs the
// ensemble ones: each request a job on its own worker thread, its end brought to the UI thread as a
// queued signal with the request's id, Cancel for all in flight. Several may run at once (a branch
// continued from a diagram while a study's branches are computed); each ends on its own.
#pragma once

#include "engine/jobs/continuation_job.h"
#include "ui/run/study_runner.h" // JobState's metatype

#include <QObject>
#include <QString>
#include <map>
#include <memory>

namespace bif::ui {

class ContinuationRunner : public QObject {
    Q_OBJECT
  public:
    explicit ContinuationRunner(QObject* parent = nullptr);
    ~ContinuationRunner() override;

    // Starts the study; returns the request's id (ids grow from 1).
    quint64 run(std::shared_ptr<const study::ResolvedEquilibriumStudy> study);
    void cancel();
    bool busy() const { return !jobs_.empty(); }

  signals:
    // state Succeeded or Cancelled: `outcome` is set; Failed: `failure` says why.
    void finished(quint64 request, bif::jobs::JobState state,
                  std::shared_ptr<const bif::jobs::ContinuationOutcome> outcome, const QString& failure);

  private:
    std::map<quint64, std::shared_ptr<jobs::ContinuationJob>> jobs_;
    quint64 last_ = 0;
};

} // namespace bif::ui

Q_DECLARE_METATYPE(std::shared_ptr<const bif::jobs::ContinuationOutcome>)
