#include "ui/window/result_tab.h"

#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"
#include "engine/study/result_csv.h"
#include "engine/study/study_json.h"
#include "ui/plot/branch_csv.h"
#include "ui/plot/figure_title.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/save_output.h"
#include "ui/window/continuation_seed.h"
#include "ui/window/result_view.h"

#include <QFileInfo>
#include <QMenu>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace bif::ui {

// One change of a tab's overlays: the lists before and after, both immutable.
class BranchChange : public QUndoCommand {
  public:
    BranchChange(ResultTab& tab, std::shared_ptr<const plot::Overlays> before,
                 std::shared_ptr<const plot::Overlays> after, const QString& text)
        : QUndoCommand(text), tab_(tab), before_(std::move(before)), after_(std::move(after)) {}
    void redo() override { tab_.showBranches(after_); }
    void undo() override { tab_.showBranches(before_); }

  private:
    ResultTab& tab_;
    std::shared_ptr<const plot::Overlays> before_, after_;
};

ResultTab::ResultTab(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent)
    : QWidget(parent), first_study_(study), study_(study), view_(make_result_view(study, this)),
      branches_(std::make_shared<const plot::Overlays>()), branch_history_(new QUndoStack(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_->widget());
    connect(view_.get(), &ResultView::zoomRequested, this, &ResultTab::onZoom);
    connect(view_.get(), &ResultView::hoverText, this, &ResultTab::hoverText);
    connect(view_.get(), &ResultView::renderPathChanged, this, &ResultTab::renderPathChanged);
    connect(view_.get(), &ResultView::systemClicked, this, [this](std::size_t system) {
        if (system < study_->system_count()) emit systemClicked(study_, system);
    });
    connect(view_.get(), &ResultView::pointMenuRequested, this, &ResultTab::showPointMenu);
    connect(view_.get(), &ResultView::continueRequested, this, &ResultTab::continueAt);
}

void ResultTab::showBranches(std::shared_ptr<const plot::Overlays> branches) {
    branches_ = std::move(branches);
    view_->setBranches(branches_);
    emit branchesChanged(branches_);
}

void ResultTab::setInitialBranches(std::shared_ptr<const plot::Overlays> branches) {
    branch_history_->clear();
    showBranches(branches ? std::move(branches) : std::make_shared<const plot::Overlays>());
}

void ResultTab::addBranches(const plot::Overlays& added) {
    if (added.empty()) return;
    auto after = std::make_shared<plot::Overlays>(*branches_);
    after->insert(after->end(), added.begin(), added.end());
    branch_history_->push(
        new BranchChange(*this, branches_, std::move(after), tr("Add %1").arg(added.front().name)));
}

void ResultTab::removeBranch(std::size_t index) {
    if (index >= branches_->size()) return;
    auto after = std::make_shared<plot::Overlays>(*branches_);
    const QString name = (*after)[index].name;
    after->erase(after->begin() + std::ptrdiff_t(index));
    branch_history_->push(new BranchChange(*this, branches_, std::move(after), tr("Remove %1").arg(name)));
}

void ResultTab::removeAllBranches() {
    if (branches_->empty()) return;
    branch_history_->push(new BranchChange(*this, branches_, std::make_shared<const plot::Overlays>(),
                                           tr("Remove every branch")));
}

void ResultTab::continueAt(QPointF data) {
    plot::ResultFigure* f = figure();
    if (!f || f->kind() != plot::FigureKind::Diagram) return;
    if (const auto system = f->systemAt(data.x(), data.y())) emit continueRequested(this, *system, data);
}

void ResultTab::showPointMenu(QPointF data, QPoint global) {
    QMenu menu(this);
    menu.setToolTipsVisible(true); // why an action is disabled
    plot::ResultFigure* f = figure();
    QAction* go = menu.addAction(tr("Continue from here"), this, [this, data] { continueAt(data); });
    go->setShortcut(QKeySequence(Qt::Key_B));
    go->setEnabled(f && f->kind() == plot::FigureKind::Diagram && result_);
    if (!result_) go->setToolTip(tr("The diagram's run has not finished"));
    menu.addAction(tr("Overlay a continuation study…"), this, [this] { emit overlayStudyRequested(this); });
    if (!branches_->empty()) {
        menu.addSeparator();
        for (std::size_t i = 0; i < branches_->size(); ++i) {
            QString why;
            QAction* more = menu.addAction(tr("Continue this branch: %1").arg((*branches_)[i].name), this,
                                           [this, i] { continueBranch(i); });
            more->setEnabled(continuation_from_branch((*branches_)[i], why).has_value());
            more->setToolTip(why.isEmpty() ? tr("Runs its continuation study again from its last point")
                                           : why);
        }
        for (std::size_t i = 0; i < branches_->size(); ++i)
            menu.addAction(tr("Remove %1").arg((*branches_)[i].name), this, [this, i] { removeBranch(i); });
        menu.addAction(tr("Remove every branch"), this, &ResultTab::removeAllBranches);
    }
    menu.addSeparator();
    menu.addAction(branch_history_->createUndoAction(&menu, tr("Undo")));
    menu.addAction(branch_history_->createRedoAction(&menu, tr("Redo")));
    menu.exec(global);
}

ResultTab::~ResultTab() = default;

QString ResultTab::title() const {
    return plot::study_title(study_->study);
}

bool ResultTab::zoomable() const {
    return view_->zoomable();
}

plot::ResultFigure* ResultTab::figure() const {
    return view_->figure();
}

QString ResultTab::renderPath() const {
    return view_->renderPath();
}

void ResultTab::beginRun(std::shared_ptr<const study::ResolvedStudy> study, bool kept) {
    study_ = std::move(study);
    result_.reset();
    markStale(false);
    if (kept)
        view_->beginKept(study_);
    else
        view_->begin(study_);
}

std::optional<int> ResultTab::keptMapDevice() const {
    return view_->keptMapDevice();
}

void ResultTab::addBlock(const std::shared_ptr<const jobs::ResultBlock>& block) {
    view_->addBlock(*block);
}

void ResultTab::endRun(jobs::JobState state, std::shared_ptr<const study::Result> result) {
    result_ = std::move(result);
    if (result_) view_->setResult(result_);
    markStale(state != jobs::JobState::Succeeded);
    if (state == jobs::JobState::Succeeded) remember();
}

void ResultTab::remember() {
    std::erase_if(cache_, [&](const Shown& s) { return s.study == study_; });
    cache_.push_back({study_, result_});
    if (cache_.size() > cache_limit) cache_.erase(cache_.begin());
}

namespace {

std::string without_sweep(study::Study s) {
    s.sweep.clear();
    return study::write_study_json(s);
}

// Whether `view` asks for the grid `shown` already holds: the same study but for the sweep's
// resolution, each range end within half a grid cell (a view's range is rounded to its pixels).
bool same_view(const study::Study& shown, const study::Study& view) {
    if (shown.sweep.size() != view.sweep.size() || without_sweep(shown) != without_sweep(view)) return false;
    for (std::size_t i = 0; i < shown.sweep.size(); ++i) {
        const study::SweepAxis& a = shown.sweep[i];
        const study::SweepAxis& b = view.sweep[i];
        if (a.name != b.name || a.target != b.target || a.scale != b.scale) return false;
        const bool log = a.scale == study::SweepScale::Log;
        const auto at = [log](double v) { return log ? std::log(v) : v; };
        const double cell = std::abs(at(a.to) - at(a.from)) / std::max(1, a.count - 1);
        if (std::abs(at(a.from) - at(b.from)) > 0.5 * cell || std::abs(at(a.to) - at(b.to)) > 0.5 * cell)
            return false;
    }
    return true;
}

} // namespace

void ResultTab::onZoom(const study::Study& zoomed) {
    if (same_view(study_->study, zoomed)) return; // the grid on screen: the view only rebinned
    const auto cached = std::find_if(cache_.begin(), cache_.end(),
                                     [&](const Shown& s) { return same_view(s.study->study, zoomed); });
    if (cached == cache_.end()) return emit zoomRequested(zoomed);
    // Shown before: back on screen at once, no run.
    study_ = cached->study;
    result_ = cached->result;
    markStale(false);
    view_->begin(study_);
    view_->setResult(result_);
    emit restored();
}

void ResultTab::markStale(bool stale) {
    stale_ = stale;
    view_->setStale(stale);
}

QImage ResultTab::renderImage(QSize size) const {
    return view_->renderImage(size);
}

bool ResultTab::writeSvg(const QString& path, QSize size) const {
    return view_->writeSvg(path, size);
}

bool ResultTab::writeCsv(const QString& path, QString& error) const {
    if (!result_) return error = tr("the run has not finished"), false;
    std::ostringstream text;
    try {
        // a map or a diagram's points kept on a device come to the host for its export alone
        std::optional<study::Result> downloaded;
        if (result_->kept) downloaded = study::download_kept(*study_, *result_->kept);
        if (result_->kept_points) downloaded = study::download_kept_points(*result_);
        study::write_result_csv(text, downloaded ? *downloaded : *result_,
                                study::write_study_json(study_->study));
    } catch (const std::exception& e) {
        return error = tr("cannot export the result: %1").arg(QString::fromStdString(e.what())), false;
    }
    const std::string bytes = text.str();
    error = plot::save_output(path, QByteArray::fromStdString(bytes));
    if (error.isEmpty() && !branches_->empty())
        error = plot::save_output(branchCsvPath(path), plot::branch_csv(*branches_));
    return error.isEmpty();
}

QString ResultTab::branchCsvPath(const QString& path) {
    const QString base = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive) ? path.chopped(4) : path;
    return base + QStringLiteral(".branches.csv");
}

void ResultTab::back() {
    view_->back();
}
void ResultTab::forward() {
    view_->forward();
}
void ResultTab::resetView() {
    view_->resetView();
}

} // namespace bif::ui
