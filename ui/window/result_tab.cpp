#include "ui/window/result_tab.h"

#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"
#include "engine/study/result_csv.h"
#include "engine/study/study_json.h"
#include "ui/plot/figure_title.h"
#include "ui/plot/save_output.h"
#include "ui/window/result_view.h"

#include <QFileInfo>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace bif::ui {

ResultTab::ResultTab(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent)
    : QWidget(parent), first_study_(study), study_(study), view_(make_result_view(study, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_->widget());
    connect(view_.get(), &ResultView::zoomRequested, this, &ResultTab::onZoom);
    connect(view_.get(), &ResultView::hoverText, this, &ResultTab::hoverText);
    connect(view_.get(), &ResultView::renderPathChanged, this, &ResultTab::renderPathChanged);
    connect(view_.get(), &ResultView::systemClicked, this, [this](std::size_t system) {
        if (system < study_->system_count()) emit systemClicked(study_, system);
    });
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
    return error.isEmpty();
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
