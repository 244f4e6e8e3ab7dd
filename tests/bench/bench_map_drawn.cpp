// Issue 11's last benchmark: a 10^8-system map run on one GPU with its result drawn and not exported
// ends within 1.5x the time of its integration kernels, with host memory well under 1 GB.
//
// A headless GL 3.3 context on the GPU (EGL's device platform: NVIDIA's EGL on the server), a map
// of the Lorenz system over rho and sigma (RK4, detect_period) run with its periods kept on the GPU
// (engine/cuda/device_map.h), the cells written into a map layer's GL buffers through the CUDA
// render path, coloured from their GPU summary and drawn into a 3840x2160 framebuffer. Timed from
// the run's start to the drawn picture (glFinish); the integration kernels' time is the GPU's own
// (EnsembleRunner::integration_seconds). A small run first compiles or loads the module and the
// render kernels, as an app that opened the model would have. Peak RSS from /proc/self/status.
//
//   bench_map_drawn [SIDE [TRANSIENT RECORDED]]     (default 10000: 10^8 systems; 8 and 8 sections)
// Needs an NVIDIA GPU whose EGL device is a CUDA device; elsewhere it says why and exits 77.
#include "engine/cuda/device_map.h"
#include "engine/cuda/stream.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"
#include "ui/plot/map_colouring.h"
#include "ui/render/cuda_render_path.h"
#include "ui/render/egl_device_context.h"
#include "ui/render/framebuffer.h"
#include "ui/render/plot_colours.h"
#include "ui/render/renderer.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace bif;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// VmHWM or VmRSS of this process in MiB.
double memory_mib(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field, 0) == 0)
            return std::strtod(line.c_str() + std::string(field).size(), nullptr) / 1024;
    return -1;
}

std::shared_ptr<const study::ResolvedStudy> lorenz_map(int side, int transient, int recorded) {
    const std::string json = R"({"bifscope_study": 1, "model": {"path": ")" BIFSCOPE_SOURCE_DIR
                             R"(/resources/models/lorenz.ode"},
 "parameters": {"beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 0, "to": 50, "count": )" +
                             std::to_string(side) + R"(},
           {"parameter": "sigma", "from": 5, "to": 15, "count": )" +
                             std::to_string(side) + R"(}],
 "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "1"},
              "transient_sections": )" +
                             std::to_string(transient) + R"(, "recorded_sections": )" +
                             std::to_string(recorded) +
                             R"(, "detect_period": true, "period": {"tolerance": 1e-4, "max_period": 8}},
 "solver": {"method": "rk4", "initial_step": 0.01}, "precision": "double"})";
    auto read = study::read_study_json(json);
    if (!read.study) return nullptr;
    return study::resolve_study(*read.study, BIFSCOPE_SOURCE_DIR).resolved;
}

} // namespace

int main(int argc, char** argv) {
    const int side = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int transient = argc > 3 ? std::atoi(argv[2]) : 8, recorded = argc > 3 ? std::atoi(argv[3]) : 8;
    render::EglDeviceContext egl;
    std::string why;
    if (!egl.create(0, &why)) {
        std::printf("bench_map_drawn: no EGL context: %s\n", why.c_str());
        return 77;
    }
    std::printf("GL: %s\n", egl.description().c_str());
    const render::RenderPathChoice choice = render::choose_render_path();
    std::printf("path: %s\n", qPrintable(choice.description));
    if (!choice.cuda) return 77;
    render::Renderer renderer;
    QString error;
    if (!renderer.initialize(egl.gl(), &error)) {
        std::printf("renderer: %s\n", qPrintable(error));
        return 1;
    }
    render::Gl& gl = egl.gl();
    const QSize screen(3840, 2160);
    render::Framebuffer fbo;
    if (!fbo.create(gl, screen, &why)) {
        std::printf("framebuffer: %s\n", why.c_str());
        return 1;
    }
    render::CudaRenderPath path(choice.device);
    const cuda::Context& context = path.context();

    const auto warm = lorenz_map(64, transient, recorded);
    const auto resolved = lorenz_map(side, transient, recorded);
    if (!warm || !resolved) {
        std::printf("the study did not resolve\n");
        return 1;
    }
    std::atomic<bool> cancel{false};
    {
        study::RunControl control(cancel, {});
        cuda::DeviceMap small(context, 64, 64);
        const auto run = cuda::run_map_on_device(*warm, "period", small, path.kernels(), control);
        std::printf("warm-up 64^2: compile %.3f s (%s)\n", run.info.compile_seconds,
                    run.info.code_note.c_str());
    }
    const double before_mib = memory_mib("VmRSS:");
    for (int round = 0; round < 3; ++round) {
        render::MapLayer layer;
        const auto start = Clock::now();
        cuda::DeviceMap map(context, std::size_t(side), std::size_t(side));
        study::RunControl control(cancel, {});
        const cuda::DeviceMapRun run =
            cuda::run_map_on_device(*resolved, "period", map, path.kernels(), control);
        const double ran = since(start);
        layer.resize(gl, QSize(side, side));
        path.writeMap(layer, map.cells());
        plot::MapColouring colouring("period", false);
        colouring.include(map.summary(path.kernels()));
        colouring.settle();
        render::colour_like(gl, layer, colouring);
        fbo.bind();
        gl.glViewport(0, 0, screen.width(), screen.height());
        gl.glClearColor(1, 1, 1, 1);
        gl.glClear(GL_COLOR_BUFFER_BIT);
        const render::DataRect extent{0, 5, 50, 15};
        renderer.draw(layer, extent, extent);
        gl.glFinish();
        const double drawn = since(start);
        std::printf("map %dx%d (%.3g systems), periods kept on the GPU and drawn at %dx%d: run %.3f s "
                    "(integration kernels %.3f s, compile %.3f s), drawn %.3f s: %.2fx the kernels; "
                    "RSS %.0f MiB before, peak %.0f MiB; %s\n",
                    side, side, double(side) * side, screen.width(), screen.height(), ran,
                    run.integration_seconds, run.info.compile_seconds, drawn, drawn / run.integration_seconds,
                    before_mib, memory_mib("VmHWM:"),
                    run.info.notes.empty() ? "" : run.info.notes.front().c_str());
        if (round == 0) {
            const QString out = qEnvironmentVariable("BENCH_IMAGE");
            if (!out.isEmpty()) fbo.read().save(out);
        }
        layer.release();
    }
    path.release();
    fbo.release();
    renderer.release();
    return 0;
}
