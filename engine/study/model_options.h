// Study defaults from a model's `@` options: what XPPAUT would integrate with, as a Study.
//
// A model file written for XPPAUT already says how it should be integrated (method, step, tolerances,
// total time) and often where its Poincaré section lies. The GUI starts a new study from these, so
// that a model runs at once the way its author ran it in XPPAUT.
#pragma once

#include "engine/model/model.h"
#include "engine/study/study.h"

#include <string>
#include <vector>

namespace bif::study {

struct ModelDefaults {
    Study study;
    // One line per option read or left aside: "meth=qualrk: solver rkck45 (XPPAUT's adaptive
    // Cash-Karp Runge-Kutta)", "bound=1000: not used (a study has no bound)".
    std::vector<std::string> notes;
};

// Reads model.options (later options override earlier ones, as in XPPAUT). Values that cannot be
// read keep the Study default and get a note. The model source of the returned study is empty.
ModelDefaults model_defaults(const model::Model& model);

// model_defaults(model).study.
Study study_defaults_from_model(const model::Model& model);

} // namespace bif::study
