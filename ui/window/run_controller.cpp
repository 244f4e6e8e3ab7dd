#include "ui/window/run_controller.h"

#include "ui/window/messages_panel.h"
#include "ui/window/result_tab.h"
#include "ui/window/status_panel.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <limits>
#include <map>
#include <thread>

namespace bif::ui {

namespace {

struct BackendDescription {
    QString text;
    QString why;
};

// A size from the environment variable `name`, else `otherwise`; 0 there means never.
std::size_t threshold_from_environment(const char* name, std::size_t otherwise) {
    bool ok = false;
    const qulonglong value = qEnvironmentVariable(name).toULongLong(&ok);
    if (!ok) return otherwise;
    return value == 0 ? std::numeric_limits<std::size_t>::max() : std::size_t(value);
}

// 2048 x 2048: a host result of that many cells holds a few hundred megabytes with its figure.
std::size_t kept_map_cells_from_environment() {
    return threshold_from_environment("BIFSCOPE_KEEP_MAPS_FROM", std::size_t(1) << 22);
}

// 2^24 points: 128 MiB a recorded quantity on the host, the figure's own copy for the view besides.
std::size_t kept_points_from_environment() {
    return threshold_from_environment("BIFSCOPE_KEEP_POINTS_FROM", std::size_t(1) << 24);
}

BackendDescription describe_backends(const jobs::BackendRegistry& registry) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const QString cpu = QString("CPU: %1 %2").arg(threads).arg(threads == 1 ? "thread" : "threads");
    const auto cuda = registry.find("cuda");
    if (!cuda) return {cpu, QObject::tr("This build has no CUDA backend.")};
    const study::Availability a = cuda->availability();
    if (!a.available)
        return {cpu, QObject::tr("The GPU is not used: %1").arg(QString::fromStdString(a.reason))};
    return {QObject::tr("GPU available (CUDA)"), QObject::tr("Studies run on the GPU when that is faster.")};
}

QString failure_counts(const study::Result& r) {
    if (r.kept) {
        // kept on a device: which failures occurred, from the summary (no counts come back)
        const render::MapSummary summary = r.kept->summary(0);
        QStringList present;
        for (unsigned s = 0; s < 256; ++s)
            if ((summary.statuses[s >> 5] >> (s & 31) & 1u) && study::is_failure(study::SystemStatus(s)))
                present << QString::fromLatin1(study::name_of(study::SystemStatus(s)));
        return present.join(", ");
    }
    std::map<study::SystemStatus, std::size_t> counts;
    for (auto s : r.status)
        if (study::is_failure(s)) ++counts[s];
    QStringList parts;
    for (auto& [status, n] : counts)
        parts << QString("%1 %2").arg(n).arg(study::name_of(status));
    return parts.join(", ");
}

} // namespace

RunController::RunController(StudyRunner& runner, StatusPanel& status, MessagesPanel& messages,
                             QObject* parent)
    : QObject(parent), runner_(runner), status_(status), messages_(messages),
      kept_map_cells_(kept_map_cells_from_environment()), kept_points_(kept_points_from_environment()) {
    connect(&runner_, &StudyRunner::progressed, this, &RunController::onProgress);
    connect(&runner_, &StudyRunner::blockReady, this, &RunController::onBlock);
    connect(&runner_, &StudyRunner::finished, this, &RunController::onFinished);
    connect(&status_, &StatusPanel::cancelRequested, this, &RunController::cancel);
}

void RunController::probeBackend() {
    status_.setBackend(tr("CPU"), tr("Looking for a GPU…"));
    auto* watcher = new QFutureWatcher<BackendDescription>(this);
    connect(watcher, &QFutureWatcher<BackendDescription>::finished, this, [this, watcher] {
        const BackendDescription d = watcher->result();
        status_.setBackend(d.text, d.why);
        if (!d.why.isEmpty()) messages_.add(MessagesPanel::Level::Info, d.text + " — " + d.why);
        watcher->deleteLater();
    });
    const jobs::BackendRegistry registry = runner_.registry();
    watcher->setFuture(QtConcurrent::run([registry] { return describe_backends(registry); }));
}

void RunController::run(ResultTab* tab, std::shared_ptr<const study::ResolvedStudy> study) {
    if (running_ && tab_ && tab_ != tab) tab_->markStale(true);
    tab_ = tab;
    running_ = true;
    RunRequest request;
    request.keep = keepRequest(*tab, *study);
    tab->beginRun(study, request.keep.has_value());
    QString what = QString("%1: %2 systems").arg(tab->title()).arg(qulonglong(study->system_count()));
    if (request.keep)
        what += (study->study.analysis == study::AnalysisKind::Bifurcation ? tr(", the points kept on GPU %1")
                                                                           : tr(", the map kept on GPU %1"))
                    .arg(request.keep->device);
    status_.runStarted(tr("starting"));
    messages_.add(MessagesPanel::Level::Info, tr("Run: %1").arg(what));
    run_ = runner_.run(std::move(study), request);
}

// A large map (not basins: their labels are numbered on the host), or a one-axis diagram of many
// points, whose picture is drawn on a CUDA device keeps its cells or points there. Before its canvas
// has drawn, the view's device is not known yet: the first GPU is where an NVIDIA desktop draws.
std::optional<study::KeepRequest> RunController::keepRequest(const ResultTab& tab,
                                                             const study::ResolvedStudy& study) const {
    if (study.is_continuation() || study.study.backend == study::BackendChoice::Cpu) return std::nullopt;
    const auto points =
        study.system_count() * std::size_t(std::max(0, study.study.bifurcation.recorded_sections));
    const bool large_map =
        study.study.analysis == study::AnalysisKind::ParameterMap && study.system_count() >= kept_map_cells_;
    const bool large_diagram = study.study.analysis == study::AnalysisKind::Bifurcation &&
                               study.grid.axis_count() == 1 && points >= kept_points_;
    if (!large_map && !large_diagram) return std::nullopt;
    // loaded by StudyRunner's warm-up at start, so this rarely waits
    const auto cuda = runner_.registry().find("cuda");
    if (!cuda || !cuda->availability().available) return std::nullopt;
    const std::optional<int> device = tab.keptMapDevice();
    if (device && *device < 0) return std::nullopt;
    if (large_diagram) return study::KeepRequest{device.value_or(0), {}};
    return study::KeepRequest{device.value_or(0), study::scalar_column_names(study)};
}

void RunController::cancel() {
    if (!running_) return;
    runner_.cancel();
    status_.showPhase(tr("cancelling…"));
}

void RunController::abandon(ResultTab* tab) {
    if (!running_ || tab_ != tab) return;
    tab_ = nullptr;
    runner_.cancel();
}

void RunController::onProgress(quint64 run, const study::Progress& progress) {
    if (run != run_) return;
    if (!tab_) return cancel(); // its tab was closed
    status_.showProgress(progress);
}

void RunController::onBlock(quint64 run, std::shared_ptr<const jobs::ResultBlock> block) {
    if (run != run_) return;
    if (!tab_) return cancel();
    tab_->addBlock(block);
}

void RunController::onFinished(quint64 run, jobs::JobState state, std::shared_ptr<const study::Result> result,
                               const QString& failure) {
    if (run != run_) return; // an older run, cancelled when this one started; its tab was greyed then
    running_ = false;
    ResultTab* tab = tab_;
    if (tab) tab->endRun(state, result);
    const QString title = tab ? tab->title() : QString();
    switch (state) {
    case jobs::JobState::Failed:
        messages_.add(MessagesPanel::Level::Error, tr("%1: the run failed: %2").arg(title, failure));
        status_.runEnded(tr("Failed"));
        break;
    case jobs::JobState::Cancelled:
        messages_.add(MessagesPanel::Level::Warning,
                      tr("%1: cancelled; the finished part is shown greyed").arg(title));
        status_.runEnded(tr("Cancelled"));
        break;
    default:
        status_.runEnded(tr("Done in %1 s").arg(result ? result->info.total_seconds : 0.0, 0, 'f', 2),
                         result ? result->system_count : 0, result ? result->info.total_seconds : 0.0);
        break;
    }
    if (result) report(*result, title);
    emit runFinished(tab, state);
}

void RunController::report(const study::Result& r, const QString& title) {
    const auto& info = r.info;
    const bool gpu = info.backend == "cuda";
    QStringList notes;
    for (const auto& note : info.notes)
        notes << QString::fromStdString(note);
    status_.setBackend(QString("%1: %2").arg(gpu ? "GPU" : "CPU", QString::fromStdString(info.device)),
                       notes.join("\n"));
    QString line = tr("%1: %2 systems in %3 s (%4, %5, %6)")
                       .arg(title)
                       .arg(qulonglong(r.system_count))
                       .arg(info.total_seconds, 0, 'f', 2)
                       .arg(QString::fromStdString(info.backend), study::name_of(info.code_path),
                            info.precision == codegen::Precision::Float ? "float" : "double");
    const QString failed = failure_counts(r);
    if (!failed.isEmpty()) line += tr("; failed: %1").arg(failed);
    messages_.add(failed.isEmpty() ? MessagesPanel::Level::Info : MessagesPanel::Level::Warning, line);
    for (const auto& note : notes)
        messages_.add(MessagesPanel::Level::Info, note);
    for (const auto& warning : info.warnings)
        messages_.add(MessagesPanel::Level::Warning, QString::fromStdString(warning));
}

} // namespace bif::ui
