// The app's run and zoom timings of issue #11 at the engine's level (the job API that the app's
// StudyRunner drives, without Qt), on the CUDA backend with a warm module cache:
//   (a) the MPGOS Duffing diagram (46080 values of k, 1024 + 32 periods), then a zoom into
//       k in the second fifth to half of its range at the same count, progressive as the app runs it
//       (goal: complete in under 0.3 s) and in one pass;
//   (b) a 1024^2 Duffing period + Lyapunov map (64 + 64 periods): time to the first coarse pass (every
//       system of pass 0 in) and to completion (goals < 0.15 s and < 1.5 s), and in one pass.
// Each progressive line also gives the blocks it ran. Exits 77 without a GPU.
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/study_json.h"
#include "handwritten/bench_support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <vector>

using namespace bif;
using Clock = std::chrono::steady_clock;

namespace {

// The CUDA backend as a progressive job saw it before session 10: no width, so blocks were sized for
// CPU threads (16 systems first, doubling).
class WithoutWidth : public study::Backend {
  public:
    explicit WithoutWidth(std::shared_ptr<study::Backend> b) : b_(std::move(b)) {}
    std::string name() const override { return b_->name(); }
    study::Availability availability() const override { return b_->availability(); }
    study::Availability supports(const study::ResolvedStudy& s) const override { return b_->supports(s); }
    study::Result run(const study::ResolvedStudy& s, study::RunControl& c) override { return b_->run(s, c); }
    bool ready(const study::ResolvedStudy& s) const override { return b_->ready(s); }
    void prepare(const study::ResolvedStudy& s, study::RunControl& c) override { b_->prepare(s, c); }

  private:
    std::shared_ptr<study::Backend> b_;
};

struct Timing {
    double first_pass = -1.0; // every system of pass 0 in; -1 without passes
    double done = 0.0;
    std::size_t blocks = 0;
    int passes = 1;
    std::string backend;
};

study::Study read(const char* name) {
    auto r = study::read_study_file(bench::source_path("resources/studies") + "/" + name);
    if (!r.study) throw std::runtime_error(std::string("cannot read ") + name);
    return *r.study;
}

Timing run(const jobs::BackendRegistry& registry, const study::Study& s, bool progressive) {
    auto resolved = study::resolve_study(s, bench::source_path("resources/studies")).resolved;
    if (!resolved) throw std::runtime_error("the study does not resolve");
    Timing t;
    std::mutex mutex;
    std::size_t pass_zero = 0, pass_zero_total = 0;
    const auto start = Clock::now();
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cuda;
    options.progressive = progressive;
    options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) {
        std::lock_guard lock(mutex);
        ++t.blocks;
        t.passes = b->pass_count;
        if (b->pass != 0 || b->provisional || t.first_pass >= 0.0) return;
        if (pass_zero_total == 0) {
            pass_zero_total = 1;
            for (const auto& axis : s.sweep)
                pass_zero_total *= std::size_t((axis.count + b->stride - 1) / b->stride);
        }
        pass_zero += b->systems.size();
        if (pass_zero == pass_zero_total && b->pass_count > 1)
            t.first_pass = std::chrono::duration<double>(Clock::now() - start).count();
    };
    auto job = jobs::submit(registry, resolved, options);
    job->wait();
    t.done = std::chrono::duration<double>(Clock::now() - start).count();
    if (job->state() != jobs::JobState::Succeeded) throw std::runtime_error("run failed: " + job->failure());
    t.backend = job->result()->info.backend + " " + job->result()->info.device;
    return t;
}

void print(const char* what, const Timing& t, const char* goal) {
    std::printf("%-44s %7.3f s complete", what, t.done);
    if (t.first_pass >= 0.0) std::printf(", first coarse pass %.3f s", t.first_pass);
    std::printf(" (%zu blocks, %d passes; %s)%s\n", t.blocks, t.passes, t.backend.c_str(), goal);
    std::fflush(stdout);
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        const jobs::BackendRegistry registry = jobs::installed_backends();
        study::Study diagram = read("duffing_bifurcation.json");
        diagram.sweep.at(0).count = 46080;
        diagram.bifurcation.transient_sections = 1024;
        print("diagram 46080 k, first run (fills the cache)", run(registry, diagram, true), "");
        study::Study zoom = diagram;
        const double from = diagram.sweep[0].from, span = diagram.sweep[0].to - diagram.sweep[0].from;
        zoom.sweep[0].from = from + 0.2 * span;
        zoom.sweep[0].to = from + 0.5 * span;
        for (int i = 0; i < 3; ++i)
            print("diagram zoom, 46080 k, progressive", run(registry, zoom, true), " (goal < 0.3 s)");
        print("diagram zoom, 46080 k, one pass", run(registry, zoom, false), "");
        jobs::BackendRegistry before;
        before.add(std::make_shared<WithoutWidth>(registry.find("cuda")));
        print("diagram zoom, 46080 k, blocks as before", run(before, zoom, true), "");

        study::Study map = read("duffing_period_map.json");
        for (auto& axis : map.sweep)
            axis.count = 1024;
        map.map.transient_sections = 64;
        map.map.recorded_sections = 64;
        for (int i = 0; i < 3; ++i)
            print(i == 0 ? "map 1024^2, progressive (fills the cache)" : "map 1024^2, progressive",
                  run(registry, map, true), i == 0 ? "" : " (goals < 0.15 s, < 1.5 s)");
        print("map 1024^2, one pass", run(registry, map, false), "");
        print("map 1024^2, blocks as before", run(before, map, true), "");
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
