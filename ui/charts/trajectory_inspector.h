// The trajectory of one system of a study, recomputed on the CPU off the UI thread: which system it
// is, its time series and phase portrait with the study's section points marked, and its status
// when it failed. See inspection_plan.h for what is run.
//
// A new inspect() cancels the one in flight (the latest request wins); job handles are kept until
// their jobs finish, so that dropping one never makes the UI thread wait for a worker.
#pragma once

#include "engine/jobs/backend_registry.h"
#include "engine/jobs/job.h"
#include "engine/study/resolved_study.h"
#include "ui/charts/inspection_plan.h"
#include "ui/charts/trajectory_data.h"

#include <QWidget>
#include <map>
#include <memory>

class QLabel;
class QPushButton;
class QSplitter;

namespace bif::ui {

class TrajectoryChart;

class TrajectoryInspector : public QWidget {
    Q_OBJECT
  public:
    explicit TrajectoryInspector(QWidget* parent = nullptr);
    ~TrajectoryInspector() override;

    void inspect(std::shared_ptr<const study::ResolvedStudy> study, std::size_t system);
    void cancel();
    bool busy() const { return running_ != 0; }

    std::size_t system() const { return system_; }
    std::shared_ptr<const TrajectoryData> data() const { return data_; }
    std::shared_ptr<const study::Result> sectionResult() const { return section_; }
    std::shared_ptr<const study::Result> trajectoryResult() const { return trajectory_; }
    QString systemText() const;
    QString statusText() const;
    TrajectoryChart* timeSeries() const { return time_series_; }
    TrajectoryChart* phasePortrait() const { return phase_portrait_; }
    // "Continue this orbit": offered for a bifurcation diagram's system.
    QPushButton* continueButton() const { return continue_; }

  signals:
    void inspected(std::size_t system); // the charts show it
    void failed(const QString& why);    // a study, backend or numerical failure
    // The user asked to continue the inspected system's orbit along the diagram's parameter.
    void continueRequested(std::shared_ptr<const bif::study::ResolvedStudy> study, std::size_t system);

  private:
    using Stage = void (TrajectoryInspector::*)(quint64, std::shared_ptr<const study::Result>);

    void submit(quint64 request, const study::Study& study, Stage next);
    void onFinished(quint64 job, quint64 request, Stage next);
    void onSectionRun(quint64 request, std::shared_ptr<const study::Result> result);
    void onTrajectoryRun(quint64 request, std::shared_ptr<const study::Result> result);
    void startTrajectory(quint64 request, const study::Result* section);
    void fail(const QString& why);
    void setStatus(const QString& text, bool problem);

    jobs::BackendRegistry registry_;
    std::map<quint64, std::shared_ptr<jobs::Job>> jobs_;
    quint64 next_job_ = 0;
    quint64 request_ = 0;
    quint64 running_ = 0; // the request in flight, 0 when none

    std::shared_ptr<const study::ResolvedStudy> study_;
    std::size_t system_ = 0;
    InspectionPlan plan_;
    std::shared_ptr<const study::Result> section_, trajectory_;
    std::shared_ptr<const TrajectoryData> data_;

    QLabel* system_label_ = nullptr;
    QLabel* status_label_ = nullptr;
    QPushButton* continue_ = nullptr;
    QSplitter* charts_ = nullptr;
    TrajectoryChart* time_series_ = nullptr;
    TrajectoryChart* phase_portrait_ = nullptr;
};

} // namespace bif::ui
