#include "ui/charts/trajectory_chart.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/nice_axis.h"

#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace bif::ui {

namespace {

// Line colours that the red section markers stand out against.
const QColor line_colours[] = {QColor(31, 90, 180),  QColor(44, 160, 44),  QColor(148, 103, 189),
                               QColor(255, 127, 14), QColor(23, 190, 207), QColor(127, 127, 127)};

} // namespace

TrajectoryChart::TrajectoryChart(Mode mode, QWidget* parent) : QWidget(parent), mode_(mode) {
    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignTop);
    x_axis_ = make_nice_axis();
    y_axis_ = make_nice_axis();
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    keep_ticks_fitting(*chart);
    view_ = new ChartView(chart, this);

    quantity_button_ = new QToolButton(this);
    quantity_button_->setText(tr("Quantities"));
    quantity_button_->setPopupMode(QToolButton::InstantPopup);
    quantity_menu_ = new QMenu(quantity_button_);
    quantity_button_->setMenu(quantity_menu_);
    x_choice_ = new QComboBox(this);
    y_choice_ = new QComboBox(this);
    x_label_ = new QLabel(tr("x"), this);
    y_label_ = new QLabel(tr("y"), this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(quantity_button_);
    controls->addWidget(x_label_);
    controls->addWidget(x_choice_);
    controls->addWidget(y_label_);
    controls->addWidget(y_choice_);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);

    connect(x_choice_, &QComboBox::currentTextChanged, this, &TrajectoryChart::rebuild);
    connect(y_choice_, &QComboBox::currentTextChanged, this, &TrajectoryChart::rebuild);
    connect(quantity_menu_, &QMenu::triggered, this, [this] {
        selected_.clear();
        for (QAction* action : quantity_menu_->actions())
            if (action->isChecked()) selected_ << action->text();
        rebuild();
    });
    setMode(mode);
}

QChart* TrajectoryChart::chart() const {
    return view_->chart();
}

void TrajectoryChart::setTitle(const QString& title) {
    chart()->setTitle(title);
}

void TrajectoryChart::setMode(Mode mode) {
    mode_ = mode;
    const bool phase = mode == Mode::PhasePortrait;
    quantity_button_->setVisible(!phase);
    for (QWidget* w : std::initializer_list<QWidget*>{x_label_, x_choice_, y_label_, y_choice_})
        w->setVisible(phase);
    rebuild();
}

void TrajectoryChart::setData(std::shared_ptr<const TrajectoryData> data) {
    data_ = std::move(data);
    fillChoices();
    rebuild();
}

void TrajectoryChart::clear() {
    setData(nullptr);
}

// Keeps the user's choices where the new data has the same quantities.
void TrajectoryChart::fillChoices() {
    QStringList names;
    if (data_)
        for (const auto& q : data_->quantities)
            names << QString::fromStdString(q);
    QStringList kept;
    for (const QString& s : selected_)
        if (names.contains(s)) kept << s;
    if (kept.isEmpty() && !names.isEmpty()) kept << names.front();
    selected_ = kept;

    quantity_menu_->clear();
    for (const QString& name : names) {
        QAction* action = quantity_menu_->addAction(name);
        action->setCheckable(true);
        action->setChecked(selected_.contains(name));
    }
    const QString old_x = x_choice_->currentText(), old_y = y_choice_->currentText();
    const QSignalBlocker block_x(x_choice_), block_y(y_choice_);
    x_choice_->clear();
    y_choice_->clear();
    x_choice_->addItems(names);
    y_choice_->addItems(names);
    x_choice_->setCurrentIndex(names.contains(old_x) ? int(names.indexOf(old_x)) : 0);
    y_choice_->setCurrentIndex(names.contains(old_y) ? int(names.indexOf(old_y))
                                                     : std::min(1, int(names.size()) - 1));
}

void TrajectoryChart::setTimeSeriesQuantities(const QStringList& quantities) {
    selected_ = quantities;
    for (QAction* action : quantity_menu_->actions())
        action->setChecked(selected_.contains(action->text()));
    rebuild();
}

void TrajectoryChart::setPhaseAxes(const QString& x, const QString& y) {
    {
        const QSignalBlocker block_x(x_choice_), block_y(y_choice_);
        x_choice_->setCurrentText(x);
        y_choice_->setCurrentText(y);
    }
    rebuild();
}

QString TrajectoryChart::phaseX() const {
    return x_choice_->currentText();
}

QString TrajectoryChart::phaseY() const {
    return y_choice_->currentText();
}

void TrajectoryChart::rebuild() {
    chart()->removeAllSeries();
    lines_.clear();
    marks_ = nullptr;
    if (data_ && !data_->t.empty()) {
        if (mode_ == Mode::TimeSeries)
            drawTimeSeries();
        else
            drawPhasePortrait();
    }
    fitAxes();
}

QLineSeries* TrajectoryChart::addLine(const QString& name, QList<QPointF> points) {
    auto* series = new QLineSeries;
    series->setName(name);
    series->replace(points);
    QPen pen(line_colours[lines_.size() % std::size(line_colours)]);
    pen.setWidthF(1.3);
    series->setPen(pen);
    chart()->addSeries(series);
    series->attachAxis(x_axis_);
    series->attachAxis(y_axis_);
    lines_.push_back(series);
    return series;
}

void TrajectoryChart::addMarks(QList<QPointF> points) {
    if (points.isEmpty()) return;
    if (!marks_) {
        marks_ = new QScatterSeries;
        marks_->setName(tr("section points"));
        marks_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        marks_->setMarkerSize(7.0);
        marks_->setColor(QColor(214, 39, 40));
        marks_->setBorderColor(QColor(90, 10, 10));
        chart()->addSeries(marks_);
        marks_->attachAxis(x_axis_);
        marks_->attachAxis(y_axis_);
    }
    marks_->append(points);
}

void TrajectoryChart::drawTimeSeries() {
    x_axis_->setTitleText(QStringLiteral("t"));
    y_axis_->setTitleText(selected_.size() == 1 ? selected_.front() : QString());
    QList<QPointF> marks;
    for (const QString& name : selected_) {
        const int q = data_->index(name.toStdString());
        if (q < 0) continue;
        QList<QPointF> points;
        points.reserve(qsizetype(data_->t.size()));
        for (std::size_t i = 0; i < data_->t.size(); ++i)
            points.append(QPointF(data_->t[i], data_->values[q][i]));
        addLine(name, std::move(points));
        for (std::size_t m = 0; m < data_->mark_t.size(); ++m)
            marks.append(QPointF(data_->mark_t[m], data_->marks[q][m]));
    }
    addMarks(std::move(marks));
    chart()->legend()->setVisible(selected_.size() > 1 || marks_);
}

void TrajectoryChart::drawPhasePortrait() {
    const int qx = data_->index(phaseX().toStdString());
    const int qy = data_->index(phaseY().toStdString());
    x_axis_->setTitleText(phaseX());
    y_axis_->setTitleText(phaseY());
    if (qx < 0 || qy < 0) return;
    QList<QPointF> points;
    points.reserve(qsizetype(data_->t.size()));
    for (std::size_t i = 0; i < data_->t.size(); ++i)
        points.append(QPointF(data_->values[qx][i], data_->values[qy][i]));
    addLine(tr("trajectory"), std::move(points));
    QList<QPointF> marks;
    for (std::size_t m = 0; m < data_->mark_t.size(); ++m)
        marks.append(QPointF(data_->marks[qx][m], data_->marks[qy][m]));
    addMarks(std::move(marks));
    chart()->legend()->setVisible(marks_ != nullptr);
}

void TrajectoryChart::fitAxes() {
    double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
    const auto take = [&](const QList<QPointF>& points) {
        for (const QPointF& p : points) {
            if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
            x_lo = std::min(x_lo, p.x()), x_hi = std::max(x_hi, p.x());
            y_lo = std::min(y_lo, p.y()), y_hi = std::max(y_hi, p.y());
        }
    };
    for (QLineSeries* line : lines_)
        take(line->points());
    if (marks_) take(marks_->points());
    if (!std::isfinite(x_lo)) x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
    const auto padded = [](double lo, double hi, double fraction) {
        const double pad = hi > lo ? fraction * (hi - lo) : 0.5 * std::max(1.0, std::abs(lo));
        return std::pair(lo - pad, hi + pad);
    };
    const auto [xa, xb] = padded(x_lo, x_hi, mode_ == Mode::TimeSeries ? 0.0 : 0.05);
    const auto [ya, yb] = padded(y_lo, y_hi, 0.05);
    // Time keeps its exact window, so that the curve starts at the left edge.
    set_nice_range(*x_axis_, xa, xb, mode_ == Mode::TimeSeries);
    set_nice_range(*y_axis_, ya, yb);
}

QImage TrajectoryChart::renderImage(QSize size) {
    return render_chart_image(*view_, size);
}

bool TrajectoryChart::writeSvg(const QString& path, QSize size) {
    return write_chart_svg(*view_, path, size, chart()->title());
}

} // namespace bif::ui
