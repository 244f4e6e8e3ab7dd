// A trajectory drawn as a time series (several quantities at once, chosen from a menu) or as a phase
// portrait (x and y quantities chosen from combo boxes), with the section points marked.
#pragma once

#include "ui/charts/trajectory_data.h"

#include <QStringList>
#include <QWidget>
#include <memory>

class QChart;
class QComboBox;
class QLabel;
class QLineSeries;
class QMenu;
class QScatterSeries;
class QToolButton;
class QCategoryAxis;

namespace bif::ui {

class ChartView;

class TrajectoryChart : public QWidget {
    Q_OBJECT
  public:
    enum class Mode { TimeSeries, PhasePortrait };

    explicit TrajectoryChart(Mode mode = Mode::TimeSeries, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TrajectoryData> data);
    void clear();
    void setTitle(const QString& title);

    void setMode(Mode mode);
    Mode mode() const { return mode_; }
    void setTimeSeriesQuantities(const QStringList& quantities);
    QStringList timeSeriesQuantities() const { return selected_; }
    void setPhaseAxes(const QString& x, const QString& y);
    QString phaseX() const;
    QString phaseY() const;

    QImage renderImage(QSize size);
    bool writeSvg(const QString& path, QSize size);

    QChart* chart() const;
    const std::vector<QLineSeries*>& lines() const { return lines_; }
    QScatterSeries* markSeries() const { return marks_; }

  private:
    void rebuild();
    void drawTimeSeries();
    void drawPhasePortrait();
    void fillChoices();
    QLineSeries* addLine(const QString& name, QList<QPointF> points);
    void addMarks(QList<QPointF> points);
    void fitAxes();

    Mode mode_;
    std::shared_ptr<const TrajectoryData> data_;
    QStringList selected_;
    ChartView* view_ = nullptr;
    QToolButton* quantity_button_ = nullptr;
    QMenu* quantity_menu_ = nullptr;
    QLabel* x_label_ = nullptr;
    QLabel* y_label_ = nullptr;
    QComboBox* x_choice_ = nullptr;
    QComboBox* y_choice_ = nullptr;
    QCategoryAxis* x_axis_ = nullptr;
    QCategoryAxis* y_axis_ = nullptr;
    std::vector<QLineSeries*> lines_;
    QScatterSeries* marks_ = nullptr;
};

} // namespace bif::ui
