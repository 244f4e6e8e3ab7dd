#include "engine/jobs/work_choice.h"

#include <algorithm>
#include <cstdio>

namespace bif::jobs {

namespace {

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

// One backend's prediction as a line in the work: a + b*w, for systems of equal work; `at` with
// the heaviest system's work apart: a run lasts at least as long as its slowest system alone.
struct Line {
    double a = 0, b = 0;
    double single = 0; // per evaluator-second of one system alone
    bool compiles = false;
    double compile = 0;

    double at(double work, double heaviest = 0) const {
        return a + std::max(b * work, single * std::max(work, heaviest));
    }
    std::string text(const std::string& name, double work, double heaviest) const {
        std::string t = name + " ~" + seconds_text(at(work, heaviest));
        if (compiles) t += " (" + seconds_text(compile) + " of it compiling)";
        return t;
    }
};

Line line_of(const BackendSpeed& speed, SpeedInputs in) {
    Line l;
    in.work = 0;
    l.a = predicted_seconds(speed, in);
    in.work = 1;
    l.b = predicted_seconds(speed, in) - l.a;
    SpeedInputs one = in;
    one.parallel = 1;
    one.work = 0;
    const double one_at_zero = predicted_seconds(speed, one);
    one.work = 1;
    l.single = predicted_seconds(speed, one) - one_at_zero;
    l.compiles = in.compiles;
    l.compile = in.compiles ? speed.compile_seconds * std::max(1.0, in.compile_scale) : 0.0;
    return l;
}

} // namespace

std::optional<WorkChoice> choose_by_work(const study::ResolvedStudy& study, std::size_t parallel,
                                         const std::string& work_text, const WorkChoiceSetup& setup,
                                         std::string& why_not) {
    const std::atomic<bool> never{false};
    study::RunControl* control = setup.control;
    const std::atomic<bool>& cancel = control ? control->cancel_flag() : never;
    if (control) control->report_progress(0, study.system_count(), "measuring the backends");
    const auto speeds = setup.calibration->speeds_for({setup.cpu, setup.cuda}, *setup.probe, cancel);
    if (!speeds) {
        why_not = "the backends' speeds could not be measured";
        return std::nullopt;
    }
    SpeedInputs in;
    in.parallel = parallel;
    const std::size_t size = code_size(study);
    in.compile_scale = size == 0 ? 1.0 : double(size) / double(speeds->reference_code_size);
    in.threads = control ? control->threads() : 0;
    SpeedInputs on_cpu = in, on_gpu = in;
    on_cpu.compiles = !setup.cpu->ready(study);
    on_gpu.compiles = !setup.cuda->ready(study);
    on_gpu.threads = 0;
    on_gpu.lanes = setup.cuda->parallel_systems(study);
    const BackendSpeed& cpu_speed = speeds->backends.at(setup.cpu->name());
    const Line cpu = line_of(cpu_speed, on_cpu);
    const Line gpu = line_of(speeds->backends.at(setup.cuda->name()), on_gpu);
    const std::string threads = std::to_string(in.threads != 0 ? in.threads : cpu_speed.threads) + " threads";

    WorkChoice choice;
    // One line below the other everywhere: the work does not matter.
    if ((gpu.a >= cpu.a && gpu.b >= cpu.b) || (gpu.a <= cpu.a && gpu.b <= cpu.b)) {
        choice.gpu = gpu.b < cpu.b;
        const Line& slow = choice.gpu ? cpu : gpu;
        const Line& fast = choice.gpu ? gpu : cpu;
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2g", slow.b / fast.b);
        choice.note = "auto: " + work_text + ": " + (choice.gpu ? "cpu" : "cuda") +
                      " is slower at any length of integration (x" + ratio + " per unit of work, " +
                      seconds_text(slow.a - fast.a) + " more to start" +
                      (slow.compiles ? ", compiling" : "") + ", cpu on " + threads + "); running on " +
                      (choice.gpu ? "cuda" : "cpu");
        return choice;
    }
    const double crossing = (gpu.a - cpu.a) / (cpu.b - gpu.b);
    const std::string key = setup.memo ? work_key(study) : std::string();
    const std::optional<KnownWork> known = setup.memo ? setup.memo->find(key) : std::nullopt;
    WorkMeasure work;
    if (known) {
        work.work = known->work;
        work.heaviest = known->heaviest;
    } else {
        ProbeOptions probe;
        probe.min_seconds = std::clamp(0.02 * cpu.at(crossing), 0.002, 0.02);
        probe.decided = [&](double w, double spent, double slice) {
            if (slice < 0.002) return false; // shorter slices are the timer's and the scheduler's
            if (w > 4 * crossing || w < crossing / 4) return true;
            // 3% of the run it decides for is enough: near the crossing a wrong pick costs little
            return spent >= 0.03 * std::min(cpu.at(w), gpu.at(w));
        };
        work = measure_work(study, *setup.probe, cancel, setup.clock, probe);
        if (!work.failure.empty()) {
            why_not =
                "the work could not be measured (" + work.failure.substr(0, work.failure.find('\n')) + ")";
            return std::nullopt;
        }
        if (setup.memo) setup.memo->keep(key, {work.work, work.heaviest});
    }
    const double heaviest = std::max(work.work, work.heaviest);
    choice.gpu = gpu.at(work.work, heaviest) < cpu.at(work.work, heaviest);
    // the heaviest named where it outweighs the mean enough to count
    const std::string spread =
        heaviest > 1.5 * work.work ? " (" + seconds_text(heaviest) + " the heaviest)" : "";
    choice.note =
        "auto: " + work_text + " of " + seconds_text(work.work) + " of evaluator work each" + spread + ": " +
        gpu.text("cuda", work.work, heaviest) + ", " + cpu.text("cpu", work.work, heaviest) + " on " +
        threads + "; running on " + (choice.gpu ? "cuda" : "cpu") +
        (known ? " (measured by an earlier run)" : " (measured in " + seconds_text(work.probe_seconds) + ")");
    return choice;
}

} // namespace bif::jobs
