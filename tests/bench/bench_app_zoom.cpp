// End-to-end timings of the app's own run and zoom machinery (issue 11), measured on the UI thread
// from the request to the signal that the picture is complete, through StudyRunner (the app's job
// runner), plot::zoomed_study (what a view asks for after a zoom) and TiledZoom (map zooms as tiles):
//   (a) the MPGOS Duffing diagram (46080 values of k, 1024 + 32 periods): a first run fills the
//       module cache, then zooms into a sub-range with that cache warm, at a view's resolution and
//       at the full 46080 values. Goal < 0.3 s.
//   (b) a 1024^2 Duffing period + Lyapunov map (64 + 64 periods): time to the first coarse pass and
//       to completion (goals < 0.15 s and < 1.5 s), then a tiled zoom into it and back (tile cache).
// `--small`: the CPU backend on small sizes, to check the program on a machine without a GPU.
// Otherwise the CUDA backend; exit 77 when the CUDA backend is unavailable.
#include "engine/study/study_json.h"
#include "ui/plot/zoomed_study.h"
#include "ui/run/study_runner.h"
#include "ui/window/result_tab.h"
#include "ui/window/tiled_zoom.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bif;

namespace {

struct Sizes {
    int diagram_count;
    int diagram_transient;
    int map_side;
    int map_transient;
    int map_recorded;
    int view_width; // of the diagram's view, in pixels
    int tile_cells; // of the map's tiles (the app: 256)
    study::BackendChoice backend;
};

constexpr Sizes full_sizes{46080, 1024, 1024, 64, 64, 1600, 256, study::BackendChoice::Cuda};
constexpr Sizes small_sizes{512, 64, 64, 16, 16, 256, 16, study::BackendChoice::Cpu};

// What one run through StudyRunner took, in seconds from the request; first_pass is when every
// system of pass 0 had arrived (negative when the run was not progressive).
struct RunTiming {
    double first_pass = -1.0;
    double done = 0.0;
    jobs::JobState state = jobs::JobState::Failed;
    std::string backend;
    std::string failure;
};

std::string resource(const std::string& relative) {
    return std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/" + relative;
}

study::Study read_study(const std::string& file) {
    auto read = study::read_study_file(resource(file));
    if (!read.study) throw std::runtime_error("cannot read " + file);
    return *read.study;
}

std::shared_ptr<const study::ResolvedStudy> resolve(const study::Study& s) {
    auto resolved = study::resolve_study(s, resource("")).resolved;
    if (!resolved) throw std::runtime_error("the study does not resolve: " + s.title);
    return resolved;
}

// Systems of pass 0 on a grid with that stride: every index along each axis a multiple of it.
std::size_t pass_zero_systems(const study::Study& s, int stride) {
    std::size_t n = 1;
    for (const auto& axis : s.sweep)
        n *= static_cast<std::size_t>((axis.count + stride - 1) / stride);
    return n;
}

RunTiming run_and_wait(ui::StudyRunner& runner, const study::Study& s, study::BackendChoice backend,
                       bool progressive = true) {
    const auto resolved = resolve(s);
    RunTiming timing;
    QEventLoop loop;
    QElapsedTimer clock;
    std::vector<bool> seen(resolved->system_count(), false);
    std::size_t pass_zero_seen = 0;
    quint64 id = 0;
    const auto on_block = [&](quint64 run, std::shared_ptr<const jobs::ResultBlock> block) {
        if (run != id || block->pass != 0 || timing.first_pass >= 0.0) return;
        for (std::size_t system : block->systems)
            if (!seen[system]) seen[system] = true, ++pass_zero_seen;
        if (pass_zero_seen == pass_zero_systems(s, block->stride))
            timing.first_pass = clock.nsecsElapsed() * 1e-9;
    };
    const auto on_finished = [&](quint64 run, jobs::JobState state,
                                 std::shared_ptr<const study::Result> result, const QString& failure) {
        if (run != id) return;
        timing.done = clock.nsecsElapsed() * 1e-9;
        timing.state = state;
        timing.failure = failure.toStdString();
        if (result) timing.backend = result->info.backend + " " + result->info.device;
        loop.quit();
    };
    const auto block_connection = QObject::connect(&runner, &ui::StudyRunner::blockReady, on_block);
    const auto done_connection = QObject::connect(&runner, &ui::StudyRunner::finished, on_finished);
    ui::RunRequest request;
    request.backend = backend;
    request.progressive = progressive;
    clock.start();
    id = runner.run(resolved, request);
    loop.exec();
    QObject::disconnect(block_connection);
    QObject::disconnect(done_connection);
    if (timing.state != jobs::JobState::Succeeded)
        throw std::runtime_error("a run did not succeed: " + timing.failure);
    return timing;
}

// Prints the seconds from TiledZoom::show to tilesFinished, and how many tiles the view took.
void tiled_zoom_and_wait(ui::TiledZoom& tiles, ui::ResultTab& tab, const study::Study& zoomed,
                         const char* what) {
    QEventLoop loop;
    const auto connection = QObject::connect(&tiles, &ui::TiledZoom::tilesFinished, &loop, &QEventLoop::quit);
    QElapsedTimer clock;
    clock.start();
    tiles.show(&tab, zoomed);
    if (!tiles.mosaic() || !tiles.mosaic()->finished()) loop.exec();
    const double seconds = clock.nsecsElapsed() * 1e-9;
    QObject::disconnect(connection);
    const QString phase =
        tiles.mosaic() ? QString("%1 tiles").arg(tiles.mosaic()->keys().size()) : "no tiles";
    std::printf("map tiled zoom, %s: %.3f s (%s; %zu tiles cached in all)\n", what, seconds,
                qPrintable(phase), tiles.cache().size());
}

plot::PlotRange sub_range(const study::Study& s, double x0, double x1, double y0, double y1) {
    const auto part = [](const study::SweepAxis& a, double f0, double f1) {
        return plot::AxisRange{a.from + f0 * (a.to - a.from), a.from + f1 * (a.to - a.from), false};
    };
    const study::SweepAxis y_axis = s.sweep.size() > 1 ? s.sweep[1] : study::SweepAxis{};
    return {part(s.sweep[0], x0, x1), s.sweep.size() > 1 ? part(y_axis, y0, y1) : plot::AxisRange{-2.0, 2.0}};
}

void bench_diagram(ui::StudyRunner& runner, const Sizes& sizes) {
    study::Study s = read_study("duffing_bifurcation.json");
    s.sweep.at(0).count = sizes.diagram_count;
    s.bifurcation.transient_sections = sizes.diagram_transient;
    const RunTiming first = run_and_wait(runner, s, sizes.backend);
    std::printf("diagram %d k: first run %.3f s (%s; fills the module cache)\n", sizes.diagram_count,
                first.done, first.backend.c_str());
    // A zoom into k in [0.22, 0.25] as the view asks for it (one system per pixel column), then the
    // same range at the full count; each three times, the median kept.
    const plot::PlotRange range = sub_range(s, 0.2, 0.5, 0.0, 1.0);
    const study::Study view_zoom = plot::zoomed_study(s, range, QSize(sizes.view_width, 900));
    study::Study full_zoom = view_zoom;
    full_zoom.sweep[0].count = sizes.diagram_count;
    for (const auto& [zoom, what] :
         {std::pair{view_zoom, "view width"}, std::pair{full_zoom, "full count"}}) {
        std::vector<double> times;
        for (int run = 0; run < 3; ++run)
            times.push_back(run_and_wait(runner, zoom, sizes.backend).done);
        std::sort(times.begin(), times.end());
        std::printf("diagram zoom, %s, %d k: median %.3f s of 3 (min %.3f) (goal < 0.3 s)\n", what,
                    zoom.sweep[0].count, times[1], times[0]);
    }
    // The same zoom in one pass: what the coarse passes cost a latency-bound GPU run.
    const RunTiming one_pass = run_and_wait(runner, full_zoom, sizes.backend, false);
    std::printf("diagram zoom, full count, one pass (not progressive): %.3f s\n", one_pass.done);
}

void bench_map(ui::StudyRunner& runner, const Sizes& sizes) {
    study::Study s = read_study("duffing_period_map.json");
    for (auto& axis : s.sweep)
        axis.count = sizes.map_side;
    s.map.transient_sections = sizes.map_transient;
    s.map.recorded_sections = sizes.map_recorded;
    for (int run = 0; run < 3; ++run) {
        const RunTiming t = run_and_wait(runner, s, sizes.backend);
        std::printf("map %d^2 run %d: first coarse pass %.3f s, complete %.3f s (%s)%s\n", sizes.map_side,
                    run, t.first_pass, t.done, t.backend.c_str(),
                    run == 0 ? " (fills the module cache)" : " (goals < 0.15 s, < 1.5 s)");
    }
    const RunTiming one_pass = run_and_wait(runner, s, sizes.backend, false);
    std::printf("map %d^2 in one pass (not progressive): complete %.3f s\n", sizes.map_side, one_pass.done);
    // The app's tiled zoom: into the middle quarter of the map at the same pixel size, a pan away,
    // and back (every tile from the cache).
    ui::ResultTab tab(resolve(s));
    ui::TiledZoom tiles(runner, nullptr, sizes.tile_cells);
    const QSize pixels(sizes.map_side, sizes.map_side);
    const study::Study middle = plot::zoomed_study(s, sub_range(s, 0.25, 0.75, 0.25, 0.75), pixels);
    const study::Study panned = plot::zoomed_study(s, sub_range(s, 0.5, 1.0, 0.25, 0.75), pixels);
    tiled_zoom_and_wait(tiles, tab, middle, "zoom in x2");
    tiled_zoom_and_wait(tiles, tab, panned, "pan half a view");
    tiled_zoom_and_wait(tiles, tab, middle, "back (tile cache)");
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const Sizes sizes = small ? small_sizes : full_sizes;
    try {
        ui::StudyRunner runner;
        if (!small) {
            const auto cuda = runner.registry().find("cuda");
            const study::Availability a = cuda ? cuda->availability() : study::Availability{};
            if (!cuda || !a.available) {
                std::printf("SKIPPED: the CUDA backend is unavailable: %s\n",
                            cuda ? a.reason.c_str() : "not built");
                return 77;
            }
        }
        bench_diagram(runner, sizes);
        bench_map(runner, sizes);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
