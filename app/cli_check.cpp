// `bifscope-cli check MODEL.ode`: diagnostics as file:line:col: severity: message, then a summary.
#include "cli_commands.h"

#include "engine/model/parse.h"

#include <ostream>

namespace bif::cli {

namespace {

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string summary(const model::Model& m) {
    std::string s = std::string(m.is_map() ? "map: " : "flow: ") + count(m.num_states(), "state", "states") +
                    ", " + count(m.num_parameters(), "parameter", "parameters");
    if (!m.derived.empty()) s += " (+" + std::to_string(m.derived.size()) + " derived)";
    return s + ", " + count(m.events.size(), "event", "events") + ", " +
           count(m.aux.size(), "aux quantity", "aux quantities");
}

} // namespace

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.size() != 1) {
        err << "usage: bifscope-cli check MODEL.ode\n";
        return Usage;
    }
    const model::ParseResult result = model::load_model_file(args[0]);
    std::size_t errors = 0, warnings = 0;
    for (const auto& d : result.diagnostics) {
        out << d.format() << "\n";
        errors += d.severity == model::Severity::Error;
        warnings += d.severity == model::Severity::Warning;
    }
    out << args[0] << ": ";
    if (result.model) out << summary(*result.model) << "; ";
    out << count(errors, "error", "errors") << ", " << count(warnings, "warning", "warnings") << "\n";
    return errors ? ModelErrors : Success;
}

} // namespace bif::cli
