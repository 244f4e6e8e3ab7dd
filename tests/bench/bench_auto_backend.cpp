// Issue 33: does `auto` pick the faster backend? Every study in resources/studies at three sizes,
// run on cpu, on cuda and on auto (through the job API, as bifscope-cli runs them), each backend's
// code compiled beforehand (prepare) so that the times compare runs, not compiles. Reported: each
// time, auto's pick and auto's time over the faster backend's (goal <= 1.1 everywhere), and auto's
// note. A run under 1 s is repeated twice and the fastest of three counts (the same for cpu, cuda
// and auto: two runs of 16 threads on the same 36 systems took 0.33 and 0.35 s); auto's first run,
// which pays its probe and its measuring (later runs of the study in the process do not), is
// printed apart with its own ratio. The sizes scale the
// study's sweep counts so that the CPU takes about 0.1 s, 0.3 s and 1 s (from pilot runs of twice
// the CPU's threads and more); a study of one system runs at its own size only. The machine's
// calibration (engine/jobs/speed_calibration.h) is measured first, unless it is already kept, and
// its time printed apart.
//
//   bench_auto_backend [studies folder=resources/studies] [--only NAME_PART] [--cpu]
//     --only: the studies whose file name holds NAME_PART (the one study of that exact name if any).
//     --cpu: without a GPU, run the sizing and cpu/auto anyway, to check the harness.
// A cuda run that takes more than twice the CPU's time (+0.3 s) is stopped there: it cannot be the
// faster, and the table shows its time as a lower bound (">").
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/speed_calibration.h"
#include "engine/study/resolved_study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

using namespace bif;
namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timed {
    double seconds = -1; // -1: failed
    double first = -1;   // the first of the repeats (auto's probe runs then, not again for the study)
    std::string backend, note, failure;
    bool stopped = false;
    std::string run_note; // the backend's own ("cuda: 6 kernel launches ...")
};

// limit > 0: stopped after that long (then seconds is the limit, a lower bound, and stopped set).
Timed run(const jobs::BackendRegistry& registry, std::shared_ptr<const study::ResolvedStudy> s,
          study::BackendChoice choice, double limit = 0) {
    jobs::JobOptions options;
    options.backend = choice;
    const double start = now();
    auto job = jobs::submit(registry, std::move(s), options);
    Timed t;
    if (limit > 0 && !job->wait_for(std::chrono::milliseconds(long(limit * 1e3)))) {
        job->cancel();
        job->wait();
        t.seconds = limit;
        t.stopped = true;
        return t;
    }
    job->wait();
    if (!job->result()) {
        t.failure = job->failure();
        return t;
    }
    t.seconds = now() - start;
    t.backend = job->result()->info.backend;
    // auto's reason and the backend's own note apart: the cuda backend's note follows auto's, and
    // keeping only the last hid every reason auto gave for picking cuda
    for (const auto& n : job->result()->info.notes) {
        if (n.rfind("auto:", 0) == 0 && t.note.empty()) t.note = n;
        if (n.rfind("cuda:", 0) == 0) t.run_note = n;
    }
    if (t.note.empty()) t.note = t.run_note; // a cpu/cuda run: its note says why or how
    return t;
}

// Short runs are the scheduler's plaything: one under 1 s runs three times, the fastest counts.
Timed best_of(const jobs::BackendRegistry& registry, std::shared_ptr<const study::ResolvedStudy> s,
              study::BackendChoice choice, double limit = 0) {
    Timed best = run(registry, s, choice, limit);
    best.first = best.seconds;
    for (int again = 0; again < 2 && !best.stopped && best.seconds >= 0 && best.seconds < 1.0; ++again) {
        Timed t = run(registry, s, choice, limit);
        if (t.seconds >= 0 && !t.stopped && t.seconds < best.seconds)
            best = Timed{t.seconds, best.first, t.backend, best.note,
                         t.failure, false,      t.run_note}; // the first note says what the probe took
    }
    return best;
}

// The study with every sweep count scaled by about `factor` (the same share per axis).
std::shared_ptr<const study::ResolvedStudy> scaled(const study::ResolvedStudy& s, double factor) {
    study::Study st = s.study;
    const double per_axis = std::pow(factor, 1.0 / double(std::max<std::size_t>(1, st.sweep.size())));
    for (auto& axis : st.sweep)
        axis.count = std::clamp(int(std::lround(axis.count * per_axis)), 2, 1 << 22);
    auto r = study::resolve_study(st, s.base_directory);
    return r.resolved;
}

void prepare(const jobs::BackendRegistry& registry, const study::ResolvedStudy& s) {
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    for (const auto& b : registry.backends())
        if (b->availability().available && b->supports(s).available) b->prepare(s, control);
}

void calibrate(const jobs::BackendRegistry& registry) {
    const double start = now();
    const auto s = registry.select(study::BackendChoice::Auto, *jobs::reference_study(100000, 8));
    std::printf("calibration (or reading it): %.2f s, kept in %s\n  %s\n", now() - start,
                jobs::default_speeds_path().c_str(), s.notes.empty() ? "" : s.notes[0].c_str());
}

// Median of 7 calls, in ms.
template <class F>
double median_ms(F&& f) {
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        const double start = now();
        f();
        ms.push_back((now() - start) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// What auto's choice costs a run once nothing is left to measure, and its parts on the GPU's side:
// a run of a few milliseconds pays it whole.
void print_choice_cost(const jobs::BackendRegistry& registry, const study::ResolvedStudy& s) {
    const auto cuda = registry.find("cuda");
    std::printf("    auto's choice alone %.3f ms (cuda: availability %.3f, supports %.3f, ready %.3f, "
                "parallel_systems %.3f ms)\n",
                median_ms([&] { (void)registry.select(study::BackendChoice::Auto, s); }),
                median_ms([&] { (void)cuda->availability(); }), median_ms([&] { (void)cuda->supports(s); }),
                median_ms([&] { (void)cuda->ready(s); }),
                median_ms([&] { (void)cuda->parallel_systems(s); }));
}

struct Worst {
    double ratio = 0;
    int runs = 0, over = 0;
};

void bench_study(const jobs::BackendRegistry& registry, const fs::path& path, bool gpu, Worst& worst) {
    const auto loaded = study::load_study_file(path.string());
    if (!loaded.resolved) {
        std::printf("%s: does not load\n", path.filename().c_str());
        return;
    }
    const study::ResolvedStudy& whole = *loaded.resolved;
    std::vector<std::shared_ptr<const study::ResolvedStudy>> sizes;
    if (whole.study.sweep.empty() || whole.system_count() == 1) {
        sizes.push_back(loaded.resolved);
    } else {
        // pilots from twice the CPU's threads, eight times more until one takes 50 ms
        const double threads = std::max(1u, std::thread::hardware_concurrency());
        double per_system = 0;
        for (double pilot_systems = 2 * threads;; pilot_systems *= 8) {
            const auto pilot = scaled(whole, pilot_systems / double(whole.system_count()));
            if (!pilot) {
                std::printf("%s: does not resolve when scaled\n", path.filename().c_str());
                return;
            }
            prepare(registry, *pilot);
            const Timed p = best_of(registry, pilot, study::BackendChoice::Cpu);
            if (p.seconds < 0) {
                std::printf("%s: the CPU fails: %s\n", path.filename().c_str(), p.failure.c_str());
                return;
            }
            per_system = p.seconds / double(pilot->system_count());
            if (p.seconds >= 0.05 || pilot_systems > 1e6) break;
        }
        for (double target : {0.1, 0.3, 1.0}) {
            const double systems = std::max(2 * threads, target / per_system);
            sizes.push_back(scaled(whole, systems / double(whole.system_count())));
        }
    }
    for (const auto& s : sizes) {
        if (!s) continue;
        prepare(registry, *s);
        const Timed cpu = best_of(registry, s, study::BackendChoice::Cpu);
        // a GPU run twice as long as the CPU's cannot be the faster: stopped there (a study of few
        // systems with long integrations would take a GPU thread tens of seconds)
        const double limit = cpu.seconds > 0 ? 2 * cpu.seconds + 0.3 : 0;
        const Timed cuda = gpu ? best_of(registry, s, study::BackendChoice::Cuda, limit) : Timed{};
        const Timed pick = best_of(registry, s, study::BackendChoice::Auto);
        double best = cpu.seconds;
        if (cuda.seconds >= 0 && (best < 0 || cuda.seconds < best)) best = cuda.seconds;
        const double ratio = pick.seconds >= 0 && best > 0 ? pick.seconds / best : -1;
        std::printf(
            "%-36s %9zu systems  cpu %8.3f s  cuda %s%7.3f s  auto %8.3f s (%-4s)  auto/best %5.2f%s\n",
            path.stem().c_str(), s->system_count(), cpu.seconds, cuda.stopped ? ">" : " ", cuda.seconds,
            pick.seconds, pick.backend.c_str(), ratio, ratio > 1.1 ? "  OVER" : "");
        if (!pick.note.empty()) std::printf("    %s\n", pick.note.c_str());
        if (!pick.run_note.empty() && pick.run_note != pick.note)
            std::printf("    %s\n", pick.run_note.c_str());
        if (pick.first >= 0 && best > 0)
            std::printf("    auto's first run (its probe included) %.3f s, %.2f x the best\n", pick.first,
                        pick.first / best);
        if (!cuda.failure.empty()) std::printf("    cuda failed: %s\n", cuda.failure.c_str());
        if (gpu) print_choice_cost(registry, *s);
        ++worst.runs;
        worst.ratio = std::max(worst.ratio, ratio);
        if (ratio > 1.1) ++worst.over;
    }
}

} // namespace

int main(int argc, char** argv) {
    fs::path folder = fs::path(BIFSCOPE_SOURCE_DIR) / "resources" / "studies";
    bool cpu_anyway = false;
    std::string only; // run the studies whose file name holds this
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--cpu")
            cpu_anyway = true;
        else if (a == "--only" && i + 1 < argc)
            only = argv[++i];
        else
            folder = a;
    }
    const jobs::BackendRegistry registry = jobs::installed_backends();
    const auto cuda = registry.find("cuda");
    const study::Availability a =
        cuda ? cuda->availability() : study::Availability{false, "no CUDA backend in this build"};
    if (!a.available) {
        std::printf("bench_auto_backend: no GPU (%s): auto runs on the CPU without measuring anything; "
                    "nothing to compare\n",
                    a.reason.c_str());
        if (!cpu_anyway) return 0;
    }
    const double start = now();
    if (a.available) calibrate(registry);
    std::vector<fs::path> studies;
    for (const auto& e : fs::directory_iterator(folder))
        if (e.path().extension() == ".json" && e.path().filename().string().find(only) != std::string::npos)
            studies.push_back(e.path());
    std::sort(studies.begin(), studies.end());
    // a name that is a study's whole name picks that study alone (duffing_bifurcation, not also
    // duffing_bifurcation_quick)
    if (std::any_of(studies.begin(), studies.end(), [&](const fs::path& p) { return p.stem() == only; }))
        std::erase_if(studies, [&](const fs::path& p) { return p.stem() != only; });
    Worst worst;
    for (const auto& path : studies) {
        const double study_start = now();
        bench_study(registry, path, a.available, worst);
        std::printf("    (%s: %.1f s with compiles)\n", path.stem().c_str(), now() - study_start);
        std::fflush(stdout);
    }
    std::printf("%d runs: auto/best at most %.2f, %d over 1.1; %.0f s in all\n", worst.runs, worst.ratio,
                worst.over, now() - start);
    return 0;
}
