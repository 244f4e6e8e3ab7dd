#include "ui/charts/trajectory_inspector.h"

#include "engine/jobs/installed_backends.h"
#include "ui/charts/trajectory_chart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

namespace bif::ui {

namespace {

// Output samples per section interval (and over a window without sections): smooth curves at a
// size the charts still draw quickly.
constexpr int samples_per_interval = 160;
constexpr int min_samples = 801;
constexpr int max_samples = 8001;

} // namespace

TrajectoryInspector::TrajectoryInspector(QWidget* parent)
    : QWidget(parent), registry_(jobs::installed_backends(jobs::BackendUse::Interactive)) {
    system_label_ = new QLabel(tr("No system inspected: click one in a diagram or chart."), this);
    system_label_->setWordWrap(true);
    system_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_label_ = new QLabel(this);
    status_label_->setWordWrap(true);
    time_series_ = new TrajectoryChart(TrajectoryChart::Mode::TimeSeries, this);
    phase_portrait_ = new TrajectoryChart(TrajectoryChart::Mode::PhasePortrait, this);
    // Side by side: the inspector lives in a wide, short dock under the plots.
    charts_ = new QSplitter(Qt::Horizontal, this);
    charts_->addWidget(time_series_);
    charts_->addWidget(phase_portrait_);
    charts_->setStretchFactor(0, 3);
    charts_->setStretchFactor(1, 2);
    charts_->setVisible(false); // empty charts until a system is inspected
    continue_ = new QPushButton(tr("Continue this orbit"), this);
    continue_->setToolTip(tr("Continue the orbit of this system along the diagram's parameter, both ways "
                             "(its stable and unstable parts, its bifurcation points)"));
    continue_->setVisible(false);
    connect(continue_, &QPushButton::clicked, this, [this] {
        if (study_) emit continueRequested(study_, system_);
    });
    auto* header = new QHBoxLayout;
    header->addWidget(system_label_, 1);
    header->addWidget(continue_, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(status_label_);
    layout->addWidget(charts_, 1);
}

TrajectoryInspector::~TrajectoryInspector() {
    // Each handle's destructor cancels and joins its job; what a job still posts dies with this object.
    cancel();
    jobs_.clear();
}

void TrajectoryInspector::cancel() {
    for (auto& [id, job] : jobs_)
        job->cancel();
    running_ = 0;
}

QString TrajectoryInspector::systemText() const {
    return system_label_->text();
}

QString TrajectoryInspector::statusText() const {
    return status_label_->text();
}

void TrajectoryInspector::setStatus(const QString& text, bool problem) {
    status_label_->setText(text);
    status_label_->setStyleSheet(problem ? QStringLiteral("color: #b00020;") : QString());
}

void TrajectoryInspector::inspect(std::shared_ptr<const study::ResolvedStudy> study, std::size_t system) {
    cancel();
    const quint64 request = ++request_;
    running_ = request;
    study_ = std::move(study);
    system_ = system;
    section_.reset();
    trajectory_.reset();
    plan_ = plan_inspection(*study_, system);
    continue_->setVisible(study_->study.analysis == study::AnalysisKind::Bifurcation);
    system_label_->setText(
        tr("System %1: %2").arg(system).arg(QString::fromStdString(describe_system(*study_, system))));
    QString status = tr("computing…");
    for (const auto& note : plan_.notes)
        status += QStringLiteral("\n") + QString::fromStdString(note);
    setStatus(status, false);
    if (plan_.section_study)
        submit(request, *plan_.section_study, &TrajectoryInspector::onSectionRun);
    else
        startTrajectory(request, nullptr);
}

void TrajectoryInspector::submit(quint64 request, const study::Study& s, Stage next) {
    const study::ResolveResult resolved = study::resolve_study(s, study_->base_directory);
    if (!resolved.resolved) {
        QStringList problems;
        for (const auto& p : resolved.problems)
            if (p.severity == study::ProblemSeverity::Error) problems << QString::fromStdString(p.format());
        fail(problems.join(QStringLiteral("\n")));
        return;
    }
    const quint64 job = ++next_job_;
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    options.threads = 1; // one system: more threads only cost start-up time
    // The callback runs on the job's worker thread; it is posted to this object's (the UI) thread.
    options.on_finished = [this, job, request, next](jobs::JobState) {
        QMetaObject::invokeMethod(
            this, [this, job, request, next] { onFinished(job, request, next); }, Qt::QueuedConnection);
    };
    jobs_[job] = jobs::submit(registry_, resolved.resolved, std::move(options));
}

void TrajectoryInspector::onFinished(quint64 job, quint64 request, Stage next) {
    const auto it = jobs_.find(job);
    if (it == jobs_.end()) return;
    const std::shared_ptr<jobs::Job> handle = it->second;
    jobs_.erase(it); // finished: its thread is past the callback, so the join is immediate
    if (request != request_ || running_ != request) return; // superseded or cancelled
    if (handle->state() == jobs::JobState::Failed) {
        fail(QString::fromStdString(handle->failure()));
        return;
    }
    if (handle->state() != jobs::JobState::Succeeded) return;
    (this->*next)(request, handle->result());
}

void TrajectoryInspector::fail(const QString& why) {
    running_ = 0;
    setStatus(why, true);
    emit failed(why);
}

void TrajectoryInspector::onSectionRun(quint64 request, std::shared_ptr<const study::Result> result) {
    section_ = std::move(result);
    startTrajectory(request, section_.get());
}

void TrajectoryInspector::startTrajectory(quint64 request, const study::Result* section) {
    double t_from = 0, t_to = 0;
    if (!trajectory_window(*study_, plan_, section, t_from, t_to)) {
        const study::SystemStatus status =
            section && !section->status.empty() ? section->status[0] : study::SystemStatus::NotRun;
        fail(tr("The system recorded no section points to show (status: %1).")
                 .arg(QString::fromUtf8(study::name_of(status))));
        return;
    }
    std::vector<double> extra;
    // Without sections the window holds no natural interval: sample it finely (a chaotic flow).
    int intervals = (max_samples - 1) / (2 * samples_per_interval);
    if (section) {
        const std::size_t rows = section->points.rows_filled[0];
        for (std::size_t r = 0; r < rows; ++r)
            extra.push_back(section->points.value(0, r, 0));
        intervals = int(rows);
    }
    const int samples = std::clamp(intervals * samples_per_interval + 1, min_samples, max_samples);
    submit(request, trajectory_study(plan_, t_from, t_to, samples, extra),
           &TrajectoryInspector::onTrajectoryRun);
}

void TrajectoryInspector::onTrajectoryRun(quint64, std::shared_ptr<const study::Result> result) {
    running_ = 0;
    trajectory_ = std::move(result);
    auto data = std::make_shared<TrajectoryData>(trajectory_from_result(*trajectory_));
    if (section_) add_section_marks(*data, *section_, plan_.first_marked_row);
    data_ = data;
    time_series_->setData(data_);
    phase_portrait_->setData(data_);

    // The system's own status: the section run's where there is one (it ran the study's analysis).
    const study::Result& own = section_ ? *section_ : *trajectory_;
    const study::SystemStatus status = own.status.empty() ? study::SystemStatus::NotRun : own.status[0];
    QString text;
    if (study::is_failure(status))
        text = tr("The system failed: %1.").arg(QString::fromUtf8(study::name_of(status)));
    else
        text = tr("%1 section points marked; t from %2 to %3.")
                   .arg(data->mark_t.size())
                   .arg(data->t.empty() ? 0.0 : data->t.front(), 0, 'g', 6)
                   .arg(data->t.empty() ? 0.0 : data->t.back(), 0, 'g', 6);
    if (!section_)
        text = tr("t from %1 to %2.")
                   .arg(data->t.empty() ? 0.0 : data->t.front(), 0, 'g', 6)
                   .arg(data->t.empty() ? 0.0 : data->t.back(), 0, 'g', 6);
    for (const auto& note : plan_.notes)
        text += QStringLiteral("\n") + QString::fromStdString(note);
    setStatus(text, study::is_failure(status));
    charts_->setVisible(true);
    emit inspected(system_);
}

} // namespace bif::ui
