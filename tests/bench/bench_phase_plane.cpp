// One phase-plane redraw (nullclines by marching squares, the direction field, equilibria by
// Newton) as the panel's slider asks for it, for 2-state models: issue 35 asks for <= 50 ms.
// Each model's plane is redrawn at `--redraws` parameter values along its slider, the evaluator
// already built (as while a slider moves); the median and the slowest redraw are printed, and one
// trajectory (forward and backward) for comparison.
//
//   bench_phase_plane [--grid N] [--arrows N] [--redraws N]
#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Case {
    const char* name;
    const char* model; // .ode text
    const char* parameter;
    double from, to;
    bif::analysis::PlaneWindow window;
};

const Case cases[] = {
    {"van der Pol", "x'=y\ny'=mu*(1-x^2)*y-x\npar mu=1\ndone\n", "mu", 0.1, 4.0, {-3, 3, -4, 4}},
    {"FitzHugh-Nagumo",
     "v'=v-v^3/3-w+i\nw'=eps*(v+a-b*w)\npar i=0,a=0,b=3,eps=0.08\ndone\n",
     "i",
     -1.0,
     1.0,
     {-3, 3, -3, 3}},
    {"Brusselator", "x'=a-(b+1)*x+x^2*y\ny'=b*x-x^2*y\npar a=1,b=2.5\ndone\n", "b", 1.0, 4.0, {0, 4, 0, 6}},
};

std::shared_ptr<const bif::study::ResolvedStudy> resolve(const Case& c) {
    std::string text;
    for (const char* p = c.model; *p; ++p)
        text += *p == '\n' ? std::string("\\n") : std::string(1, *p);
    const std::string json = std::string("{\"bifscope_study\": 1, \"model\": {\"text\": \"") + text +
                             "\"}, \"analysis\": {\"kind\": \"phase_plane\"}}";
    const auto read = bif::study::read_study_json(json);
    if (!read.study) return nullptr;
    return bif::study::resolve_study(*read.study, ".").resolved;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    int grid = 121, arrows = 21, redraws = 50;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--grid"))
            grid = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--arrows"))
            arrows = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--redraws"))
            redraws = std::atoi(argv[i + 1]);
    }
    std::printf(
        "phase-plane redraw: grid %dx%d, %dx%d arrows, %d parameter values per model (goal <= 50 ms)\n", grid,
        grid, arrows, arrows, redraws);
    bool all_within = true;
    for (const Case& c : cases) {
        const auto study = resolve(c);
        if (!study) {
            std::printf("%s: the model does not resolve\n", c.name);
            return 1;
        }
        bif::analysis::PlanarSystem system = bif::analysis::planar_system(*study);
        const int slot = study->model->parameter_index(c.parameter);
        std::vector<double> times;
        std::size_t equilibria = 0;
        for (int k = 0; k < redraws; ++k) {
            system.set_parameter(slot, c.from + (c.to - c.from) * k / std::max(redraws - 1, 1));
            const auto start = std::chrono::steady_clock::now();
            const auto portrait = bif::analysis::compute_portrait(system, {c.window, grid, arrows});
            times.push_back(ms_since(start));
            equilibria += portrait.equilibria.size();
        }
        std::sort(times.begin(), times.end());
        bif::analysis::PlanarTrajectorySettings ts;
        ts.duration = 50;
        ts.window = c.window;
        const auto start = std::chrono::steady_clock::now();
        const auto t = bif::analysis::integrate_trajectory(system, {0.5, 0.5}, ts);
        const double trajectory_ms = ms_since(start);
        const double worst = times.back();
        all_within = all_within && worst <= 50.0;
        std::printf("%-16s redraw median %7.2f ms, slowest %7.2f ms (%.1f equilibria on average); "
                    "trajectory t = +-50: %6.2f ms, %zu points\n",
                    c.name, times[times.size() / 2], worst, double(equilibria) / redraws, trajectory_ms,
                    t.points.size());
    }
    std::printf("%s\n", all_within ? "every redraw within 50 ms" : "some redraw took more than 50 ms");
    return 0;
}
