#include "ui/plot/branch_csv.h"

namespace bif::plot {

namespace {

QString quoted(QString text) {
    return '"' + text.replace('"', QStringLiteral("\"\"")) + '"';
}

QString number(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

const char* kind_name(OverlayKind k) {
    return k == OverlayKind::Branch ? "branch" : k == OverlayKind::Curve ? "curve" : "equilibria";
}

} // namespace

QByteArray branch_csv(const Overlays& overlays) {
    QStringList states;
    for (const auto& o : overlays)
        for (const QString& s : o.states)
            if (!states.contains(s)) states << s;
    QStringList header{"overlay", "kind", "point", "parameter", "second_parameter"};
    header << states << QStringList{"stable", "label"};
    QString text = header.join(',') + '\n';
    for (const auto& o : overlays)
        for (std::size_t j = 0; j < o.points.size(); ++j) {
            const OverlayPoint& p = o.points[j];
            QStringList row{quoted(o.name), QString::fromLatin1(kind_name(o.kind)), QString::number(j),
                            o.kind == OverlayKind::Points ? QString() : number(p.parameter),
                            number(p.second)};
            for (const QString& s : states) {
                const auto i = o.states.indexOf(s);
                row << (i >= 0 && std::size_t(i) < p.state.size() ? number(p.state[std::size_t(i)])
                                                                  : QString());
            }
            row << (p.stable ? QStringLiteral("1") : QStringLiteral("0")) << p.label;
            text += row.join(',') + '\n';
        }
    return text.toUtf8();
}

} // namespace bif::plot
