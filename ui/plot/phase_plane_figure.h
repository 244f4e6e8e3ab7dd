// The picture of a phase plane, drawn with QPainter into any rectangle (the panel, PNG, SVG,
// `bifscope-cli plot`): title, axes with nice ticks, the direction field as grey arrows, the two
// nullclines in two colours, the trajectories, the equilibria marked by type, and a legend.
// No widgets: the panel and the command line share it.
#pragma once

#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

class QPainter;
class QPaintDevice;

namespace bif::plot {

// What one picture of a phase plane shows. The window is the portrait's, or `window` before the
// first portrait came.
struct PhasePlaneScene {
    QString title;
    QString x_name, y_name;
    analysis::PlaneWindow window;
    std::shared_ptr<const analysis::PhasePortrait> portrait;
    std::vector<analysis::PlanarTrajectory> trajectories;
};

class PhasePlaneFigure {
  public:
    static inline const QColor x_nullcline_colour{0xd0, 0x50, 0x10};
    static inline const QColor y_nullcline_colour{0x20, 0x60, 0xc0};

    explicit PhasePlaneFigure(const PhasePlaneScene& scene, QFont font = QFont());

    // The plot area inside `target` (the axes' frame); `device` gives the font metrics.
    QRectF plotRect(const QRectF& target, const QPaintDevice* device = nullptr) const;
    void paint(QPainter& painter, const QRectF& target) const;

    // Between plane coordinates and positions in the plot area.
    QPointF toPixel(const QRectF& plot, analysis::PlanePoint p) const;
    analysis::PlanePoint toPlane(const QRectF& plot, QPointF pixel) const;
    // The equilibrium drawn within `radius` pixels of `pixel`, if any.
    std::optional<analysis::Equilibrium> equilibriumNear(const QRectF& plot, QPointF pixel,
                                                         double radius = 8) const;

  private:
    void paintAxes(QPainter& p, const QRectF& plot) const;
    void paintField(QPainter& p, const QRectF& plot) const;
    void paintCurves(QPainter& p, const QRectF& plot) const;
    void paintEquilibria(QPainter& p, const QRectF& plot) const;
    void paintLegend(QPainter& p, const QRectF& area) const;

    const PhasePlaneScene& scene_;
    QFont font_;
};

// The marker of an equilibrium type at `centre`: filled disc (stable node or focus), open circle
// (unstable), open square with a cross (saddle), ring with a dot (centre), triangle (degenerate).
void paint_equilibrium_marker(QPainter& p, QPointF centre, analysis::EquilibriumType type, double radius);

QImage render_phase_plane(const PhasePlaneScene& scene, QSize size);
// Empty on success, else why it failed.
QString export_phase_plane_png(const PhasePlaneScene& scene, QSize size, const QString& path);
QString export_phase_plane_svg(const PhasePlaneScene& scene, QSize size, const QString& path);
// The nullclines, trajectories and equilibria as CSV (engine/analysis/phase_plane_csv.h).
QString export_phase_plane_csv(const PhasePlaneScene& scene, const QString& path);

} // namespace bif::plot
