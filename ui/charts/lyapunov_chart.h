// The Lyapunov exponents of a one-axis sweep against the swept value, filled in while the study runs.
//
// Systems arrive in progressive blocks (engine/jobs/result_block.h), coarse pass first and in any
// order; the chart keeps one entry per system, a provisional block's entries are replaced when the
// same systems come again, and the series are rebuilt sorted by the swept value at most every 40 ms
// however fast blocks arrive. Failed systems are left out and counted in a note under the chart.
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"

#include <QTimer>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

class QChart;
class QLabel;
class QLineSeries;
class QAbstractAxis;

namespace bif::ui {

class ChartView;

class LyapunovChart : public QWidget {
    Q_OBJECT
  public:
    explicit LyapunovChart(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent = nullptr);

    void addBlock(const jobs::ResultBlock& block);
    void setResult(const study::Result& result); // replaces everything shown
    void clear();

    // Spectrum studies: every exponent (with a legend) or only the largest.
    void setShowSpectrum(bool all);
    bool showsSpectrum() const { return show_spectrum_; }
    void setStale(bool stale);
    bool isStale() const { return stale_; }

    QImage renderImage(QSize size);
    bool writeSvg(const QString& path, QSize size);

    // For the panels around it and the tests.
    QChart* chart() const;
    const std::vector<QLineSeries*>& exponentSeries() const { return series_; }
    QLineSeries* zeroLine() const { return zero_line_; }
    QAbstractAxis* xAxis() const { return x_axis_; }
    QAbstractAxis* yAxis() const { return y_axis_; }
    bool repaintPending() const { return repaint_timer_.isActive(); }
    std::size_t failedCount() const;
    QString failureNote() const;
    QString hoverText() const;
    // The (swept value, exponents) read-out at a swept value, and the system nearest to it; false
    // when nothing finished yet.
    bool nearestSystem(double swept_value, std::size_t& system) const;

  signals:
    void systemClicked(std::size_t system);

  private:
    struct Entry {
        double x = 0.0;
        std::vector<double> lambdas;
        study::SystemStatus status = study::SystemStatus::NotRun;
    };

    void buildChart();
    void store(const study::Result& result, std::size_t row, std::size_t system);
    void scheduleRepaint();
    void repaint();
    void showHover(QPointF value);
    QString describe(std::size_t system, const Entry& entry) const;

    std::shared_ptr<const study::ResolvedStudy> study_;
    std::size_t exponent_count_ = 1;
    std::map<std::size_t, Entry> entries_;
    bool show_spectrum_ = true;
    bool stale_ = false;

    ChartView* view_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* hover_ = nullptr;
    std::vector<QLineSeries*> series_;
    QLineSeries* zero_line_ = nullptr;
    QAbstractAxis* x_axis_ = nullptr;
    QAbstractAxis* y_axis_ = nullptr;
    QTimer repaint_timer_;
};

} // namespace bif::ui
