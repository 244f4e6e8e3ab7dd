// The title a figure and its tab show: the study's own title, else "model — analysis over
// parameter" ("duffing — bifurcation diagram over k"), which says what the picture is without the
// study file at hand.
#pragma once

#include "engine/study/study.h"

#include <QString>

namespace bif::plot {

// "bifurcation diagram", "Lyapunov exponents", "two-parameter map", ...
QString analysis_title(study::AnalysisKind kind);

// "<model> — <analysis> over <a> and <b>"; without a model name, "<Analysis> over <a>".
QString default_study_title(const study::Study& study, const QString& model_name);

// The study's title, else its default with the model file's name (none for a model given as text).
QString study_title(const study::Study& study);

} // namespace bif::plot
