// Big stiff models on the CPU backend (issue #13): the 1000-state linear chain and the 202-state
// Schnakenberg chain (resources/models) compile through the banded-Jacobian path and integrate with
// Rodas4 to independent solutions (the chain's eigen-expansion; Boost.Odeint's rosenbrock4 with a
// Jacobian of its own); progress arrives while the compiler runs, and a cancel stops it promptly.
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/job.h"
#include "engine/study/resolved_study.h"
#include "tests/cpu/schnakenberg_odeint.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <mutex>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace bif;
using namespace std::chrono_literals;

namespace {

fs::path fresh_cache() {
    std::string pattern = (fs::temp_directory_path() / "bifscope-stiff-XXXXXX").string();
    return ::mkdtemp(pattern.data());
}

std::shared_ptr<const study::ResolvedStudy> trajectory(const char* model, double t_end,
                                                       std::vector<std::string> record,
                                                       std::vector<std::pair<std::string, double>> initial) {
    study::Study s;
    s.model.path = std::string(BIFSCOPE_MODELS_DIR) + "/" + model;
    s.analysis = study::AnalysisKind::Trajectory;
    s.trajectory.t_end = t_end;
    s.trajectory.output_count = 2;
    s.trajectory.record = std::move(record);
    s.initial = std::move(initial);
    s.solver.method = study::Method::Rodas4;
    s.solver.rtol.all = 1e-8;
    s.solver.atol.all = 1e-10;
    s.solver.initial_step = 1e-6;
    const study::ResolveResult r = study::resolve_study(s, "");
    REQUIRE(r.resolved);
    return r.resolved;
}

std::shared_ptr<jobs::Job> submit_cpu(const fs::path& cache,
                                      std::shared_ptr<const study::ResolvedStudy> study,
                                      jobs::JobOptions options = {}) {
    cpu::CpuBackendOptions cpu_options;
    cpu_options.compile.cache_dir = cache;
    cpu_options.allow_evaluator = false;
    jobs::BackendRegistry registry;
    registry.add(std::shared_ptr<study::Backend>(cpu::make_cpu_backend(cpu_options)));
    options.backend = study::BackendChoice::Cpu;
    return jobs::submit(registry, std::move(study), std::move(options));
}

// x_j(t) of x_j' = k (x_{j-1} - 2 x_j + x_{j+1}), x_0 = 1, x_{N+1} = x_N, x(0) = 0: the deviation
// from the steady state 1 in the eigenvectors sin(j theta_m), theta_m = (2m - 1) pi / (2N + 1),
// eigenvalues -4 k sin^2(theta_m / 2) (a symmetric matrix: orthogonal eigenvectors).
double chain_solution(int n, double k, double t, int j) {
    double x = 1.0;
    for (int m = 1; m <= n; ++m) {
        const double theta = (2.0 * m - 1.0) * M_PI / (2.0 * n + 1.0);
        double dot = 0.0, norm = 0.0;
        for (int i = 1; i <= n; ++i) {
            const double v = std::sin(i * theta);
            dot -= v;
            norm += v * v;
        }
        const double lambda = -4.0 * k * std::sin(theta / 2.0) * std::sin(theta / 2.0);
        x += dot / norm * std::exp(lambda * t) * std::sin(j * theta);
    }
    return x;
}

} // namespace

TEST_CASE("the 1000-state linear chain compiles and integrates to its eigen-expansion", "[cpu][stiff]") {
    const fs::path cache = fresh_cache();
    auto study = trajectory("linear_chain.ode", 0.5, {"x1", "x10", "x30", "x100"}, {});
    REQUIRE(study->model->num_states() == 1000);
    const auto start = std::chrono::steady_clock::now();
    auto job = submit_cpu(cache, study);
    REQUIRE(job->wait_for(120s));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const study::Result& r = *job->result();
    CHECK(r.info.code_path == study::CodePath::NativeCompiled);
    WARN("1000-state chain: compile " << r.info.compile_seconds << " s, run " << r.info.run_seconds
                                      << " s, job " << seconds << " s");
    const int cells[] = {1, 10, 30, 100}; // columns 1..4; column 0 is t
    for (std::size_t c = 0; c < 4; ++c) {
        INFO("x" << cells[c]);
        CHECK(r.points.value(0, 1, c + 1) ==
              Approx(chain_solution(1000, 1000.0, 0.5, cells[c])).margin(1e-6));
    }
    fs::remove_all(cache);
}

TEST_CASE("the 202-state Schnakenberg chain matches Boost.Odeint's rosenbrock4", "[cpu][stiff]") {
    const fs::path cache = fresh_cache();
    const double t_end = 0.5;
    auto study = trajectory("schnakenberg_chain.ode", t_end, {"u0", "v0", "u10", "v10", "u50", "u100"},
                            {{"u0", 2.0}, {"u50", 1.5}, {"v100", 0.2}});
    REQUIRE(study->model->num_states() == 202);
    auto job = submit_cpu(cache, study);
    REQUIRE(job->wait_for(120s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const study::Result& r = *job->result();
    WARN("202-state Schnakenberg chain: compile " << r.info.compile_seconds << " s, run "
                                                  << r.info.run_seconds << " s");

    std::vector<double> x(2 * test::kSchnakenbergCells);
    for (std::size_t j = 0; j < test::kSchnakenbergCells; ++j)
        x[2 * j] = 1.0, x[2 * j + 1] = 0.9;
    x[0] = 2.0, x[2 * 50] = 1.5, x[2 * 100 + 1] = 0.2;
    x = test::schnakenberg_chain_odeint(x, t_end);
    const int indices[] = {0, 1, 20, 21, 100, 200};
    for (std::size_t c = 0; c < 6; ++c) {
        INFO("state " << indices[c]);
        CHECK(r.points.value(0, 1, c + 1) == Approx(x[indices[c]]).epsilon(1e-6).margin(1e-8));
    }
    fs::remove_all(cache);
}

TEST_CASE("compiling a 1000-state model reports progress and stops promptly on cancel",
          "[cpu][stiff][cancel]") {
    const fs::path cache = fresh_cache();
    std::mutex mutex;
    std::vector<double> compiling_at; // elapsed seconds of each "compiling model" report
    jobs::JobOptions options;
    options.on_progress = [&](const study::Progress& p) {
        std::lock_guard lock(mutex);
        if (p.phase == "compiling model") compiling_at.push_back(p.elapsed_seconds);
    };
    auto job = submit_cpu(cache, trajectory("linear_chain.ode", 0.5, {"x1"}, {}), options);
    // wait until progress has come from inside the compile, at least 0.5 s into it
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    for (;;) {
        {
            std::lock_guard lock(mutex);
            if (compiling_at.size() >= 2 && compiling_at.back() >= 0.5) break;
        }
        REQUIRE_FALSE(job->finished());
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        std::this_thread::sleep_for(5ms);
    }
    const auto cancel_time = std::chrono::steady_clock::now();
    job->cancel();
    REQUIRE(job->wait_for(10s));
    const double latency_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cancel_time).count();
    WARN("cancel while compiling: the job finished " << latency_ms << " ms after cancel()");
    CHECK(job->state() == jobs::JobState::Cancelled);
    CHECK(latency_ms < 500.0);
    {
        std::lock_guard lock(mutex);
        CHECK(std::is_sorted(compiling_at.begin(), compiling_at.end()));
        CHECK(compiling_at.back() > compiling_at.front());
    }
    fs::remove_all(cache);
}
