// The model language front end: XPPAUT `.ode` text in, a resolved Model and diagnostics out.
// Never throws and never aborts on any input; bad input yields diagnostics with positions.
#pragma once

#include "engine/model/diagnostic.h"
#include "engine/model/model.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bif::model {

struct ParseResult {
    std::optional<Model> model; // present exactly when diagnostics hold no error
    std::vector<Diagnostic> diagnostics;
};

ParseResult parse_model(std::string_view text, std::string file_name = "<model>");
ParseResult load_model_file(const std::string& path); // a missing/unreadable file is a diagnostic

// Parses one formula in the model's context (states, parameters, derived parameters, fixed
// variables, user functions, t, pi) into model.pool; used for study expressions such as a
// section condition or a recorded quantity. Diagnostics' positions are columns in `text`.
struct ExpressionResult {
    std::optional<sym::NodeId> node;
    std::vector<Diagnostic> diagnostics;
};
ExpressionResult parse_expression(Model& model, std::string_view text);

} // namespace bif::model
