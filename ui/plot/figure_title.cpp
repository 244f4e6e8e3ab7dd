#include "ui/plot/figure_title.h"

#include <QFileInfo>
#include <QStringList>

namespace bif::plot {

QString analysis_title(study::AnalysisKind kind) {
    switch (kind) {
    case study::AnalysisKind::Bifurcation:
        return QStringLiteral("bifurcation diagram");
    case study::AnalysisKind::Lyapunov:
        return QStringLiteral("Lyapunov exponents");
    case study::AnalysisKind::ParameterMap:
        return QStringLiteral("two-parameter map");
    case study::AnalysisKind::Basins:
        return QStringLiteral("basins of attraction");
    case study::AnalysisKind::Trajectory:
        return QStringLiteral("trajectory");
    case study::AnalysisKind::PhasePlane:
        return QStringLiteral("phase plane");
    }
    return {};
}

QString default_study_title(const study::Study& study, const QString& model_name) {
    QStringList names;
    for (const auto& axis : study.sweep)
        names << QString::fromStdString(axis.name);
    QString what = analysis_title(study.analysis);
    if (!names.isEmpty()) what += QStringLiteral(" over ") + names.join(QStringLiteral(" and "));
    if (model_name.isEmpty()) return what.left(1).toUpper() + what.mid(1);
    return model_name + QStringLiteral(" \u2014 ") + what;
}

QString study_title(const study::Study& study) {
    if (!study.title.empty()) return QString::fromStdString(study.title);
    const QString model_name = study.model.path.empty()
                                   ? QString()
                                   : QFileInfo(QString::fromStdString(study.model.path)).completeBaseName();
    return default_study_title(study, model_name);
}

} // namespace bif::plot
