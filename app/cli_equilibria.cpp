#include "cli_equilibria.h"

#include "cli_commands.h"
#include "cli_paths.h"
#include "engine/continuation/equilibrium_csv.h"
#include "engine/continuation/orbit_study_csv.h"
#include "engine/model/input_file.h"
#include "engine/study/equilibrium_study.h"

#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace bif::cli {

namespace {

constexpr const char* usage =
    "usage: bifscope-cli run STUDY.json [--out result.csv] [--check] [--quiet]  (an equilibrium, "
    "continuation or orbit study: it runs on the CPU; --backend, --gpus and the block options do not "
    "apply)\n";

struct Arguments {
    std::string study_path, out_path;
    bool check_only = false, quiet = false;
};

std::optional<Arguments> parse(const std::vector<std::string>& args, std::ostream& err) {
    Arguments a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--out" && i + 1 < args.size())
            a.out_path = args[++i];
        else if (args[i] == "--check")
            a.check_only = true;
        else if (args[i] == "--quiet")
            a.quiet = true;
        else if (a.study_path.empty() && !args[i].starts_with("--"))
            a.study_path = args[i];
        else
            return err << usage, std::nullopt;
    }
    if (a.study_path.empty()) return err << usage, std::nullopt;
    return a;
}

std::string shortest(double v) {
    std::ostringstream text;
    text << v;
    return text.str();
}

std::string describe(const study::ResolvedEquilibriumStudy& r) {
    std::string text = std::string(study::name_of(r.study.analysis)) + ", " +
                       std::to_string(r.model->num_states()) + " states";
    if (r.study.is_orbit()) text += std::string(", ") + study::name_of(r.study.orbit.kind) + " orbit";
    if (r.study.is_continuation())
        text +=
            ", " + r.study.parameter + " in [" + shortest(r.study.from) + ", " + shortest(r.study.to) + "]";
    if (r.study.has_second_parameter())
        text += ", " + r.study.second_parameter + " in [" + shortest(r.study.second_from) + ", " +
                shortest(r.study.second_to) + "]";
    return text;
}

// An orbit_continuation study: the branch through the start orbit (orbit_curves: and the curves of
// its LP, PD and NS points).
int run_orbit(const Arguments& a, const study::ResolvedEquilibriumStudy& r, std::ostream& out,
              std::ostream& err) {
    cont::OrbitStudyOutcome outcome;
    try {
        outcome = cont::run_orbit_study(r);
    } catch (const std::invalid_argument& e) {
        err << a.study_path << ": error: model: " << e.what() << "\n";
        return ModelErrors;
    } catch (const std::runtime_error& e) {
        err << a.study_path << ": error: analysis.start: " << e.what() << "\n";
        return RunFailed;
    }
    if (!a.quiet) {
        err << "bifscope-cli: " << describe(r) << ": " << outcome.branch.points.size() << " points";
        if (r.study.analysis == study::EquilibriumAnalysis::OrbitCurves)
            err << ", " << outcome.curves.size() << " curves";
        err << "\n";
        for (const std::string& note : outcome.notes)
            err << "bifscope-cli: " << note << "\n";
    }
    auto write = [&](std::ostream& o) { cont::write_orbit_study_csv(o, r, outcome); };
    if (a.out_path.empty()) {
        write(out);
        return flush_result(out, err);
    }
    return write_output(a.out_path, write, err);
}

} // namespace

bool names_equilibrium_study(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--out" || args[i] == "--backend" || args[i] == "--gpus" || args[i] == "--threads" ||
            args[i] == "--block-systems" || args[i] == "--block-timeout") {
            ++i;
            continue;
        }
        if (args[i].starts_with("--")) continue;
        const model::InputFile file = model::read_input_file(args[i]);
        return file.text && study::equilibrium_analysis_of(*file.text).has_value();
    }
    return false;
}

int run_equilibrium_study(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::optional<Arguments> a = parse(args, err);
    if (!a) return Usage;
    const study::EquilibriumResolveResult loaded = study::load_equilibrium_study_file(a->study_path);
    for (const auto& p : loaded.problems)
        err << a->study_path << ": " << p.format() << "\n";
    if (!loaded.resolved) return loaded.problems.empty() ? IoFailure : ModelErrors;
    if (a->check_only) {
        out << a->study_path << ": ok; " << describe(*loaded.resolved) << "\n";
        return Success;
    }
    if (!a->out_path.empty())
        if (const int status = check_output_path(a->out_path, {a->study_path}, err)) return status;
    if (loaded.resolved->study.is_orbit()) return run_orbit(*a, *loaded.resolved, out, err);
    cont::EquilibriumStudyOutcome outcome;
    try {
        outcome = cont::run_equilibrium_study(*loaded.resolved);
    } catch (const std::invalid_argument& e) {
        err << a->study_path << ": error: model: " << e.what() << "\n";
        return ModelErrors;
    }
    if (!a->quiet) {
        err << "bifscope-cli: " << describe(*loaded.resolved) << ": " << outcome.equilibria.size()
            << " equilibria";
        if (!outcome.branches.empty()) err << ", " << outcome.branches.size() << " branches";
        err << "\n";
        for (const std::string& note : outcome.notes)
            err << "bifscope-cli: " << note << "\n";
    }
    auto write = [&](std::ostream& o) { cont::write_equilibrium_study_csv(o, *loaded.resolved, outcome); };
    if (a->out_path.empty()) {
        write(out);
        return flush_result(out, err);
    }
    return write_output(a->out_path, write, err);
}

} // namespace bif::cli
