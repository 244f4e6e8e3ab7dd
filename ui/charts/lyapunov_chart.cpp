#include "ui/charts/lyapunov_chart.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/nice_axis.h"

#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsColorizeEffect>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace bif::ui {

namespace {

constexpr int repaint_delay_ms = 40;
// Below this many systems each one gets a marker, so that a coarse pass or a short sweep is visible.
constexpr std::size_t marker_limit = 64;
// Strong, distinguishable line colours on white (the default theme's first green is too pale).
const QColor series_colours[] = {QColor(31, 90, 180),   QColor(214, 39, 40),  QColor(44, 160, 44),
                                 QColor(148, 103, 189), QColor(255, 127, 14), QColor(23, 190, 207)};

QString swept_name(const study::ResolvedStudy& study) {
    if (study.axes.empty()) return QStringLiteral("system");
    const auto& axis = study.axes.front();
    const QString name = QString::fromStdString(axis.name);
    return axis.target == study::SweepTarget::InitialValue ? name + QStringLiteral("(0)") : name;
}

} // namespace

LyapunovChart::LyapunovChart(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent)
    : QWidget(parent), study_(std::move(study)) {
    if (study_->study.lyapunov.mode == study::LyapunovMode::Spectrum)
        exponent_count_ = study_->model->states.size();
    repaint_timer_.setSingleShot(true);
    repaint_timer_.setInterval(repaint_delay_ms);
    connect(&repaint_timer_, &QTimer::timeout, this, &LyapunovChart::repaint);

    auto* chart = new QChart;
    keep_ticks_fitting(*chart);
    view_ = new ChartView(chart, this);
    note_ = new QLabel(this);
    hover_ = new QLabel(this);
    hover_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel* label : {hover_, note_})
        label->setContentsMargins(8, 0, 8, 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_, 1);
    layout->addWidget(hover_);
    layout->addWidget(note_);
    buildChart();

    connect(view_, &ChartView::hovered, this, [this](QPointF value, QPointF pixel) {
        showHover(value);
        QToolTip::showText(view_->mapToGlobal(pixel.toPoint()), hover_->text(), view_);
    });
    connect(view_, &ChartView::left, hover_, &QLabel::clear);
    connect(view_, &ChartView::clicked, this, [this](QPointF value, QPointF) {
        std::size_t system = 0;
        if (nearestSystem(value.x(), system)) emit systemClicked(system);
    });
    repaint();
}

QChart* LyapunovChart::chart() const {
    return view_->chart();
}

void LyapunovChart::buildChart() {
    QChart* chart = view_->chart();
    chart->setTitle(QString::fromStdString(study_->study.title));
    chart->setMargins(QMargins(4, 4, 4, 4));

    const bool log_x =
        !study_->study.sweep.empty() && study_->study.sweep.front().scale == study::SweepScale::Log;
    if (log_x) {
        auto* axis = new QLogValueAxis;
        axis->setLabelFormat("%g");
        axis->setMinorTickCount(-1);
        x_axis_ = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat("%g");
        x_axis_ = axis;
    }
    x_axis_->setTitleText(swept_name(*study_));
    auto* y_axis = make_nice_axis();
    y_axis->setTitleText(QStringLiteral("λ (1/time)"));
    y_axis_ = y_axis;
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);

    if (study_->grid.axis_count() > 0) {
        const auto& values = study_->grid.values(0);
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        double from = *lo, to = *hi;
        if (from == to) from -= 0.5 * std::max(1.0, std::abs(from)), to += 0.5 * std::max(1.0, std::abs(to));
        if (log_x && from <= 0) from = to / 10;
        x_axis_->setRange(from, to);
    } else {
        x_axis_->setRange(-0.5, double(study_->system_count()) - 0.5);
    }

    zero_line_ = new QLineSeries;
    zero_line_->setName(QStringLiteral("zero"));
    QPen dashed(QColor(90, 90, 90));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.0);
    zero_line_->setPen(dashed);
    chart->addSeries(zero_line_);
    zero_line_->attachAxis(x_axis_);
    zero_line_->attachAxis(y_axis_);

    for (std::size_t k = 0; k < exponent_count_; ++k) {
        auto* series = new QLineSeries;
        series->setName(QStringLiteral("λ%1").arg(k + 1));
        QPen pen(series_colours[k % std::size(series_colours)]);
        pen.setWidthF(1.6);
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
        series_.push_back(series);
    }
    for (QLegendMarker* marker : chart->legend()->markers(zero_line_))
        marker->setVisible(false);
    chart->legend()->setVisible(exponent_count_ > 1);
    chart->legend()->setAlignment(Qt::AlignRight);
}

void LyapunovChart::store(const study::Result& result, std::size_t row, std::size_t system) {
    Entry entry;
    entry.status = result.status[row];
    entry.x = result.axes.empty() ? double(system) : result.axes.front().values[row];
    for (std::size_t k = 0; k < exponent_count_; ++k) {
        const auto* column = result.scalar("lambda" + std::to_string(k + 1));
        entry.lambdas.push_back(column ? column->values[row] : study::missing_value);
    }
    entries_[system] = std::move(entry);
}

void LyapunovChart::addBlock(const jobs::ResultBlock& block) {
    if (!block.result) return;
    for (std::size_t i = 0; i < block.systems.size(); ++i)
        store(*block.result, i, block.systems[i]);
    scheduleRepaint();
}

void LyapunovChart::setResult(const study::Result& result) {
    entries_.clear();
    for (std::size_t s = 0; s < result.system_count; ++s)
        store(result, s, s);
    scheduleRepaint();
}

void LyapunovChart::clear() {
    entries_.clear();
    scheduleRepaint();
}

void LyapunovChart::setShowSpectrum(bool all) {
    show_spectrum_ = all;
    scheduleRepaint();
}

void LyapunovChart::setStale(bool stale) {
    stale_ = stale;
    if (stale) {
        auto* effect = new QGraphicsColorizeEffect;
        effect->setColor(QColor(150, 150, 150));
        effect->setStrength(0.85);
        view_->setGraphicsEffect(effect);
    } else {
        view_->setGraphicsEffect(nullptr);
    }
}

void LyapunovChart::scheduleRepaint() {
    if (!repaint_timer_.isActive()) repaint_timer_.start();
}

std::size_t LyapunovChart::failedCount() const {
    return std::size_t(std::count_if(entries_.begin(), entries_.end(),
                                     [](const auto& e) { return study::is_failure(e.second.status); }));
}

QString LyapunovChart::failureNote() const {
    return note_->text();
}

QString LyapunovChart::hoverText() const {
    return hover_->text();
}

void LyapunovChart::repaint() {
    std::vector<const Entry*> shown;
    for (const auto& [system, entry] : entries_)
        if (entry.status == study::SystemStatus::Ok || entry.status == study::SystemStatus::StoppedByModel)
            shown.push_back(&entry);
    std::sort(shown.begin(), shown.end(), [](const Entry* a, const Entry* b) { return a->x < b->x; });

    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t k = 0; k < series_.size(); ++k) {
        const bool visible = k == 0 || show_spectrum_;
        QList<QPointF> points;
        if (visible) {
            points.reserve(qsizetype(shown.size()));
            for (const Entry* e : shown) {
                const double v = e->lambdas[k];
                if (!std::isfinite(v)) continue;
                points.append(QPointF(e->x, v));
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        series_[k]->replace(points);
        series_[k]->setVisible(visible);
        series_[k]->setPointsVisible(shown.size() <= marker_limit);
        for (QLegendMarker* marker : chart()->legend()->markers(series_[k]))
            marker->setVisible(visible);
    }
    if (!std::isfinite(lo)) lo = -1, hi = 1;
    lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    const double pad = 0.06 * std::max(hi - lo, 1e-3);
    auto* y_axis = static_cast<QCategoryAxis*>(y_axis_);
    set_nice_range(*y_axis, lo - pad, hi + pad);

    const auto* x_range = x_axis_;
    const double x_from = x_range->type() == QAbstractAxis::AxisTypeLogValue
                              ? static_cast<const QLogValueAxis*>(x_range)->min()
                              : static_cast<const QValueAxis*>(x_range)->min();
    const double x_to = x_range->type() == QAbstractAxis::AxisTypeLogValue
                            ? static_cast<const QLogValueAxis*>(x_range)->max()
                            : static_cast<const QValueAxis*>(x_range)->max();
    zero_line_->replace({QPointF(x_from, 0.0), QPointF(x_to, 0.0)});

    const std::size_t failed = failedCount();
    note_->setText(failed == 1  ? tr("1 system failed and is left out.")
                   : failed > 1 ? tr("%1 systems failed and are left out.").arg(failed)
                                : QString());
    note_->setVisible(failed > 0);
}

bool LyapunovChart::nearestSystem(double swept_value, std::size_t& system) const {
    const bool log_x = x_axis_->type() == QAbstractAxis::AxisTypeLogValue;
    const auto distance = [&](double x) {
        return log_x && x > 0 && swept_value > 0 ? std::abs(std::log(x / swept_value))
                                                 : std::abs(x - swept_value);
    };
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [s, entry] : entries_) {
        if (entry.status == study::SystemStatus::NotRun) continue;
        const double d = distance(entry.x);
        if (d < best) best = d, system = s;
    }
    return std::isfinite(best);
}

QString LyapunovChart::describe(std::size_t system, const Entry& entry) const {
    QString text = QStringLiteral("%1 = %2").arg(swept_name(*study_)).arg(entry.x, 0, 'g', 6);
    if (study::is_failure(entry.status))
        return text + QStringLiteral(": ") + QString::fromUtf8(study::name_of(entry.status));
    QStringList values;
    for (std::size_t k = 0; k < entry.lambdas.size(); ++k)
        values << QStringLiteral("λ%1 = %2").arg(k + 1).arg(entry.lambdas[k], 0, 'g', 5);
    return text + QStringLiteral(": ") + values.join(QStringLiteral(", ")) +
           QStringLiteral("  (system %1)").arg(system);
}

void LyapunovChart::showHover(QPointF value) {
    std::size_t system = 0;
    if (!nearestSystem(value.x(), system)) {
        hover_->clear();
        return;
    }
    hover_->setText(describe(system, entries_.at(system)));
}

QImage LyapunovChart::renderImage(QSize size) {
    if (repaint_timer_.isActive()) repaint_timer_.stop(), repaint();
    return render_chart_image(*view_, size);
}

bool LyapunovChart::writeSvg(const QString& path, QSize size) {
    if (repaint_timer_.isActive()) repaint_timer_.stop(), repaint();
    return write_chart_svg(*view_, path, size, chart()->title());
}

} // namespace bif::ui
