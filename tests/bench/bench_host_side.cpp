// The host side of a streamed GPU map run, without a GPU (issue 14: 10^8 Lorenz systems in under 2 s
// with HDF5 output). The study is the one `tests/device/round.sh scaleout` runs (10^4 x 10^4 over rho
// and sigma, RK4 0.1 to t = 1), cut into the blocks a streamed job runs (engine/jobs/job.cpp:
// jobs::reusable_block_systems); each block goes through what the job, the CUDA backend and its
// lanes do on the host:
//   split      the block's systems and the study copy over their range (engine/jobs/pass_runner.cpp)
//   allocate   allocate_result, SpecStorage and ResultAssembly for the block (engine/cuda/cuda_backend.cpp)
//   make_batch the batch a lane uploads (engine/ensemble/batch_arrays.h)
//   store      the finished batch copied into the block's Result (engine/ensemble/result_assembly.h)
//   write      the status counts and the HDF5 hyperslabs or CSV rows (app/cli_streamed_output.cpp)
// The kernels are replaced by filling the batch's statuses and scalars with plausible values (not
// timed). Stages run one after another on this thread, so each time is what it costs alone; a stage
// may itself use several threads (the "threads" line says how many the machine has).
//
// As the runner does now, the batch is refilled (inputs only) with the outputs the result keeps
// (ensemble::stored_outputs); the runner's spares live for one block, the bench's for the run.
//
//   bench_host_side [--systems N] [--block N] [--fresh] [--period] [--csv] [--out FILE]
// --systems: 10^7 by default (a 10^4 x 10^3 grid); 100000000 for the whole 10^4 x 10^4 map.
// --block: systems per streamed block (jobs::reusable_block_systems). --fresh: make_batch for every
// block with every output, as the runner did before. --period: detect_period on, so that the map has
// a scalar column. --csv: CSV rows instead of HDF5. BIF_KEEP_BLOCK_MEMORY=0: freed block memory goes
// back to the system, as before engine/jobs/block_memory.h.
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/ensemble/study_spec.h"
#include "engine/jobs/block_memory.h"
#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result_csv.h"
#include "engine/study/result_hdf5.h"
#include "engine/study/result_summary.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;
using namespace bif;

struct Options {
    std::size_t systems = 10'000'000;
    std::size_t block = jobs::reusable_block_systems; // engine/jobs/job.cpp's largest streamed block
    bool period = false;
    bool recycle = true;
    bool csv = false;
    std::string out;
};

struct StageTimes {
    double split = 0, allocate = 0, make_batch = 0, store = 0, write = 0;
    double total() const { return split + allocate + make_batch + store + write; }
};

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU seconds of every thread of the process so far: a stage's thread-seconds, what it takes from a
// server's cores whatever it overlaps with.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Wall and CPU seconds from the last lap (or reset) on.
class Stopwatch {
  public:
    void reset() {
        wall_ = Clock::now();
        cpu_ = cpu_seconds();
    }
    void lap(double& wall, double& cpu) {
        wall += seconds_since(wall_);
        cpu += cpu_seconds() - cpu_;
        reset();
    }

  private:
    Clock::time_point wall_ = Clock::now();
    double cpu_ = cpu_seconds();
};

// The source tree's Lorenz model, or the one under the working directory (a copied binary run from
// another checkout's root).
std::string lorenz_path() {
    const std::string built = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models/lorenz.ode";
    return std::filesystem::exists(built)
               ? built
               : (std::filesystem::current_path() / "resources/models/lorenz.ode").string();
}

std::string study_json(std::size_t systems, bool period) {
    const std::size_t sigma_count = std::max<std::size_t>(1, systems / 10000);
    return std::string(R"({"bifscope_study": 1, "model": {"path": ")") + lorenz_path() + R"("},
 "parameters": {"beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 0, "to": 50, "count": 10000},
           {"parameter": "sigma", "from": 5, "to": 15, "count": )" +
           std::to_string(sigma_count) + R"(}],
 "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "1"},
              "transient_sections": 0, "recorded_sections": 1, "detect_period": )" +
           (period ? "true" : "false") + R"(},
 "solver": {"method": "rk4", "initial_step": 0.1}, "precision": "double"})";
}

std::shared_ptr<const study::ResolvedStudy> load(const std::string& json) {
    const std::string path = (std::filesystem::temp_directory_path() / "bench_host_side_study.json").string();
    std::ofstream(path) << json;
    study::ResolveResult r = study::load_study_file(path);
    std::filesystem::remove(path);
    if (!r.resolved) {
        for (const auto& p : r.problems)
            std::fprintf(stderr, "%s: %s\n", p.path.c_str(), p.message.c_str());
        std::exit(1);
    }
    return r.resolved;
}

// What the kernels would leave: most systems ok, every 97th escaped; periods 1..8 where a scalar
// column exists.
void fake_finished(ensemble::BatchArrays& b) {
    for (std::size_t i = 0; i < b.count; ++i)
        b.status[i] =
            (b.first + i) % 97 == 0 ? int(study::SystemStatus::Escaped) : int(study::SystemStatus::Ok);
    for (int c = 0; c < b.scalar_columns; ++c)
        for (std::size_t i = 0; i < b.count; ++i)
            b.scalars[std::size_t(c) * b.count + i] = double(1 + (b.first + i) % 8);
    for (std::size_t i = 0; i < b.rows_filled.size(); ++i) // empty where the result keeps no points
        b.rows_filled[i] = b.point_rows;
}

// One streamed block, as the job, the backend and one lane run it.
void run_block(const study::ResolvedStudy& whole, std::size_t first, std::size_t count, StageTimes& t,
               StageTimes& c, ensemble::BatchArrays* recycled, study::ResultSummary& summary,
               study::Hdf5ResultWriter* hdf5, std::ofstream* csv) {
    Stopwatch watch;
    std::vector<std::size_t> systems(count);
    std::iota(systems.begin(), systems.end(), first);
    study::ResolvedStudy part = whole;
    part.grid = whole.grid.subset_range(first, count);
    part.run_system_count = whole.system_count();
    watch.lap(t.split, c.split);

    study::Result result = study::allocate_result(part);
    const ensemble::SpecStorage spec(part);
    ensemble::ResultAssembly assembly(part, result);
    watch.lap(t.allocate, c.allocate);

    ensemble::BatchArrays fresh;
    if (recycled) {
        ensemble::refill_batch(*recycled, part, spec, 0, 0, count, false, ensemble::BatchFill::InputsOnly,
                               ensemble::stored_outputs(part));
        ensemble::size_outputs(*recycled, ensemble::stored_outputs(part)); // as the device's download does
    } else
        fresh = ensemble::make_batch(part, spec, 0, 0, count, false);
    ensemble::BatchArrays& batch = recycled ? *recycled : fresh;
    watch.lap(t.make_batch, c.make_batch);
    fake_finished(batch);
    watch.reset();

    assembly.store(batch);
    watch.lap(t.store, c.store);

    auto block = std::make_shared<jobs::ResultBlock>();
    block->result = std::make_shared<const study::Result>(std::move(result));
    block->systems = std::move(systems);
    summary.add_statuses(block->result->status);
    if (hdf5) hdf5->write_block(*block->result, first);
    if (csv) study::write_csv_rows(*csv, *block->result);
    watch.lap(t.write, c.write);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--systems") && i + 1 < argc)
            o.systems = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--block") && i + 1 < argc)
            o.block = std::max<std::size_t>(1, std::strtoull(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--recycle"))
            o.recycle = true;
        else if (!std::strcmp(argv[i], "--fresh"))
            o.recycle = false;
        else if (!std::strcmp(argv[i], "--period"))
            o.period = true;
        else if (!std::strcmp(argv[i], "--csv"))
            o.csv = true;
        else if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
            o.out = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_host_side [--systems N] [--block N] [--fresh] [--period] "
                                 "[--csv] [--out FILE]\n");
            std::exit(2);
        }
    }
    if (o.out.empty())
        o.out =
            (std::filesystem::temp_directory_path() / (o.csv ? "bench_host_side.csv" : "bench_host_side.h5"))
                .string();
    return o;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    jobs::keep_block_memory(); // as a streamed job does
    const auto study = load(study_json(o.systems, o.period));
    const std::size_t total = study->system_count(), block_systems = o.block;
    std::unique_ptr<study::Hdf5ResultWriter> hdf5;
    std::ofstream csv;
    if (o.csv)
        csv.open(o.out, std::ios::binary | std::ios::trunc);
    else
        hdf5 = std::make_unique<study::Hdf5ResultWriter>(o.out, total);
    study::ResultSummary summary;
    summary.analysis = study->study.analysis;
    summary.system_count = total;
    StageTimes t, c; // wall, CPU
    ensemble::BatchArrays recycled;
    const auto start = Clock::now();
    for (std::size_t first = 0; first < total; first += block_systems)
        run_block(*study, first, std::min(block_systems, total - first), t, c,
                  o.recycle ? &recycled : nullptr, summary, hdf5.get(), o.csv ? &csv : nullptr);
    Stopwatch finishing;
    if (hdf5) hdf5->finish(summary, "{}");
    csv.close();
    finishing.lap(t.write, c.write);
    const double wall = seconds_since(start);
    const double per = 1e7 / double(total);
    const char* keep = std::getenv("BIF_KEEP_BLOCK_MEMORY");
    const bool kept = !(keep && std::strcmp(keep, "0") == 0);
    std::printf("host side of a %zu-system Lorenz map (%s, %s%s%s), blocks of %zu, %u hardware threads\n",
                total, o.csv ? "CSV" : "HDF5", o.period ? "period column" : "no scalar column",
                o.recycle ? ", recycled batches" : "", kept ? ", block memory kept" : ", block memory freed",
                block_systems, std::max(1u, std::thread::hardware_concurrency()));
    std::printf(
        "  seconds per 10^7 systems: split %.3f  allocate %.3f  make_batch %.3f  store %.3f  write %.3f\n",
        t.split * per, t.allocate * per, t.make_batch * per, t.store * per, t.write * per);
    std::printf("  CPU seconds (all threads) per 10^7: split %.3f  allocate %.3f  make_batch %.3f  store "
                "%.3f  write %.3f\n",
                c.split * per, c.allocate * per, c.make_batch * per, c.store * per, c.write * per);
    std::printf("  CPU total %.3f s per 10^7, %.3f without write\n", c.total() * per,
                (c.total() - c.write) * per);
    std::printf("  total %.3f s per 10^7 (wall %.2f s for %zu): %.3g systems/s; written %.0f MB\n",
                t.total() * per, wall, total, double(total) / t.total(),
                double(std::filesystem::file_size(o.out)) / 1e6);
    std::printf("  ok %zu, escaped %zu\n", std::size_t(summary.ok), std::size_t(summary.escaped));
    std::filesystem::remove(o.out);
    return 0;
}
