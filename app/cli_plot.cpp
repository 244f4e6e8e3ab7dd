// `bifscope-cli plot STUDY.json --out figure.png|figure.svg [--size WxH] [--backend auto|cpu|cuda]
// [--quantity NAME] [--threads N]`: runs the study as a job and writes the figure the app shows for
// it, headless. Without a display (DISPLAY and WAYLAND_DISPLAY unset) Qt's offscreen platform is
// used, so it runs on servers and in CI.
#include "cli_commands.h"
#include "cli_study.h"
#include "engine/analysis/phase_plane_portrait.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "ui/plot/figure_export.h"
#include "ui/plot/phase_plane_figure.h"
#include "ui/plot/result_figure.h"

#include <QGuiApplication>
#include <QString>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <regex>

namespace bif::cli {

namespace {

constexpr const char* plot_usage =
    "usage: bifscope-cli plot STUDY.json --out figure.png|figure.svg [--size WxH] [--backend auto|cpu|cuda] "
    "[--quantity NAME] [--threads N]\n";

struct PlotArguments {
    std::string study_path;
    std::string out_path;
    QSize size{1200, 800};
    std::optional<study::BackendChoice> backend;
    std::string quantity;
    unsigned threads = 0;
};

std::optional<QSize> parse_size(const std::string& text) {
    std::smatch m;
    static const std::regex pattern("([0-9]{2,5})x([0-9]{2,5})");
    if (!std::regex_match(text, m, pattern)) return std::nullopt;
    const QSize size(std::stoi(m[1]), std::stoi(m[2]));
    if (size.width() < 64 || size.height() < 64 || size.width() > plot::max_export_width ||
        size.height() > plot::max_export_width)
        return std::nullopt;
    return size;
}

std::optional<PlotArguments> parse_plot_arguments(const std::vector<std::string>& args, std::ostream& err) {
    PlotArguments a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool has_value = i + 1 < args.size();
        if (arg == "--out" && has_value) {
            a.out_path = args[++i];
        } else if (arg == "--size" && has_value) {
            const auto size = parse_size(args[++i]);
            if (!size)
                return err << "bifscope-cli: --size takes WxH, 64 to " << plot::max_export_width
                           << " pixels each, got '" << args[i] << "'\n",
                       std::nullopt;
            a.size = *size;
        } else if (arg == "--backend" && has_value) {
            a.backend = parse_backend_choice(args[++i]);
            if (!a.backend)
                return err << "bifscope-cli: --backend takes auto, cpu or cuda, got '" << args[i] << "'\n",
                       std::nullopt;
        } else if (arg == "--quantity" && has_value) {
            a.quantity = args[++i];
        } else if (arg == "--threads" && has_value) {
            const std::string& v = args[++i];
            if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos)
                return err << "bifscope-cli: --threads takes a whole number, got '" << v << "'\n",
                       std::nullopt;
            a.threads = static_cast<unsigned>(std::stoul(v));
        } else if (a.study_path.empty() && !arg.starts_with("--")) {
            a.study_path = arg;
        } else {
            return err << plot_usage, std::nullopt;
        }
    }
    const bool png = a.out_path.ends_with(".png"), svg = a.out_path.ends_with(".svg");
    if (a.study_path.empty() || (!png && !svg)) return err << plot_usage, std::nullopt;
    return a;
}

// Qt needs an application object to draw text; the offscreen platform when there is no display.
std::unique_ptr<QGuiApplication> start_qt() {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    static int argc = 1;
    static char name[] = "bifscope-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

// A phase-plane study is drawn on the host: the portrait and its recorded trajectories.
int plot_phase_plane(const study::ResolvedStudy& resolved, const PlotArguments& a, std::ostream& out,
                     std::ostream& err) {
    const auto app = start_qt();
    const auto& s = resolved.study.phase_plane;
    plot::PhasePlaneScene scene;
    try {
        const analysis::PlanarSystem system = analysis::planar_system(resolved);
        const analysis::PlaneWindow window{s.x_from, s.x_to, s.y_from, s.y_to};
        scene.portrait = std::make_shared<const analysis::PhasePortrait>(
            analysis::compute_portrait(system, {window, s.grid, s.arrows}));
        analysis::PlanarTrajectorySettings ts;
        ts.duration = s.t_end;
        ts.window = window;
        for (const auto& [x, y] : s.starts)
            scene.trajectories.push_back(analysis::integrate_trajectory(system, {x, y}, ts));
        scene.window = window;
    } catch (const std::exception& e) {
        err << "bifscope-cli: plot: " << e.what() << "\n";
        return RunFailed;
    }
    const auto& model = *resolved.model;
    scene.x_name = QString::fromStdString(model.states[resolved.phase_plane.x].name);
    scene.y_name = QString::fromStdString(model.states[resolved.phase_plane.y].name);
    scene.title = QString::fromStdString(resolved.study.title.empty()
                                             ? "Phase plane " + model.states[resolved.phase_plane.x].name +
                                                   ", " + model.states[resolved.phase_plane.y].name
                                             : resolved.study.title);
    const QString path = QString::fromStdString(a.out_path);
    const QString failure = a.out_path.ends_with(".svg") ? plot::export_phase_plane_svg(scene, a.size, path)
                                                         : plot::export_phase_plane_png(scene, a.size, path);
    if (!failure.isEmpty()) {
        err << "bifscope-cli: " << failure.toStdString() << "\n";
        return IoFailure;
    }
    out << a.out_path << ": " << a.size.width() << "x" << a.size.height() << ", phase plane, "
        << scene.portrait->equilibria.size() << " equilibria\n";
    return Success;
}

} // namespace

int run_plot(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::optional<PlotArguments> a = parse_plot_arguments(args, err);
    if (!a) return Usage;
    LoadedStudy loaded;
    if (const int status = load_resolved_study(a->study_path, loaded, err); status != Success) return status;
    const std::shared_ptr<const study::ResolvedStudy> resolved = loaded.resolved;
    const auto analysis = resolved->study.analysis;
    if (analysis == study::AnalysisKind::PhasePlane) return plot_phase_plane(*resolved, *a, out, err);
    if (analysis == study::AnalysisKind::Lyapunov || analysis == study::AnalysisKind::Trajectory) {
        err << "bifscope-cli: plot: not yet for this analysis (" << study::name_of(analysis) << ")\n";
        return Usage;
    }
    const auto app = start_qt();
    plot::ResultFigure figure(resolved);
    if (!a->quantity.empty() && !figure.setQuantity(QString::fromStdString(a->quantity))) {
        err << "bifscope-cli: --quantity: this study has " << figure.quantities().join(", ").toStdString()
            << "; got '" << a->quantity << "'\n";
        return Usage;
    }
    const jobs::BackendRegistry registry = jobs::installed_backends();
    jobs::JobOptions options;
    options.backend = a->backend;
    options.threads = a->threads;
    auto job = jobs::submit(registry, resolved, options);
    job->wait();
    if (job->state() == jobs::JobState::Failed) {
        err << "bifscope-cli: the run failed: " << job->failure() << "\n";
        return RunFailed;
    }
    figure.setResult(job->result());
    const QString path = QString::fromStdString(a->out_path);
    const QString failure = a->out_path.ends_with(".svg")
                                ? plot::export_svg(figure, figure.fullRange(), a->size, path)
                                : plot::export_png(figure, figure.fullRange(), a->size, path);
    if (!failure.isEmpty()) {
        err << "bifscope-cli: " << failure.toStdString() << "\n";
        return IoFailure;
    }
    out << a->out_path << ": " << a->size.width() << "x" << a->size.height() << ", "
        << figure.quantities().value(figure.quantity()).toStdString() << "\n";
    return Success;
}

} // namespace bif::cli
