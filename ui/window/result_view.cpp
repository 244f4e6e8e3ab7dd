#include "ui/window/result_view.h"

#include "ui/window/figure_result_view.h"
#include "ui/window/lyapunov_result_view.h"
#include "ui/window/trajectory_result_view.h"

namespace bif::ui {

std::unique_ptr<ResultView> make_result_view(std::shared_ptr<const study::ResolvedStudy> study,
                                             QWidget* parent) {
    switch (study->study.analysis) {
    case study::AnalysisKind::Lyapunov:
        return std::make_unique<LyapunovResultView>(std::move(study), parent);
    case study::AnalysisKind::Trajectory:
        return std::make_unique<TrajectoryResultView>(parent);
    case study::AnalysisKind::Bifurcation:
    case study::AnalysisKind::ParameterMap:
    case study::AnalysisKind::Basins:
    case study::AnalysisKind::PhasePlane: // a PhasePlanePanel tab, never a run's result
        break;
    }
    return std::make_unique<FigureResultView>(std::move(study), parent);
}

} // namespace bif::ui
