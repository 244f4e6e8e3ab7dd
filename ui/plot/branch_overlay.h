// Branches, curves and equilibria from continuation (engine/jobs/continuation_job.h) as the figures
// draw them over diagrams and maps: per point its position in parameter and state space, its
// stability, its special-point label and the words a hover shows. Plain values, made once from an
// outcome on the UI thread and shared immutably by the painters, the exports and the hover.
#pragma once

#include "engine/jobs/continuation_job.h"
#include "engine/study/equilibrium_study.h"

#include <QPointF>
#include <QString>
#include <QStringList>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace bif::plot {

enum class OverlayKind {
    Branch, // equilibria or orbits along one parameter: x the parameter, y a state (or the norm)
    Curve,  // fold or Hopf points along two parameters: x and y the parameters
    Points  // equilibria at fixed parameters: x and y two states
};

struct OverlayPoint {
    double parameter = 0.0;
    double second = std::numeric_limits<double>::quiet_NaN(); // curves: the second parameter
    std::vector<double> state;                                // orbits: the point at phase 0
    bool stable = true;
    QString label;   // LP, H, BP, PD, NS, EP, or empty
    QString details; // eigenvalues or multipliers and stability, in words, for the hover
};

struct BranchOverlay {
    QString name; // "orbit, period 1", "equilibrium 2", "H curve 0"
    OverlayKind kind = OverlayKind::Branch;
    QString parameter;        // x of a branch or curve
    QString second_parameter; // curves
    QStringList states;       // the model's state names, in OverlayPoint::state's order
    std::vector<OverlayPoint> points;
    // The continuation study that computed it (kept with the document, so that "continue" can go on
    // from its settings); null where unknown.
    std::shared_ptr<const study::EquilibriumStudy> seed;
};

using Overlays = std::vector<BranchOverlay>;

// The names on a figure's axes: the swept parameter and the quantity shown (diagram) or the second
// parameter (map).
struct OverlayAxes {
    QString x, y;
};

// The y quantity that stands for the Euclidean norm of the state.
inline const QString norm_quantity = QStringLiteral("|state|");

// Where the point lies on axes named `axes`; none where the overlay has nothing on them (another
// parameter, a quantity that is not a state).
std::optional<QPointF> overlay_position(const BranchOverlay& overlay, const OverlayPoint& point,
                                        const OverlayAxes& axes);
// Whether any point of the overlay lies on those axes.
bool overlay_fits(const BranchOverlay& overlay, const OverlayAxes& axes);

// Hover text: "LP  b = 0.5123, y1 = 1.02, y2 = -0.3 · multipliers 0.999, 0.02 · stable".
QString describe_point(const BranchOverlay& overlay, const OverlayPoint& point);

// Every branch, curve or set of equilibria the outcome holds, named after the study.
Overlays overlays_of(const jobs::ContinuationOutcome& outcome, const study::ResolvedEquilibriumStudy& study);

// A value as the overlays print it: 6 significant digits (a special point's place is what it tells).
QString overlay_number(double v);

} // namespace bif::plot
