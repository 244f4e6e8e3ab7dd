#include "engine/jobs/backend_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

namespace bif::jobs {

void BackendRegistry::add(std::shared_ptr<study::Backend> backend) {
    backends_.push_back(std::move(backend));
}

std::shared_ptr<study::Backend> BackendRegistry::find(const std::string& name) const {
    for (const auto& b : backends_)
        if (b->name() == name) return b;
    return nullptr;
}

namespace {

// The backend's reason it cannot run, or an empty string when it can.
std::string why_not(const study::Backend& backend, const study::ResolvedStudy& study) {
    study::Availability a = backend.availability();
    if (!a.available) return a.reason.empty() ? "not available" : a.reason;
    a = backend.supports(study);
    if (!a.available) return a.reason.empty() ? "does not support this study" : a.reason;
    return {};
}

std::string systems_text(std::size_t count) {
    return std::to_string(count) + (count == 1 ? " system" : " systems");
}

// What runs side by side: the systems, or a continuation's chains (each runs system after system).
std::size_t parallel_work(const study::ResolvedStudy& study) {
    return study.is_continuation() ? study.chain_count() : study.system_count();
}

std::string work_text(const study::ResolvedStudy& study) {
    if (!study.is_continuation()) return systems_text(study.system_count());
    const std::size_t chains = study.chain_count();
    return std::to_string(chains) + (chains == 1 ? " continuation chain" : " continuation chains");
}

// "0.47 s", "12 ms", "3.1 min": two significant digits are all a prediction deserves.
std::string seconds_text(double seconds) {
    char text[32];
    if (seconds < 0.1)
        std::snprintf(text, sizeof text, "%.2g ms", seconds * 1e3);
    else if (seconds < 120)
        std::snprintf(text, sizeof text, "%.2g s", seconds);
    else
        std::snprintf(text, sizeof text, "%.2g min", seconds / 60);
    return text;
}

std::string predicted_text(const std::string& name, double seconds, bool compiles, double compile) {
    std::string text = name + " ~" + seconds_text(seconds);
    if (compiles) text += " (" + seconds_text(compile) + " of it compiling)";
    return text;
}

} // namespace

void BackendRegistry::set_work_estimate(std::shared_ptr<study::Backend> probe,
                                        std::shared_ptr<SpeedCalibration> calibration, SecondsClock clock) {
    probe_ = std::move(probe);
    calibration_ = std::move(calibration);
    clock_ = std::move(clock);
}

std::optional<BackendSelection> BackendRegistry::select_by_work(const study::ResolvedStudy& study,
                                                                const std::shared_ptr<study::Backend>& cpu,
                                                                const std::shared_ptr<study::Backend>& cuda,
                                                                study::RunControl* control,
                                                                std::string& why_not) const {
    const std::atomic<bool> never{false};
    const std::atomic<bool>& cancel = control ? control->cancel_flag() : never;
    if (control) control->report_progress(0, study.system_count(), "measuring the backends");
    const auto speeds = calibration_->speeds_for({cpu.get(), cuda.get()}, *probe_, cancel);
    if (!speeds) {
        why_not = "the backends' speeds could not be measured";
        return std::nullopt;
    }
    const WorkMeasure work = measure_work(study, *probe_, cancel, clock_);
    if (!work.failure.empty()) {
        why_not = "the work could not be measured (" + work.failure.substr(0, work.failure.find('\n')) + ")";
        return std::nullopt;
    }
    SpeedInputs in;
    in.parallel = parallel_work(study);
    in.work = work.work;
    const std::size_t size = code_size(study);
    in.compile_scale = size == 0 ? 1.0 : double(size) / double(speeds->reference_code_size);
    in.threads = control ? control->threads() : 0;
    SpeedInputs on_cpu = in, on_gpu = in;
    on_cpu.compiles = !cpu->ready(study);
    on_gpu.compiles = !cuda->ready(study);
    on_gpu.threads = 0;
    on_gpu.lanes = cuda->parallel_systems(study);
    const BackendSpeed& cpu_speed = speeds->backends.at(cpu->name());
    const BackendSpeed& gpu_speed = speeds->backends.at(cuda->name());
    const double t_cpu = predicted_seconds(cpu_speed, on_cpu), t_gpu = predicted_seconds(gpu_speed, on_gpu);
    const unsigned threads = in.threads != 0 ? in.threads : cpu_speed.threads;
    BackendSelection selection;
    selection.backend = t_gpu < t_cpu ? cuda : cpu;
    selection.notes.push_back(
        "auto: " + work_text(study) + " of " + seconds_text(work.work) + " of evaluator work each: " +
        predicted_text("cuda", t_gpu, on_gpu.compiles,
                       gpu_speed.compile_seconds * std::max(1.0, in.compile_scale)) +
        ", " +
        predicted_text("cpu", t_cpu, on_cpu.compiles,
                       cpu_speed.compile_seconds * std::max(1.0, in.compile_scale)) +
        " on " + std::to_string(threads) + " threads; running on " + selection.backend->name() +
        " (measured in " + seconds_text(work.probe_seconds) + ")");
    return selection;
}

BackendSelection BackendRegistry::select(study::BackendChoice choice, const study::ResolvedStudy& study,
                                         study::RunControl* control) const {
    BackendSelection selection;
    if (choice == study::BackendChoice::Cpu) return select_cpu(std::move(selection), study);
    const auto cuda = find("cuda");
    const std::size_t systems = parallel_work(study);
    const auto cpu = find("cpu");
    const bool cpu_runs = cpu && why_not(*cpu, study).empty();
    std::string count_reason; // why auto decides by the count of systems
    if (choice == study::BackendChoice::Auto && cuda && cpu_runs && probe_ && calibration_) {
        // A GPU thread is slower than a core: a study with no more systems than threads never
        // gains from a GPU, and does not even ask the driver (slow the first time).
        const unsigned threads =
            control ? control->threads() : std::max(1u, std::thread::hardware_concurrency());
        if (systems <= threads) {
            selection.notes.push_back("auto: " + work_text(study) + ", no more than the CPU's " +
                                      std::to_string(threads) + " threads; running on the CPU");
            selection.backend = cpu;
            return selection;
        }
        if (why_not(*cuda, study).empty()) {
            if (auto by_work = select_by_work(study, cpu, cuda, control, count_reason)) return *by_work;
            count_reason = "auto: " + count_reason + "; deciding by the count: ";
        }
    }
    // Asking a driver whether it can run is slow the first time: a small study does not ask.
    if (choice == study::BackendChoice::Auto && cuda && systems < min_gpu_systems_ && cpu_runs) {
        selection.notes.push_back((count_reason.empty() ? "auto: " : count_reason) + work_text(study) +
                                  "; the CPU is faster for so few");
        selection.backend = cpu;
        return selection;
    }
    const std::string reason = cuda ? why_not(*cuda, study) : "this build has no CUDA backend";
    if (reason.empty()) {
        if (choice == study::BackendChoice::Auto)
            selection.notes.push_back((count_reason.empty() ? "auto: " : count_reason) + work_text(study) +
                                      " fill the GPU; running on cuda");
        selection.backend = cuda;
        return selection;
    }
    // Whoever names the GPU explicitly is timing it or needs its precision: running on the CPU
    // instead would answer a different question.
    if (choice == study::BackendChoice::Cuda) {
        selection.failure = "cuda: " + reason;
        return selection;
    }
    if (cuda) selection.notes.push_back("cuda: " + reason + "; running on the CPU");
    return select_cpu(std::move(selection), study);
}

BackendSelection BackendRegistry::select_cpu(BackendSelection selection,
                                             const study::ResolvedStudy& study) const {
    auto cpu = find("cpu");
    if (!cpu) {
        selection.failure = "this build has no CPU backend";
        return selection;
    }
    if (const std::string reason = why_not(*cpu, study); !reason.empty()) {
        selection.failure = "cpu: " + reason;
        return selection;
    }
    selection.backend = cpu;
    return selection;
}

} // namespace bif::jobs
