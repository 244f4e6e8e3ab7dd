#include "engine/jobs/work_choice.h"

#include "engine/jobs/model_speed.h"
#include "engine/jobs/seconds_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace bif::jobs {

namespace {

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

// How far a model's factor (model_speed.h) may lie from the reference's before it is measured:
// a GPU thread pays up to ten times the reference's time per unit of work (double pow and exp,
// events), rarely less than half; native code on a core differs less.
constexpr double gpu_factor_up = 8, gpu_factor_down = 0.5;
constexpr double cpu_factor_up = 2, cpu_factor_down = 0.5;
// A kept factor was measured on another study of the model (another size, another sweep): it
// holds within this much either way.
constexpr double kept_factor_margin = 1.5;

// Whether one line lies below the other for every work; `gpu` then says which.
bool one_below(const Line& cpu, const Line& gpu, bool& gpu_below) {
    if (gpu.a <= cpu.a && gpu.b <= cpu.b) {
        gpu_below = gpu.a < cpu.a || gpu.b < cpu.b;
        return true;
    }
    if (gpu.a >= cpu.a && gpu.b >= cpu.b) {
        gpu_below = false;
        return true;
    }
    return false;
}

std::string factor_text(double factor) {
    char text[32];
    std::snprintf(text, sizeof text, "x%.2g", factor);
    return text;
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
    // generated once: its size, the model's key and the work's key follow it
    const std::string source = study_source(study);
    const std::size_t size = source.size();
    in.compile_scale = size == 0 ? 1.0 : double(size) / double(speeds->reference_code_size);
    in.threads = control ? control->threads() : 0;
    SpeedInputs on_cpu = in, on_gpu = in;
    on_cpu.compiles = !setup.cpu->ready(study);
    on_gpu.compiles = !setup.cuda->ready(study);
    on_gpu.threads = 0;
    on_gpu.lanes = setup.cuda->parallel_systems(study);
    const BackendSpeed& cpu_speed = speeds->backends.at(setup.cpu->name());
    const BackendSpeed& gpu_speed = speeds->backends.at(setup.cuda->name());
    const std::string model = model_speed_key(study, source);
    // 0: not measured for this model (the reference's speed stands in)
    double cpu_factor = speeds->model_factor(model, setup.cpu->name());
    double gpu_factor = speeds->model_factor(model, setup.cuda->name());
    const auto lines_at = [&](double cpu_f, double gpu_f) {
        return std::pair{line_of(scaled_speed(cpu_speed, cpu_f), on_cpu),
                         line_of(scaled_speed(gpu_speed, gpu_f), on_gpu)};
    };
    Line cpu, gpu; // not a structured binding: lambdas below capture them
    std::tie(cpu, gpu) = lines_at(cpu_factor, gpu_factor);
    const std::string threads = std::to_string(in.threads != 0 ? in.threads : cpu_speed.threads) + " threads";
    // the factors used, for the note
    std::string factors_note;
    const auto note_factors = [&](const std::string& how) {
        std::string t;
        if (gpu_factor > 0) t += "cuda " + factor_text(gpu_factor);
        if (cpu_factor > 0) t += std::string(t.empty() ? "" : ", ") + "cpu " + factor_text(cpu_factor);
        if (!t.empty())
            factors_note = "; this model's time per unit of work against the reference's: " + t + how;
    };
    note_factors(" (measured by an earlier run)");

    WorkChoice choice;
    const auto below_everywhere = [&](bool gpu_below) {
        choice.gpu = gpu_below;
        const Line& slow = choice.gpu ? cpu : gpu;
        const Line& fast = choice.gpu ? gpu : cpu;
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2g", slow.b / fast.b);
        choice.note = "auto: " + work_text + ": " + (choice.gpu ? "cpu" : "cuda") +
                      " is slower at any length of integration (x" + ratio + " per unit of work, " +
                      seconds_text(slow.a - fast.a) + " more to start" +
                      (slow.compiles ? ", compiling" : "") + ", cpu on " + threads + "); running on " +
                      (choice.gpu ? "cuda" : "cpu") + factors_note;
        return choice;
    };
    // A factor can be measured where the backend's code is ready (else the reference's stands
    // in); one not measured yet may lie anywhere in its range, a kept one within its margin. A
    // choice that no factor in those ranges would change needs no measuring: the lines drawn with
    // the factors least favourable to the winner, each at the end of its range that favours the
    // loser.
    bool measure_cpu = !on_cpu.compiles;
    bool measure_gpu = !on_gpu.compiles;
    const auto adverse = [](bool measurable, double factor, bool up, double range_up, double range_down) {
        if (!measurable) return factor;
        if (factor > 0) return up ? factor * kept_factor_margin : factor / kept_factor_margin;
        return up ? range_up : range_down;
    };
    const auto adverse_lines = [&](bool gpu_wins) {
        return lines_at(adverse(measure_cpu, cpu_factor, !gpu_wins, cpu_factor_up, cpu_factor_down),
                        adverse(measure_gpu, gpu_factor, gpu_wins, gpu_factor_up, gpu_factor_down));
    };
    bool gpu_below = false;
    if (one_below(cpu, gpu, gpu_below)) {
        Line cpu_worst, gpu_worst;
        std::tie(cpu_worst, gpu_worst) = adverse_lines(gpu_below);
        bool still = false;
        if (one_below(cpu_worst, gpu_worst, still) && still == gpu_below) return below_everywhere(gpu_below);
    }
    const std::string key = setup.memo ? work_key(study, source) : std::string();
    const std::optional<KnownWork> known = setup.memo ? setup.memo->find(key) : std::nullopt;
    WorkMeasure work;
    if (known) {
        work.work = known->work;
        work.heaviest = known->heaviest;
        // factors measured on this very study hold for it exactly: nothing to measure again
        if (known->factors_measured) measure_cpu = measure_gpu = false;
    } else {
        // 0 where the lines do not cross (a choice the model's factors may change): then the
        // probe's budget follows the run alone
        const double crossing = one_below(cpu, gpu, gpu_below) ? 0.0 : (gpu.a - cpu.a) / (cpu.b - gpu.b);
        ProbeOptions probe;
        probe.min_seconds = crossing > 0
                                ? std::clamp(0.02 * std::min(cpu.at(crossing), gpu.at(crossing)), 0.002, 0.02)
                                : 0.02;
        probe.decided = [&](double w, double spent, double slice) {
            if (slice < 0.002) return false; // shorter slices are the timer's and the scheduler's
            if (crossing > 0 && (w > 4 * crossing || w < crossing / 4)) return true;
            // 3% of the run it decides for is enough: near the crossing a wrong pick costs little
            return spent >= 0.03 * std::min(cpu.at(w), gpu.at(w));
        };
        work = measure_work(study, *setup.probe, cancel, setup.clock, probe);
        if (!work.failure.empty()) {
            why_not =
                "the work could not be measured (" + work.failure.substr(0, work.failure.find('\n')) + ")";
            return std::nullopt;
        }
        if (setup.memo) setup.memo->keep(key, {work.work, work.heaviest, {}, false});
    }
    const double heaviest = std::max(work.work, work.heaviest);
    const auto at_work = [&](const Line& l) { return l.at(work.work, heaviest); };
    // At the measured work: whether an unmeasured factor could still change the choice.
    const auto settled = [&] {
        const bool gpu_wins = at_work(gpu) < at_work(cpu);
        Line cpu_worst, gpu_worst;
        std::tie(cpu_worst, gpu_worst) = adverse_lines(gpu_wins);
        return (at_work(gpu_worst) < at_work(cpu_worst)) == gpu_wins;
    };
    // the study's earlier race in this process decided
    const std::string winner = known ? known->winner : std::string();
    std::string race_note;
    if (winner.empty() && (measure_cpu || measure_gpu) && !settled()) {
        // A slice of about 1% of the faster run as the reference's speed predicts it, 1 ms at least
        // (a model ten times slower on a backend takes ten times that, once per machine).
        const double target = std::clamp(0.01 * std::min(at_work(cpu), at_work(gpu)), 0.001, 0.03);
        // a system of the study, not a continuation's chain of them
        const double system_heaviest = study.is_continuation()
                                           ? heaviest / double(std::max<std::size_t>(study.chain_length(), 1))
                                           : heaviest;
        double spent = 0;
        bool cancelled = false;
        const auto measure_factor = [&](study::Backend& backend, const BackendSpeed& speed, double& factor) {
            const FactorMeasure m =
                measure_model_factor(study, backend, speed, system_heaviest, target, cancel, setup.clock);
            spent += m.seconds;
            cancelled = cancelled || m.failure == "cancelled";
            // a backend that fails on the slice keeps the reference's speed: its run says why
            if (m.failure.empty()) {
                factor = m.factor;
                setup.calibration->keep_model_factor(model, backend.name(), factor);
            }
            std::tie(cpu, gpu) = lines_at(cpu_factor, gpu_factor);
        };
        // the CPU's first: a few cores for a few milliseconds, and it may settle the choice alone
        if (measure_cpu) measure_factor(*setup.cpu, cpu_speed, cpu_factor);
        measure_cpu = false;
        if (!cancelled && measure_gpu && !settled()) {
            if (study.is_continuation() || !setup.race) {
                // chains run one system after another (and without a race): the samples' systems
                // stand for them
                measure_factor(*setup.cuda, gpu_speed, gpu_factor);
                measure_gpu = false;
            } else {
                // A GPU's time for a few hundred systems is its slowest warp's, which no sample
                // and no short slice shows: both run, the first to finish is kept.
                choice.race = true;
                race_note = "; too close to call: cpu and cuda race, the first to finish is kept";
            }
        }
        if (cancelled) {
            why_not = "the work could not be measured (cancelled)";
            return std::nullopt;
        }
        if (spent > 0) note_factors(" (measured in " + seconds_text(spent) + ")");
        // a race chosen but not yet run is chosen again until it has a winner
        if (setup.memo && !choice.race) setup.memo->keep(key, {work.work, work.heaviest, {}, true});
    }
    choice.gpu = !winner.empty() ? winner == setup.cuda->name() : at_work(gpu) < at_work(cpu);
    choice.memo_key = key;
    choice.known = {work.work, work.heaviest, {}, true};
    // the heaviest named where it outweighs the mean enough to count
    const std::string spread =
        heaviest > 1.5 * work.work ? " (" + seconds_text(heaviest) + " the heaviest)" : "";
    choice.note = "auto: " + work_text + " of " + seconds_text(work.work) + " of evaluator work each" +
                  spread + ": " + gpu.text("cuda", work.work, heaviest) + ", " +
                  cpu.text("cpu", work.work, heaviest) + " on " + threads +
                  (choice.race ? race_note : "; running on " + std::string(choice.gpu ? "cuda" : "cpu")) +
                  (!winner.empty() ? " (" + winner + " won the race of an earlier run)"
                   : known         ? " (measured by an earlier run)"
                                   : " (measured in " + seconds_text(work.probe_seconds) + ")") +
                  factors_note;
    return choice;
}

} // namespace bif::jobs
