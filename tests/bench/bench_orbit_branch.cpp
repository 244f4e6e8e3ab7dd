// A 200-point branch of the forced Duffing oscillator's period-1 orbit (resources/models/duffing.ode,
// the MPGOS case: delta = 1, omega = 1, k = 0.25) over the forcing amplitude b, through folds and
// unstable parts, on the CPU (engine/continuation/orbit_branch.h: stroboscopic map, variational
// equations on the host evaluator, periodic-QR multipliers). Goal (issue 34): <= 1 s on the
// 2-core development machine. Prints the wall time, the special points and the stop reason.
//   bench_orbit_branch [points]
#include "engine/codegen/host_model.h"
#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "engine/model/parse.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace bif;

int main(int argc, char** argv) {
    const int points = argc > 1 ? std::atoi(argv[1]) : 200;
    auto parsed = model::load_model_file(std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models/duffing.ode");
    if (!parsed.model) {
        std::fprintf(stderr, "duffing.ode did not parse\n");
        return 1;
    }
    codegen::Request request;
    request.model = &*parsed.model;
    const codegen::HostModel host(request);
    std::vector<double> user;
    for (const auto& p : parsed.model->parameters)
        user.push_back(p.value);
    const int b = parsed.model->parameter_index("b");
    const int omega = parsed.model->parameter_index("omega");
    cont::FlowSettings flow;
    flow.rtol = 1e-9;
    flow.atol = 1e-9;
    const cont::StroboscopicOrbit orbit(
        host, cont::ModelParameters(host, user, b),
        [omega](const std::vector<double>& p) { return 2 * M_PI / p[static_cast<std::size_t>(omega)]; }, 1,
        flow, 1);

    const auto start = std::chrono::steady_clock::now();
    // the period-1 attractor at b = 0.1 (in one well), settled, then refined by Newton
    const double b0 = 0.1;
    cont::FlowResult settled;
    std::string why;
    if (!cont::flow_span(host, cont::ModelParameters(host, user, b).slots(b0), 0.0, Eigen::Vector2d(1.0, 0.0),
                         100 * 2 * M_PI, 1, false, flow, settled, why)) {
        std::fprintf(stderr, "settling failed: %s\n", why.c_str());
        return 1;
    }
    cont::OrbitPoint p;
    if (!cont::solve_orbit(orbit, settled.end, b0, cont::OrbitNewtonSettings{}, p, why)) {
        std::fprintf(stderr, "Newton failed: %s\n", why.c_str());
        return 1;
    }
    cont::ContinuationSettings s;
    s.initial_step = 0.01;
    s.max_step = 0.02;
    s.max_points = points;
    s.box = {{2, 0.0, 2.0}};
    const cont::OrbitBranch branch = cont::continue_orbit(orbit, p.u, b0, s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    int unstable = 0;
    for (const auto& q : branch.points) {
        unstable += q.stability.stable() ? 0 : 1;
        if (!q.label.empty())
            std::printf("  %s at b = %.10f, y1 = %.6f, |mu|max = %.4g\n", q.label.c_str(), q.parameter,
                        q.unknowns[0], std::exp(q.stability.multipliers.front().log_modulus));
    }
    std::printf(
        "bench_orbit_branch: Duffing period-1 branch over b, %zu points (%d unstable), b from %.3f to %.3f: "
        "%.3f s wall; stop: %s (%s)\n",
        branch.points.size(), unstable, branch.points.front().parameter, branch.points.back().parameter,
        seconds, cont::name_of(branch.stop), branch.message.c_str());
    return 0;
}
