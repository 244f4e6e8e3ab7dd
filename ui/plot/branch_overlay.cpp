// clang-format off
// The engine's continuation headers before any Qt header: they name methods `slots`, Qt's keyword.
#include "engine/continuation/equilibrium_study_run.h"
#include "engine/continuation/orbit_study_run.h"
#include "ui/plot/branch_overlay.h"
// clang-format on

#include <QObject>
#include <complex>

namespace bif::plot {

namespace {

QString complex_text(std::complex<double> z) {
    if (z.imag() == 0.0) return overlay_number(z.real());
    return QStringLiteral("%1%2%3i").arg(overlay_number(z.real()),
                                         z.imag() < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                         overlay_number(std::abs(z.imag())));
}

QString eigenvalue_text(const Eigen::VectorXcd& values) {
    QStringList parts;
    for (Eigen::Index i = 0; i < values.size(); ++i)
        parts << complex_text(values[i]);
    return parts.join(QStringLiteral(", "));
}

QString multiplier_text(const cont::OrbitStability& s) {
    QStringList parts;
    for (const auto& m : s.multipliers)
        parts << (std::isfinite(std::abs(m.value)) && std::abs(m.value) > 0.0
                      ? complex_text(m.value)
                      : QStringLiteral("|μ| = e^%1").arg(overlay_number(m.log_modulus)));
    return parts.join(QStringLiteral(", "));
}

QStringList names_of(const model::Model& model) {
    QStringList names;
    for (const auto& s : model.states)
        names << QString::fromStdString(s.name);
    return names;
}

BranchOverlay equilibrium_branch(const cont::EquilibriumBranch& b, const study::ResolvedEquilibriumStudy& r,
                                 std::size_t index) {
    BranchOverlay o;
    o.name = QObject::tr("equilibrium branch %1").arg(index);
    o.parameter = QString::fromStdString(r.study.parameter);
    o.states = names_of(*r.model);
    for (const auto& p : b.points) {
        OverlayPoint q;
        q.parameter = p.parameter;
        q.state = p.state;
        q.stable = p.stability.is_stable();
        q.label = QString::fromStdString(p.label);
        q.details =
            QObject::tr("eigenvalues %1 · %2")
                .arg(eigenvalue_text(p.eigenvalues), QString::fromLatin1(cont::name_of(p.stability.type)));
        if (std::isfinite(p.first_lyapunov))
            q.details +=
                QObject::tr(" · first Lyapunov coefficient %1 (%2)")
                    .arg(overlay_number(p.first_lyapunov),
                         p.first_lyapunov < 0 ? QObject::tr("supercritical") : QObject::tr("subcritical"));
        o.points.push_back(std::move(q));
    }
    return o;
}

BranchOverlay curve_of(const cont::EquilibriumStudyOutcome::Curve& c,
                       const study::ResolvedEquilibriumStudy& r, std::size_t index) {
    BranchOverlay o;
    o.kind = OverlayKind::Curve;
    o.name = QObject::tr("%1 curve %2").arg(QString::fromStdString(c.kind)).arg(index);
    o.parameter = QString::fromStdString(r.study.parameter);
    o.second_parameter = QString::fromStdString(r.study.second_parameter);
    o.states = names_of(*r.model);
    for (const auto& p : c.curve.points) {
        OverlayPoint q;
        q.parameter = p.alpha;
        q.second = p.beta;
        q.state = p.state;
        q.label = QString::fromStdString(p.label);
        q.details = QObject::tr("%1 point").arg(QString::fromStdString(c.kind));
        o.points.push_back(std::move(q));
    }
    return o;
}

BranchOverlay equilibria_of(const std::vector<cont::Equilibrium>& equilibria,
                            const study::ResolvedEquilibriumStudy& r) {
    BranchOverlay o;
    o.kind = OverlayKind::Points;
    o.name = QObject::tr("equilibria");
    o.states = names_of(*r.model);
    for (const auto& e : equilibria) {
        OverlayPoint q;
        q.state = e.state;
        q.stable = e.stability.is_stable();
        q.details =
            QObject::tr("eigenvalues %1 · %2")
                .arg(eigenvalue_text(e.eigenvalues), QString::fromLatin1(cont::name_of(e.stability.type)));
        o.points.push_back(std::move(q));
    }
    return o;
}

BranchOverlay orbit_branch(const cont::OrbitStudyOutcome& outcome, const study::ResolvedEquilibriumStudy& r) {
    BranchOverlay o;
    o.parameter = QString::fromStdString(r.study.parameter);
    o.states = names_of(*r.model);
    const int k = r.study.orbit.k;
    o.name = r.study.orbit.kind == study::OrbitKind::Autonomous ? QObject::tr("periodic orbit")
                                                                : QObject::tr("orbit of period %1").arg(k);
    const std::size_t n = std::size_t(o.states.size());
    for (const auto& p : outcome.branch.points) {
        OverlayPoint q;
        q.parameter = p.parameter;
        q.state.assign(p.unknowns.begin(), p.unknowns.begin() + std::min(n, p.unknowns.size()));
        q.stable = p.stability.stable();
        q.label = QString::fromStdString(p.label);
        q.details =
            QObject::tr("period %1 · multipliers %2 · %3")
                .arg(overlay_number(p.period), multiplier_text(p.stability),
                     q.stable
                         ? QObject::tr("stable")
                         : QObject::tr("unstable (%1 outside the unit circle)").arg(p.stability.unstable));
        o.points.push_back(std::move(q));
    }
    return o;
}

} // namespace

QString overlay_number(double v) {
    return QString::number(v, 'g', 6);
}

std::optional<QPointF> overlay_position(const BranchOverlay& o, const OverlayPoint& p,
                                        const OverlayAxes& axes) {
    const auto state_value = [&](const QString& name) -> std::optional<double> {
        if (name == norm_quantity) {
            double sum = 0.0;
            for (double v : p.state)
                sum += v * v;
            return std::sqrt(sum);
        }
        const auto i = o.states.indexOf(name);
        if (i < 0 || std::size_t(i) >= p.state.size()) return std::nullopt;
        return p.state[std::size_t(i)];
    };
    switch (o.kind) {
    case OverlayKind::Branch:
        if (axes.x != o.parameter) return std::nullopt;
        if (const auto y = state_value(axes.y)) return QPointF(p.parameter, *y);
        return std::nullopt;
    case OverlayKind::Curve:
        if (axes.x == o.parameter && axes.y == o.second_parameter) return QPointF(p.parameter, p.second);
        if (axes.x == o.second_parameter && axes.y == o.parameter) return QPointF(p.second, p.parameter);
        return std::nullopt;
    case OverlayKind::Points: {
        const auto x = state_value(axes.x), y = state_value(axes.y);
        if (x && y) return QPointF(*x, *y);
        return std::nullopt;
    }
    }
    return std::nullopt;
}

bool overlay_fits(const BranchOverlay& overlay, const OverlayAxes& axes) {
    return !overlay.points.empty() && overlay_position(overlay, overlay.points.front(), axes).has_value();
}

QString describe_point(const BranchOverlay& o, const OverlayPoint& p) {
    QStringList where;
    if (o.kind != OverlayKind::Points)
        where << QStringLiteral("%1 = %2").arg(o.parameter, overlay_number(p.parameter));
    if (o.kind == OverlayKind::Curve)
        where << QStringLiteral("%1 = %2").arg(o.second_parameter, overlay_number(p.second));
    double sum = 0.0;
    for (std::size_t i = 0; i < p.state.size() && i < std::size_t(o.states.size()); ++i) {
        where << QStringLiteral("%1 = %2").arg(o.states[qsizetype(i)], overlay_number(p.state[i]));
        sum += p.state[i] * p.state[i];
    }
    if (p.state.size() > 1) where << QStringLiteral("|state| = %1").arg(overlay_number(std::sqrt(sum)));
    QString text = o.name + QStringLiteral(": ");
    if (!p.label.isEmpty()) text += p.label + QStringLiteral("  ");
    return text + where.join(QStringLiteral(", ")) + QStringLiteral(" · ") + p.details;
}

Overlays overlays_of(const jobs::ContinuationOutcome& outcome, const study::ResolvedEquilibriumStudy& r) {
    Overlays out;
    if (outcome.orbit) out.push_back(orbit_branch(*outcome.orbit, r));
    if (outcome.equilibria) {
        const auto& e = *outcome.equilibria;
        if (!r.study.is_continuation() && !e.equilibria.empty())
            out.push_back(equilibria_of(e.equilibria, r));
        for (std::size_t b = 0; b < e.branches.size(); ++b)
            if (!e.branches[b].points.empty()) out.push_back(equilibrium_branch(e.branches[b], r, b));
        for (std::size_t c = 0; c < e.curves.size(); ++c)
            if (!e.curves[c].curve.points.empty()) out.push_back(curve_of(e.curves[c], r, c));
    }
    const auto seed = std::make_shared<const study::EquilibriumStudy>(r.study);
    for (auto& o : out)
        o.seed = seed;
    return out;
}

} // namespace bif::plot
