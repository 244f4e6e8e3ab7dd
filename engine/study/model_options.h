// Study defaults from a model's `@` options: what XPPAUT would integrate with, as a Study.
//
// A model file written for XPPAUT already says how it should be integrated (method, step, tolerances,
// total time) and often where its Poincaré section lies. The GUI starts a new study from these, so
// that a model runs at once the way its author ran it in XPPAUT.
#pragma once

#include "engine/model/model.h"
#include "engine/study/study.h"
#include "engine/study/study_problem.h"

#include <optional>
#include <string>
#include <vector>

namespace bif::study {

// A study setting that an option gave: where a study file writes it ("solver.method",
// "analysis.section"; "analysis." paths apply to the analyses that have that setting) and the
// option's note ("meth=qualrk: solver rkck45 (...)").
struct OptionUse {
    std::string path;
    std::string note;
};

struct ModelDefaults {
    Study study;
    // One line per option read or left aside: "meth=qualrk: solver rkck45 (XPPAUT's adaptive
    // Cash-Karp Runge-Kutta)", "bound=1000: not used (a study has no bound)".
    std::vector<std::string> notes;
    std::vector<OptionUse> used;
    // TOTAL, when it could be read: a trajectory ends at t0 + total, whichever t0 the study has.
    std::optional<double> total;
};

// Reads model.options (later options override earlier ones, as in XPPAUT). Values that cannot be
// read keep the Study default and get a note. The model source of the returned study is empty.
ModelDefaults model_defaults(const model::Model& model);

// model_defaults(model).study.
Study study_defaults_from_model(const model::Model& model);

// Fills the settings a study file left out (their paths missing from study.given) from the model's
// options: method, tolerances, initial/min/max step, bound, t0, the trajectory's t_end and record, the
// Lyapunov transient time, and the section of a bifurcation, map or basins study. Returns a warning
// per setting taken (but the bound, taken silently), at its path ("solver.method: not given; from the model's
// meth=qualrk: ..."). Afterwards study.given is empty: the study holds every value it uses. A study without
// `given` is left as it is.
Problems apply_model_defaults(Study& study, const model::Model& model);

} // namespace bif::study
