// The GPU stiff-solver benchmark of Utkarsh et al. (issue 36): Robertson's equations with
// k3 = linspace(0, 1e4, N) (k1 = 0.04, k2 = 3e7), y0 = (1, 0, 0), t from 0 to 1e5, initial step 1e-3,
// rtol 1e-3, atol 1e-6, N = 2^20 and 8388608, float and double, Rosenbrock23 and Rodas4; and HIRES
// (8 states, the rate k of y6 + y8 -> y7 over 280 +- 20%) at 2^20 systems, Rodas4, double. The
// Bifscope ensemble kernel (a bifurcation study with one stroboscopic section at t_end) against a
// hand-written per-thread kernel (handwritten/: the same formulas, error norm and step control, its
// LU in registers), kernel times with CUDA events (median of 3 after a warm-up). Per case: both
// times and their ratio, the mean accepted steps of both (Bifscope's read from its carry, kept by a
// second compile with -DBIF_ENSEMBLE_KEEP_FINISHED_CARRY) and the largest per-system difference of
// the counts, the failed systems of both (the first few of Bifscope's by index), and the largest
// difference between the final states in tolerances (|a - b| / (atol + rtol |b|)) and relative
// (|a - b| / |b| where |b| > 100 atol). For Robertson,
// then the whole study through the job API on the CUDA backend, warm (module cached, second run),
// end to end, and where that time goes (job_breakdown). BENCH_STIFF_SIZES="20 23" (log2 of N for
// Robertson), BENCH_STIFF_CASES (a substring of the case names to run: "rosenbrock23 float",
// "rodas4", "hires"), BENCH_STIFF_NO_JOB=1 (kernels only). Exits 77 without a GPU.
#include "bif/study/section_program.h"
#include "engine/cuda/driver_library.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/sweep_grid.h"
#include "handwritten/bench_support.h"

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <vector>

using namespace bif;

namespace {

// The hand-written kernels' settings (handwritten/stiff_support.cuh), field for field.
template <class Real>
struct StiffSettings {
    Real t_end, rtol, atol, h0, min_step, shrink;
    int max_attempts;
};

struct Problem {
    const char* name;
    int states;
    double t_end, rtol, atol, h0;
};
constexpr Problem robertson{"robertson", 3, 1e5, 1e-3, 1e-6, 1e-3};
constexpr Problem hires{"hires", 8, 321.8122, 1e-6, 1e-10, 1e-3};

// robertson.ode without its dtmax=1 and bound=10 (the benchmark has neither)
std::string robertson_study(std::size_t n, bool single, const char* method) {
    std::ostringstream json;
    json << R"({"bifscope_study": 1, "model": {"path": "../models/robertson.ode"},
      "parameters": {"k1": 0.04, "k2": 3e7}, "initial": {"y1": 1, "y2": 0, "y3": 0},
      "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": )"
         << n << R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
      "solver": {"method": ")"
         << method << R"(", "rtol": 1e-3, "atol": 1e-6, "initial_step": 1e-3, "bound": 0, "max_step": 0},
      "precision": ")"
         << (single ? "float" : "double") << "\"}";
    return json.str();
}

// HIRES (Schaefer 1975; Hairer & Wanner, Solving ODEs II, Sect. IV.10), k swept over 280 +- 20%
std::string hires_study(std::size_t n) {
    const char* model = "y1'=-1.71*y1+0.43*y2+8.32*y3+0.0007\\n"
                        "y2'=1.71*y1-8.75*y2\\n"
                        "y3'=-10.03*y3+0.43*y4+0.035*y5\\n"
                        "y4'=8.32*y2+1.71*y3-1.12*y4\\n"
                        "y5'=-1.745*y5+0.43*y6+0.43*y7\\n"
                        "y6'=-k*y6*y8+0.69*y4+1.71*y5-0.43*y6+0.69*y7\\n"
                        "y7'=k*y6*y8-1.81*y7\\n"
                        "y8'=-k*y6*y8+1.81*y7\\n"
                        "par k=280\\n"
                        "init y1=1,y2=0,y3=0,y4=0,y5=0,y6=0,y7=0,y8=0.0057\\n"
                        "done\\n";
    std::ostringstream json;
    json << R"({"bifscope_study": 1, "model": {"text": ")" << model << R"("},
      "sweep": [{"parameter": "k", "from": 224, "to": 336, "count": )"
         << n << R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "321.8122"},
                   "transient_sections": 0, "recorded_sections": 1,
                   "record": ["y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8"]},
      "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-10, "initial_step": 1e-3, "bound": 0,
                 "max_step": 0},
      "precision": "double"})";
    return json.str();
}

// The generated model's sizes, all the carry's layout before the system state depends on: the
// offsets of bif::SystemState's counters in the sections program's carry (bif/study/section_program.h).
template <class Real, int States, int Slots>
struct CarryLayoutModel {
    using real = Real;
    static constexpr int num_states = States, num_params = Slots, num_param_slots = Slots, num_events = 0,
                         num_aux = 0, num_observables = States;
};

// Accepted steps per system of the last launch of a kernel compiled with
// -DBIF_ENSEMBLE_KEEP_FINISHED_CARRY; empty, with a line saying so, where the layout is not the one
// read here (checked on the carried time, which every system that finished has at t_end).
template <class Real, int States, int Slots>
std::vector<unsigned long long> accepted_steps(const bench::BifscopeEnsemble& bifscope, double t_end,
                                               const std::vector<int>& status) {
    using M = CarryLayoutModel<Real, States, Slots>;
    using Carry = ensemble::SectionCarry<M, 0>;
    static_assert(offsetof(Carry, s) % 4 == 0 && offsetof(SystemState<M>, accepted) % 4 == 0);
    constexpr int state = int(offsetof(Carry, s) / 4);
    constexpr int t_word = state + int(offsetof(SystemState<M>, t) / 4);
    constexpr int accepted_word = state + int(offsetof(SystemState<M>, accepted) / 4);
    constexpr int real_words = int(sizeof(Real) / 4);
    const std::size_t n = status.size();
    const std::vector<unsigned int> t_rows = bifscope.carry_rows(t_word, real_words);
    const std::vector<unsigned int> accepted_rows = bifscope.carry_rows(accepted_word, 2);
    std::vector<unsigned long long> accepted(n);
    std::size_t misplaced = 0;
    for (std::size_t i = 0; i < n; ++i) {
        unsigned int t_bits[real_words];
        for (int w = 0; w < real_words; ++w)
            t_bits[w] = t_rows[i + std::size_t(w) * n];
        Real t;
        std::memcpy(&t, t_bits, sizeof(Real));
        if (status[i] == 1 && t != Real(t_end)) ++misplaced;
        accepted[i] = accepted_rows[i] | (std::uint64_t(accepted_rows[i + n]) << 32);
    }
    if (misplaced == 0) return accepted;
    std::printf("  the carry's layout is not the one read here (%zu finished systems not at t_end): no step "
                "counts of Bifscope's\n",
                misplaced);
    return {};
}

template <class Real>
struct HandRun {
    double ms = 0.0;
    std::vector<Real> y;              // component c of system i at [i + c n]
    std::vector<unsigned int> counts; // accepted, rejected, status at [i + {0, 1, 2} n]
    int registers = 0, local_bytes = 0;
};

// The hand-written kernels' settings: the problem's, and the study's step limits (its defaults).
template <class Real>
StiffSettings<Real> hand_settings(const study::ResolvedStudy& study, const Problem& pb) {
    const study::SolverSettings& solver = study.study.solver;
    return {Real(pb.t_end),
            Real(pb.rtol),
            Real(pb.atol),
            Real(pb.h0),
            Real(solver.min_step),
            Real(solver.min_shrink),
            int(std::min<std::int64_t>(solver.max_steps, 1000000000))};
}

// One hand-written kernel over the swept values `param` (per system), constants after them.
template <class Real, class... Constants>
HandRun<Real> run_hand(const cuda::Context& context, std::initializer_list<std::string> files,
                       const char* kernel, const std::vector<Real>& param, int states,
                       const StiffSettings<Real>& s, Constants... constants) {
    const cuda::Module module = bench::load_handwritten(context, files);
    const cuda::Kernel hand = module.kernel(kernel);
    const std::size_t n = param.size();
    cuda::DeviceBuffer<Real> param_device(context, n), out(context, std::size_t(states) * n);
    cuda::DeviceBuffer<unsigned int> counts(context, 3 * n);
    param_device.upload(param);
    const cuda::Stream stream(context);
    const auto shape = cuda::LaunchShape::linear(n, 128);
    const unsigned long long count = n;
    HandRun<Real> r;
    r.ms = bench::median_ms(
        context, stream, 3, [] {},
        [&] { hand.launch(shape, stream, param_device, out, counts, count, constants..., s); });
    r.y = out.to_vector();
    r.counts = counts.to_vector();
    r.registers = hand.registers();
    r.local_bytes = hand.local_bytes();
    return r;
}

// Seconds of `body`.
template <class F>
double seconds_of(F&& body) {
    const auto start = std::chrono::steady_clock::now();
    body();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The study through the job API on the CUDA backend, warm (the second of two runs; the first
// compiles), and where its time goes (issue 36: the warm 8388608-system Robertson study took
// 0.23-0.35 s against a ~10 ms kernel): the job's wall time, the backend's run() (RunInfo's
// total_seconds), of it the runner's part (run_seconds: batches uploaded, integrated, downloaded,
// stored into the Result) and the loading before it, and the rest outside the backend (job thread,
// resolution, the result handed over). The warm run's per-batch times come on stderr
// (BIFSCOPE_CUDA_TIMELINE). Then the host's pieces timed alone on the same study: allocate_result,
// the batch inputs (parameters from the sweep), ResultAssembly::store of the whole batch. Returns
// the job's seconds.
double job_breakdown(const std::shared_ptr<const study::ResolvedStudy>& study,
                     const ensemble::BatchArrays& out) {
    double seconds = 0.0;
    std::shared_ptr<const study::Result> result;
    for (int run = 0; run < 2; ++run) {
        if (run == 1) setenv("BIFSCOPE_CUDA_TIMELINE", "1", 1);
        jobs::JobOptions options;
        options.backend = study::BackendChoice::Cuda;
        std::shared_ptr<jobs::Job> job;
        seconds = seconds_of([&] {
            job = jobs::submit(jobs::installed_backends(), study, options);
            job->wait();
        });
        if (run == 1) unsetenv("BIFSCOPE_CUDA_TIMELINE");
        if (job->state() != jobs::JobState::Succeeded) throw std::runtime_error("job: " + job->failure());
        result = job->result();
    }
    const study::RunInfo& info = result->info;
    std::printf(
        "  warm job %.3f s: backend run %.3f s (loading %.3f, runner %.3f), outside the backend %.3f s\n",
        seconds, info.total_seconds, info.total_seconds - info.run_seconds, info.run_seconds,
        seconds - info.total_seconds);
    const ensemble::SpecStorage spec(*study);
    study::Result fresh;
    const double allocate = seconds_of([&] { fresh = study::allocate_result(*study); });
    ensemble::BatchArrays inputs;
    const double fill = seconds_of([&] {
        ensemble::refill_batch(inputs, *study, spec, 0, 0, out.count, false, ensemble::BatchFill::InputsOnly);
    });
    const double store = seconds_of([&] {
        ensemble::ResultAssembly assembly(*study, fresh);
        assembly.store(out);
    });
    std::printf(
        "  host pieces alone: allocate_result %.3f s, batch inputs %.3f s, store into the result %.3f s\n",
        allocate, fill, store);
    return seconds;
}

// Bifscope's kernel on `study` against the hand run `hand`: prints the comparison; returns
// Bifscope's outputs.
template <class Real, int States, int Slots>
ensemble::BatchArrays compare(const cuda::Context& context, const std::string& label,
                              const std::shared_ptr<const study::ResolvedStudy>& study, const Problem& pb,
                              const HandRun<Real>& hand, const char* swept) {
    const codegen::Precision precision =
        sizeof(Real) == 4 ? codegen::Precision::Float : codegen::Precision::Double;
    // BENCH_STIFF_MIN_BLOCKS=N times the kernel under another register bound (7 in double, 6 in
    // float: the explicit methods' bound, which the stiff kernels had before issue 36)
    const char* bound = std::getenv("BENCH_STIFF_MIN_BLOCKS");
    bench::BifscopeEnsemble bifscope(context, study, precision,
                                     bound ? std::atoi(bound) : cuda::ensemble_min_blocks_default);
    const double bif_ms = bifscope.time_ms(3);
    const ensemble::BatchArrays& out = bifscope.results();
    bench::BifscopeEnsemble counting(context, study, precision, cuda::ensemble_min_blocks_default,
                                     {"-DBIF_ENSEMBLE_KEEP_FINISHED_CARRY"});
    counting.run();
    const std::vector<unsigned long long> bif_accepted =
        accepted_steps<Real, States, Slots>(counting, pb.t_end, counting.results().status);

    const std::size_t n = out.count;
    double worst = 0.0, worst_relative = 0.0, bif_steps = 0.0, hand_steps = 0.0, worst_steps = 0.0;
    std::size_t bif_failed = 0, hand_failed = 0, both_ok = 0, steps_off = 0;
    std::ostringstream failures;
    for (std::size_t i = 0; i < n; ++i) {
        const bool bif_ok = out.status[i] == 1, hand_ok = hand.counts[2 * n + i] == 0;
        if (!bif_ok && ++bif_failed <= 5)
            failures << " #" << i << " (" << swept << " " << out.axis_values[i] << ": status "
                     << out.status[i] << ", " << (bif_accepted.empty() ? 0ULL : bif_accepted[i])
                     << " accepted)";
        if (!hand_ok) ++hand_failed;
        if (!bif_ok || !hand_ok) continue;
        ++both_ok;
        const double a = bif_accepted.empty() ? 0.0 : double(bif_accepted[i]), b = double(hand.counts[i]);
        bif_steps += a;
        hand_steps += b;
        worst_steps = std::max(worst_steps, std::fabs(a - b) / b);
        if (std::fabs(a - b) > 0.05 * b) ++steps_off;
        for (int c = 0; c < pb.states; ++c) {
            const double x = out.point(i, 0, c), ref = double(hand.y[std::size_t(c) * n + i]);
            worst = std::max(worst, std::fabs(x - ref) / (pb.atol + pb.rtol * std::fabs(ref)));
            if (std::fabs(ref) > 100.0 * pb.atol)
                worst_relative = std::max(worst_relative, std::fabs(x - ref) / std::fabs(ref));
        }
    }
    std::printf("%-28s N=%-8zu bifscope %8.3f ms | hand %8.3f ms | ratio hand/bifscope %.3f\n", label.c_str(),
                n, bif_ms, hand.ms, hand.ms / bif_ms);
    std::printf("  mean accepted steps bifscope %.2f hand %.2f (%+.2f%%); per system up to %.1f%% apart, %zu "
                "systems over 5%%\n",
                bif_steps / double(both_ok), hand_steps / double(both_ok),
                100.0 * (bif_steps - hand_steps) / hand_steps, 100.0 * worst_steps, steps_off);
    std::printf("  failed bifscope %zu hand %zu%s | final states up to %.2f tolerances apart (relative %.1e "
                "where |y| > 100 atol)\n",
                bif_failed, hand_failed, failures.str().c_str(), worst, worst_relative);
    bench::print_kernel("bifscope advance kernel", bifscope.program().advance_kernel());
    std::printf("  %-34s %3d registers, %d bytes local\n", "hand-written kernel", hand.registers,
                hand.local_bytes);
    std::fflush(stdout);
    return out;
}

bool wanted(const std::string& label) {
    const char* cases = std::getenv("BENCH_STIFF_CASES");
    return !cases || label.find(cases) != std::string::npos;
}

template <class Real>
void robertson_cases(const cuda::Context& context, std::size_t n) {
    const bool single = sizeof(Real) == 4;
    const std::string precision = single ? "float" : "double";
    for (const char* method : {"rosenbrock23", "rodas4"}) {
        const std::string label = std::string("robertson ") + method + " " + precision;
        if (!wanted(label)) continue;
        const auto study = bench::resolve_json(robertson_study(n, single, method));
        std::vector<Real> k3(n);
        const std::vector<double> axis = study::axis_values(study->study.sweep[0]);
        for (std::size_t i = 0; i < n; ++i)
            k3[i] = Real(axis[i]);
        const bool r23 = std::string(method) == "rosenbrock23";
        const std::string kernel = "hand_robertson_" + std::string(method) + "_" + precision;
        const HandRun<Real> hand =
            r23 ? run_hand(context, {"stiff_support.cuh", "robertson_rosenbrock23.cu"}, kernel.c_str(), k3, 3,
                           hand_settings<Real>(*study, robertson), Real(0.04), Real(3e7))
                : run_hand(context, {"stiff_support.cuh", "rodas4_step.cuh", "robertson_rodas4.cu"},
                           kernel.c_str(), k3, 3, hand_settings<Real>(*study, robertson), Real(0.04),
                           Real(3e7));
        const ensemble::BatchArrays out = compare<Real, 3, 3>(context, label, study, robertson, hand, "k3");
        if (!std::getenv("BENCH_STIFF_NO_JOB")) {
            const double job_s = job_breakdown(study, out);
            std::printf("  warm job through the CUDA backend %.3f s = %.1fx the hand kernel\n", job_s,
                        job_s * 1e3 / hand.ms);
        }
        std::fflush(stdout);
    }
}

void hires_case(const cuda::Context& context, std::size_t n) {
    const std::string label = "hires rodas4 double";
    if (!wanted(label)) return;
    const auto study = bench::resolve_json(hires_study(n));
    const std::vector<double> k = study::axis_values(study->study.sweep[0]);
    const HandRun<double> hand =
        run_hand(context, {"stiff_support.cuh", "rodas4_step.cuh", "hires_rodas4.cu"},
                 "hand_hires_rodas4_double", k, 8, hand_settings<double>(*study, hires));
    compare<double, 8, 1>(context, label, study, hires, hand, "k");
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    std::vector<int> sizes{20, 23};
    if (const char* list = std::getenv("BENCH_STIFF_SIZES")) {
        sizes.clear();
        std::istringstream in(list);
        for (int v; in >> v;)
            sizes.push_back(v);
    }
    try {
        const cuda::Context context(0);
        std::printf("device %s\n", context.device().summary().c_str());
        for (int log2n : sizes) {
            const std::size_t n = std::size_t(1) << log2n; // 2^23 = 8388608, the paper's largest
            robertson_cases<float>(context, n);
            robertson_cases<double>(context, n);
        }
        hires_case(context, std::size_t(1) << 20);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
