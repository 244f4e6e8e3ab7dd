// The parts of resolve_study (engine-internal): names against the model, then the study formulas.
#pragma once

#include "engine/model/diagnostic.h"
#include "engine/study/resolved_study.h"

namespace bif::study::detail {

// Adds the parameter and initial-value overrides, the sweep axes and the tolerances to `out`.
void resolve_names(ResolvedStudy& out, Problems& problems);
// Parses the study formulas into `model` and fills out.formulas.
void resolve_formulas(model::Model& model, ResolvedStudy& out, Problems& problems);

std::string list_names_of_parameters(const model::Model& model);
std::string list_names_of_states(const model::Model& model);
Problem problem_from_diagnostic(const model::Diagnostic& d, const std::string& path, bool with_file);
// Reads and parses a study's model (a path relative to base_directory, or the inline text); its
// diagnostics become problems at model.path or model.text.
std::optional<model::Model> load_study_model(const ModelSource& source, const std::string& base_directory,
                                             Problems& problems);

} // namespace bif::study::detail
