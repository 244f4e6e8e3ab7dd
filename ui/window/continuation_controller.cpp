// clang-format off
// The engine's continuation headers before any Qt header: they name methods `slots`, Qt's keyword.
#include "engine/continuation/equilibrium_study_run.h"
#include "engine/continuation/orbit_study_run.h"
#include "ui/window/continuation_controller.h"
// clang-format on

#include "ui/plot/result_figure.h"
#include "ui/window/branch_tab.h"
#include "ui/window/continuation_seed.h"
#include "ui/window/messages_panel.h"
#include "ui/window/result_tab.h"
#include "ui/window/status_panel.h"

namespace bif::ui {

namespace {

QStringList notes_of(const jobs::ContinuationOutcome& o) {
    QStringList notes;
    const std::vector<std::string>* list = o.orbit        ? &o.orbit->notes
                                           : o.equilibria ? &o.equilibria->notes
                                                          : nullptr;
    if (list)
        for (const auto& n : *list)
            notes << QString::fromStdString(n);
    return notes;
}

QString special_points(const plot::Overlays& overlays) {
    QStringList found;
    for (const auto& o : overlays)
        for (const auto& p : o.points)
            if (!p.label.isEmpty() && p.label != QStringLiteral("EP"))
                found << QStringLiteral("%1 at %2 = %3")
                             .arg(p.label, o.parameter, plot::overlay_number(p.parameter));
    found.removeDuplicates(); // overlapping branches share their special points
    return found.isEmpty() ? QObject::tr("no special point") : found.join(QStringLiteral(", "));
}

} // namespace

ContinuationController::ContinuationController(StatusPanel& status, MessagesPanel& messages, QObject* parent)
    : QObject(parent), runner_(this), status_(status), messages_(messages) {
    connect(&runner_, &ContinuationRunner::finished, this, &ContinuationController::onFinished);
    connect(&status_, &StatusPanel::cancelRequested, this, &ContinuationController::cancel);
}

void ContinuationController::run(BranchTab* tab,
                                 std::shared_ptr<const study::ResolvedEquilibriumStudy> study) {
    start({tab, nullptr, std::move(study)}, tab->title());
}

bool ContinuationController::continueFrom(ResultTab* tab, std::size_t system, QPointF data) {
    const auto fail = [this](const QString& why) {
        messages_.add(MessagesPanel::Level::Warning, tr("No continuation from here: %1").arg(why));
        return false;
    };
    plot::ResultFigure* figure = tab->figure();
    if (!tab->result() || !figure) return fail(tr("the diagram's run has not finished"));
    QString why;
    const auto e =
        continuation_from_diagram(*tab->study(), *tab->result(), system, figure->yLabel(), data.y(), why);
    if (!e) return fail(why);
    const auto resolved = study::resolve_equilibrium_study(*e, tab->study()->base_directory);
    if (!resolved.resolved) {
        for (const auto& p : resolved.problems)
            if (p.severity == study::ProblemSeverity::Error) return fail(QString::fromStdString(p.format()));
        return fail(tr("the continuation study cannot be resolved"));
    }
    start({nullptr, tab, resolved.resolved},
          tr("the orbit of period %1 from %2 = %3")
              .arg(e->orbit.k)
              .arg(QString::fromStdString(e->parameter), plot::figure_number(data.x())));
    return true;
}

std::shared_ptr<const study::ResolvedEquilibriumStudy>
ContinuationController::continuationOf(const plot::BranchOverlay& branch, const std::string& base_directory) {
    const auto fail = [this](const QString& why) {
        messages_.add(MessagesPanel::Level::Warning, tr("The branch does not continue: %1").arg(why));
        return nullptr;
    };
    QString why;
    const auto e = continuation_from_branch(branch, why);
    if (!e) return fail(why);
    const auto resolved = study::resolve_equilibrium_study(*e, base_directory);
    if (!resolved.resolved) {
        for (const auto& p : resolved.problems)
            if (p.severity == study::ProblemSeverity::Error) return fail(QString::fromStdString(p.format()));
        return fail(tr("the continuation study cannot be resolved"));
    }
    return resolved.resolved;
}

QString ContinuationController::describeContinuation(const plot::BranchOverlay& branch) const {
    return tr("%1 from %2 = %3")
        .arg(branch.name, branch.parameter, plot::figure_number(branch.points.back().parameter));
}

bool ContinuationController::continueDrawn(const plot::Overlays& branches, std::size_t index,
                                           const std::string& base_directory, Target target) {
    if (index >= branches.size()) {
        messages_.add(MessagesPanel::Level::Warning,
                      tr("The branch does not continue: %1").arg(tr("it is no longer drawn")));
        return false;
    }
    const plot::BranchOverlay& branch = branches[index];
    target.study = continuationOf(branch, base_directory);
    if (!target.study) return false;
    start(std::move(target), describeContinuation(branch));
    return true;
}

bool ContinuationController::continueBranch(ResultTab* tab, std::size_t index) {
    return continueDrawn(*tab->branches(), index, tab->study()->base_directory, {nullptr, tab, nullptr});
}

bool ContinuationController::continueBranch(BranchTab* tab, std::size_t index) {
    return continueDrawn(*tab->overlays(), index, tab->baseDirectory(), {tab, nullptr, nullptr, true});
}

void ContinuationController::overlay(ResultTab* tab,
                                     std::shared_ptr<const study::ResolvedEquilibriumStudy> study) {
    const QString what =
        QString::fromStdString(study->study.title.empty() ? "a continuation study" : study->study.title);
    start({nullptr, tab, std::move(study)}, what);
}

void ContinuationController::start(Target target, const QString& what) {
    const quint64 id = runner_.run(target.study);
    targets_[id] = std::move(target);
    status_.runStarted(tr("Continuing %1").arg(what));
    status_.showPhase(tr("continuing %1").arg(what));
    messages_.add(MessagesPanel::Level::Info, tr("Continuing %1…").arg(what));
}

void ContinuationController::cancel() {
    runner_.cancel();
}

void ContinuationController::onFinished(quint64 request, jobs::JobState state,
                                        std::shared_ptr<const jobs::ContinuationOutcome> outcome,
                                        const QString& failure) {
    const auto found = targets_.find(request);
    if (found == targets_.end()) return;
    const Target target = found->second;
    targets_.erase(found);
    if (!runner_.busy())
        status_.runEnded(state == jobs::JobState::Succeeded   ? tr("Continuation done")
                         : state == jobs::JobState::Cancelled ? tr("Continuation cancelled")
                                                              : tr("Continuation failed"));
    if (state == jobs::JobState::Failed) {
        messages_.add(MessagesPanel::Level::Error, tr("The continuation failed: %1").arg(failure));
        // A tab that asked for more keeps what it showed; one that waited for its study has nothing.
        if (target.branch_tab && target.add_to_branch_tab)
            target.branch_tab->setOverlays(target.branch_tab->overlays(), false, failure);
        else if (target.branch_tab)
            target.branch_tab->setOverlays(std::make_shared<const plot::Overlays>(), true, failure);
        emit finished(false);
        return;
    }
    auto overlays = std::make_shared<const plot::Overlays>(plot::overlays_of(*outcome, *target.study));
    const QStringList notes = notes_of(*outcome);
    for (const QString& note : notes)
        messages_.add(MessagesPanel::Level::Info, note);
    const QString summary = tr("%n overlay(s); ", "", int(overlays->size())) + special_points(*overlays);
    messages_.add(MessagesPanel::Level::Info, summary);
    const bool cancelled = state == jobs::JobState::Cancelled;
    if (target.branch_tab && target.add_to_branch_tab) {
        // Beside the branches it had; what a cancelled run found counts as found, the rest stays sharp.
        plot::Overlays both = *target.branch_tab->overlays();
        both.insert(both.end(), overlays->begin(), overlays->end());
        target.branch_tab->setOverlays(std::make_shared<const plot::Overlays>(std::move(both)), false,
                                       cancelled ? tr("cancelled: ") + summary : summary);
    } else if (target.branch_tab) {
        target.branch_tab->setOverlays(overlays, cancelled,
                                       cancelled ? tr("cancelled: ") + summary : summary);
    }
    if (target.result_tab) target.result_tab->addBranches(*overlays);
    emit finished(!cancelled);
}

} // namespace bif::ui
