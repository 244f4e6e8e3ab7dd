// `bifscope-cli codegen MODEL.ode [--float] [--type-name NAME]`: the generated model source.
#include "cli_commands.h"

#include "engine/codegen/codegen.h"
#include "engine/model/parse.h"

#include <cctype>
#include <ostream>

namespace bif::cli {

namespace {

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

} // namespace

int run_codegen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string path, type_name = "BifModel";
    auto precision = codegen::Precision::Double;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--float") {
            precision = codegen::Precision::Float;
        } else if (args[i] == "--type-name" && i + 1 < args.size()) {
            type_name = args[++i];
            if (!is_identifier(type_name)) {
                err << "bifscope-cli: --type-name needs a C++ identifier, got '" << type_name << "'\n";
                return Usage;
            }
        } else if (path.empty() && !args[i].starts_with("--")) {
            path = args[i];
        } else {
            err << "usage: bifscope-cli codegen MODEL.ode [--float] [--type-name NAME]\n";
            return Usage;
        }
    }
    if (path.empty()) {
        err << "usage: bifscope-cli codegen MODEL.ode [--float] [--type-name NAME]\n";
        return Usage;
    }
    model::ParseResult result = model::load_model_file(path);
    for (const auto& d : result.diagnostics)
        if (d.severity != model::Severity::Note) err << d.format() << "\n";
    if (!result.model) return ModelErrors;
    codegen::Request request;
    request.model = &*result.model;
    request.precision = precision;
    request.type_name = type_name;
    out << codegen::generate_source(request);
    return Success;
}

} // namespace bif::cli
