#include "engine/cuda/cuda_backend.h"

#include "engine/cuda/background_compiles.h"
#include "engine/cuda/chain_runner.h"
#include "engine/cuda/compile_process.h"
#include "engine/cuda/device_map.h"
#include "engine/cuda/device_points.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/embedded_headers.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_runner.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/module_shelf.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/cuda/orbit_refiner.h"
#include "engine/cuda/pinned_pool.h"
#include "engine/cuda/stream.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <thread>

namespace bif::cuda {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

RunnerOptions runner_options_of(const CudaBackendOptions& options, std::shared_ptr<PinnedPool> staging,
                                std::shared_ptr<ModuleShelf> modules) {
    RunnerOptions runner;
    runner.slice_seconds = options.slice_seconds;
    runner.max_batch = options.max_batch;
    runner.lanes = options.lanes;
    runner.staging = std::move(staging);
    runner.modules = std::move(modules);
    return runner;
}

// BIFSCOPE_CUDA_KEEP=0 (measurements): every run pins its staging and loads its module anew, as
// before the backend kept them, to compare the two in one build.
bool keeps_between_runs() {
    const char* keep = std::getenv("BIFSCOPE_CUDA_KEEP");
    return !(keep && std::string_view(keep) == "0");
}

class CudaBackend : public study::Backend {
  public:
    explicit CudaBackend(CudaBackendOptions options)
        : options_(options), background_(options.finish_background_compiles) {}

    std::string name() const override { return "cuda"; }

    study::Availability availability() const override {
        const DriverLibrary& driver = DriverLibrary::instance();
        if (!driver.available()) return {false, driver.unavailable_reason()};
        if (driver.device_count() == 0) return {false, "no CUDA device found"};
        const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
        if (!nvrtc.available()) return {false, nvrtc.unavailable_reason()};
        return {true, ""};
    }

    study::Availability supports(const study::ResolvedStudy& study) const override {
        if (study.is_continuation() && study.chain_count() < 2)
            return {false, "a single continuation chain runs on the CPU"};
        return {true, ""};
    }

    std::shared_ptr<study::Backend> quick_stand_in() override {
        if (options_.quick_compile) return nullptr;
        std::lock_guard lock(contexts_mutex_);
        if (!quick_) {
            CudaBackendOptions quick = options_;
            quick.quick_compile = true;
            quick_ = std::make_shared<CudaBackend>(quick);
        }
        return quick_;
    }

    // The driver, a context on every GPU, the kernel headers' digest and NVRTC's first compile: about
    // 250 ms that a first run would otherwise pay before its module loads.
    void warm_up() override {
        if (!availability().available) return;
        try {
            const std::vector<DeviceInfo> devices = list_devices();
            contexts_for(devices);
            (void)embedded_headers_digest();
            if (NvrtcLibrary::instance().available() && !devices.empty()) {
                const ModuleCompiler compiler;
                compiler.warm_up(compiler.target_for(devices.front()));
            }
        } catch (const std::exception&) {
            // a run reports it
        }
    }

    // Compiled and cached for every GPU this study would run on; true also when the backend cannot
    // run at all (run() then fails at once, with no compile to wait for).
    bool ready(const study::ResolvedStudy& study) const override {
        if (!availability().available) return true;
        try {
            const ModulePlan plan = plan_modules(study);
            const ModuleCompiler compiler;
            for (const Target& target : plan.targets)
                if (!compiler.cached(first_request(plan, target, compiler), target)) return false;
        } catch (const std::exception&) {
            // run() reports it
        }
        return true;
    }

    // A big model (more than rolled_loop_states states) whose module is not ready, in a program that
    // keeps compiling in the background (tiered_compile, the app): its whole-program module compiles
    // into the cache on the backend's thread while the job runs the study on the CPU. Even with its
    // loops rolled such a module takes seconds to tens of seconds to compile (tests/bench/README.md),
    // longer than the CPU takes for the study's first runs.
    std::string compile_in_background(const study::ResolvedStudy& study) override {
        const int states = int(study.model->num_states());
        if (!options_.tiered_compile || options_.quick_compile || states <= rolled_loop_states) return {};
        if (!availability().available || ready(study)) return {};
        try {
            const ModulePlan plan = plan_modules(study);
            const ModuleCompiler compiler;
            if (!compiler.cache().enabled()) return {};
            for (const Target& target : plan.targets)
                if (!compiler.cached(plan.whole, target)) background_.start(plan.whole, target);
        } catch (const std::exception&) {
            return {}; // a run here reports it
        }
        return "cuda: the GPU module of this " + std::to_string(states) +
               "-state model compiles in the background; this run is on the CPU, later runs on the GPU";
    }

    // Blocks per multiprocessor from the kernel's register bound (without one, as ptxas allocates the
    // quick build's registers: assumed 2), ensemble_threads each, over the GPUs of the run.
    std::size_t parallel_systems(const study::ResolvedStudy& study) const override {
        if (!availability().available) return 0;
        try {
            const LaunchPlan plan = plan_launch(study);
            const std::size_t per_multiprocessor =
                std::size_t(plan.min_blocks > 0 ? plan.min_blocks : 2) * std::size_t(ensemble_threads);
            std::size_t systems = 0;
            for (const DeviceInfo& d : plan.devices)
                systems += std::size_t(d.multiprocessors) * per_multiprocessor;
            return systems;
        } catch (const std::exception&) {
            return 0; // run() reports it
        }
    }

    // The compile runs in a process of its own (compile_process.h) that a cancel kills at once.
    void prepare(const study::ResolvedStudy& study, study::RunControl& control) override {
        if (!availability().available) return;
        try {
            control.report_progress(0, study.system_count(), "compiling model for the GPU");
            const ModulePlan plan = plan_modules(study);
            const ModuleCompiler compiler;
            for (const Target& target : plan.targets)
                compiler.compile(first_request(plan, target, compiler, options_.tiered_compile), target,
                                 &control.cancel_flag());
        } catch (const std::exception&) {
            // cancelled, or run() meets the same failure and reports it
        }
    }

    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override {
        const auto start = Clock::now();
        const Availability a = availability();
        if (!a.available) throw study::BackendError("CUDA backend unavailable: " + a.reason);
        ModulePlan plan = plan_modules(study);
        const std::vector<DeviceInfo>& devices = plan.devices;
        // allocated while the contexts, modules and first batches get going: a 2^20-system diagram's
        // points are half a gigabyte, whose allocation would otherwise come before any GPU work
        std::future<study::Result> allocated =
            std::async(std::launch::async, [&study] { return study::allocate_result(study); });
        study::Result result;
        const auto adopt_result = [&] {
            if (allocated.valid()) result = allocated.get();
        };
        study::RunInfo info = start_info(study, plan);
        const ensemble::SpecStorage spec(study);

        Loaded loaded = load(study, plan, info, control);
        if (control.cancelled()) {
            adopt_result();
            result.info = std::move(info);
            return result;
        }

        const auto run_start = Clock::now();
        std::optional<ensemble::ResultAssembly> assembly; // made at the first batch
        const RunnerOptions runner_options = runner_options_of(options_, staging_, modules_);
        const int real_bytes = info.precision == codegen::Precision::Float ? 4 : 8;
        // continuation: one chain per GPU thread, column after column, on the first GPU
        const EnsembleDevice first_device = loaded.devices.front();
        ChainRunner chain_runner(loaded.devices.front(), study, spec, real_bytes, control, runner_options);
        EnsembleRunner runner(std::move(loaded.devices), study, spec, real_bytes, control, runner_options);
        try {
            const auto store = [&](const ensemble::BatchArrays& batch) {
                if (!assembly) {
                    adopt_result();
                    assembly.emplace(study, result);
                }
                assembly->store(batch);
            };
            info.complete = study.is_continuation() ? chain_runner.run(store) : runner.run(store);
        } catch (const study::BackendError&) {
            throw;
        } catch (const std::exception& e) {
            throw study::BackendError(std::string("CUDA: ") + e.what());
        }
        adopt_result();
        if (!assembly) assembly.emplace(study, result);
        for (auto& w : assembly->warnings())
            info.warnings.push_back(std::move(w));
        if (info.complete && study::refines_orbits(study)) {
            // after the diagram, on its first GPU: a few periods per system, milliseconds
            try {
                const OrbitRefinementTimes t = refine_orbits_on_gpu(
                    first_device.context, *first_device.module, study, spec, real_bytes, result);
                info.orbit_seconds = t.total_seconds;
                info.notes.push_back("orbits: " + std::to_string(t.systems) + " refined on the GPU in " +
                                     std::to_string(t.total_seconds) + " s (kernel " +
                                     std::to_string(t.kernel_seconds) + " s)");
            } catch (const std::exception& e) {
                throw study::BackendError(std::string("CUDA orbit refinement: ") + e.what());
            }
        }
        if (study.is_continuation())
            info.notes.push_back("cuda: " + std::to_string(chain_runner.launches()) + " kernel launches, " +
                                 std::to_string(study.chain_count()) + " continuation chains on one GPU");
        else
            info.notes.push_back("cuda: " + std::to_string(runner.launches()) + " kernel launches on " +
                                 std::to_string(devices.size()) + (devices.size() == 1 ? " GPU" : " GPUs") +
                                 ", " + std::to_string(runner.lanes_used()) + " lanes, " +
                                 (runner.pinned() ? "pinned" : "pageable") + " host staging");
        if (!study.is_continuation() && devices.size() > 1) info.notes.push_back(shares_note(runner));
        info.run_seconds = seconds_since(run_start);
        info.total_seconds = seconds_since(start);
        result.info = std::move(info);
        return result;
    }

    // The map study run on the view's GPU alone, its columns kept there (study::KeptMap), or a
    // diagram's section points (study::KeptPoints); NotKept where it cannot be, before anything runs.
    study::Result run_kept(const study::ResolvedStudy& study, const study::KeepRequest& request,
                           study::RunControl& control) override {
        const Availability a = availability();
        if (!a.available) throw study::NotKept("CUDA backend unavailable: " + a.reason);
        if (study.is_continuation())
            throw study::NotKept("a continuation's result cannot stay on the GPU: its chains run both ways");
        if (study::refines_orbits(study))
            throw study::NotKept("a diagram whose orbits are refined keeps its points on the host");
        if (study.study.analysis == study::AnalysisKind::Bifurcation)
            return run_kept_points(study, request, control);
        const study::MapShape shape = study::map_shape(study);
        if (study.grid.axis_count() > 2 || shape.width * shape.height != study.system_count())
            throw study::NotKept("only a map over one or two axes stays on the GPU");
        for (const std::string& column : request.columns)
            if (ensemble::program_scalar_column(study, column) < 0)
                throw study::NotKept("the GPU does not compute \"" + column + "\" (the host assigns it)");
        if (request.device < 0 || request.device >= DriverLibrary::instance().device_count())
            throw study::NotKept("there is no GPU " + std::to_string(request.device));

        std::shared_ptr<DeviceKeptMap> kept;
        std::shared_ptr<const RenderKernels> kernels;
        try {
            const Context context(request.device);
            kernels = render_kernels(context);
            kept =
                std::make_shared<DeviceKeptMap>(context, shape.width, shape.height, request.columns, kernels);
        } catch (const std::exception& e) {
            // no room for the cells, or no render kernels: the host keeps the result instead
            throw study::NotKept(std::string("the map cannot stay on the GPU: ") + e.what());
        }
        std::vector<KeptColumn> columns;
        for (std::size_t c = 0; c < std::max<std::size_t>(1, request.columns.size()); ++c)
            columns.push_back(
                {c < request.columns.size() ? request.columns[c] : std::string(), &kept->map(c)});
        DeviceMapRun run = run_map_on_device(study, columns, *kernels, control, options_);
        study::Result result;
        result.analysis = study.study.analysis;
        result.system_count = study.system_count();
        result.info = std::move(run.info);
        result.kept = std::move(kept);
        return result;
    }

    study::Result run_kept_points(const study::ResolvedStudy& study, const study::KeepRequest& request,
                                  study::RunControl& control) {
        if (study.grid.axis_count() != 1)
            throw study::NotKept("only a diagram over one axis keeps its points on the GPU");
        if (request.device < 0 || request.device >= DriverLibrary::instance().device_count())
            throw study::NotKept("there is no GPU " + std::to_string(request.device));
        const std::vector<std::string> columns = study::allocate_result(study, false).points.columns;
        const auto rows = static_cast<std::size_t>(study.study.bifurcation.recorded_sections);
        if (columns.empty() || rows == 0) throw study::NotKept("the diagram records no points");
        std::shared_ptr<DeviceKeptPoints> kept;
        try {
            const Context context(request.device);
            const std::size_t bytes = DeviceKeptPoints::bytes_for(study.system_count(), rows, columns.size());
            // half the free memory at most: the run's batches and the view need the rest
            if (bytes > context.free_memory() / 2)
                throw std::runtime_error(std::to_string(bytes >> 20) + " MiB of points, " +
                                         std::to_string(context.free_memory() >> 20) + " MiB free");
            const auto& values = study.grid.values(0);
            kept = std::make_shared<DeviceKeptPoints>(context,
                                                      std::span<const double>(values.data(), values.size()),
                                                      rows, columns, render_kernels(context));
        } catch (const std::exception& e) {
            throw study::NotKept(std::string("the points cannot stay on the GPU: ") + e.what());
        }
        CudaBackend backend(on_one_gpu(options_, request.device));
        study::Result result = backend.keep_points(without_gpu_choice(study), *kept, control);
        result.kept_points = std::move(kept);
        return result;
    }

    // A diagram study on the one GPU of `kept`, its points written there as batches finish, the
    // rest of its result (axes, statuses, scalars) assembled on the host as run() does.
    study::Result keep_points(const study::ResolvedStudy& study, const DeviceKeptPoints& kept,
                              study::RunControl& control) {
        if (study.system_count() != kept.systems())
            throw study::BackendError("a study of " + std::to_string(study.system_count()) +
                                      " systems for kept points of " + std::to_string(kept.systems()));
        study::Result result = study::allocate_result(study, false);
        ensemble::ResultAssembly assembly(study, result);
        const auto keep = [&](const EnsembleBatch& batch, std::size_t first, const Stream& stream) {
            DeviceBatchPoints points;
            points.points = batch.points_address();
            points.rows_filled = batch.rows_filled_address();
            points.count = batch.count();
            points.rows = batch.shape().point_rows;
            points.columns = batch.shape().point_columns;
            points.type = batch.shape().real_bytes == 4 ? ColumnType::Float32 : ColumnType::Float64;
            kept.scatter(points, first, stream);
        };
        ensemble::BatchOutputs outputs = ensemble::stored_outputs(study);
        outputs.points = false;
        result.info = run_on_kept_gpu(
                          study, kept.device(), control, 0,
                          [&](const ensemble::BatchArrays& batch) { assembly.store(batch); }, keep, outputs,
                          "the points kept on the GPU")
                          .info;
        for (auto& w : assembly.warnings())
            result.info.warnings.push_back(std::move(w));
        return result;
    }

    // The columns of a map study written into their maps on the one GPU the study runs on: see
    // run_map_on_device.
    DeviceMapRun keep_columns(const study::ResolvedStudy& study, const std::vector<KeptColumn>& columns,
                              const RenderKernels& kernels, study::RunControl& control) {
        if (study.is_continuation())
            throw study::BackendError(
                "a continuation's result cannot stay on the GPU: its chains run both ways");
        if (columns.empty()) throw study::BackendError("a kept run with no map to keep it in");
        std::vector<int> sources;
        for (const KeptColumn& kept : columns) {
            if (kept.map->context().device().ordinal != columns.front().map->context().device().ordinal)
                throw study::BackendError("the maps of one kept run are on two GPUs");
            if (study.system_count() != kept.map->count())
                throw study::BackendError("a study of " + std::to_string(study.system_count()) +
                                          " systems for a map of " + std::to_string(kept.map->count()) +
                                          " cells");
            const int source = kept.column.empty() ? -1 : ensemble::program_scalar_column(study, kept.column);
            if (!kept.column.empty() && source < 0)
                throw study::BackendError("the study computes no column \"" + kept.column + "\" on the GPU");
            sources.push_back(source);
        }
        const auto keep = [&](const EnsembleBatch& batch, std::size_t first, const Stream& stream) {
            for (std::size_t c = 0; c < columns.size(); ++c) {
                const DeviceMapCells cells = columns[c].map->cells();
                DeviceBatchColumn from;
                from.values = sources[c] >= 0 ? batch.scalar_column_address(sources[c]) : 0;
                from.statuses = batch.status_address();
                from.count = batch.count();
                from.type = batch.shape().real_bytes == 4 ? ColumnType::Float32 : ColumnType::Float64;
                kernels.scatter_map_cells(from, cells.values + first * sizeof(float), cells.statuses + first,
                                          stream);
            }
        };
        ensemble::BatchOutputs nothing;
        nothing.points = nothing.scalars = nothing.status = false;
        // batches small enough that the host's staging (the axis values going up) stays a few tens of
        // megabytes: nothing else of them comes to the host
        return run_on_kept_gpu(
            study, columns.front().map->context().device().ordinal, control,
            options_.max_batch > 0 ? options_.max_batch : kept_batch_systems,
            [](const ensemble::BatchArrays&) {}, keep, nothing, "the result kept on the GPU");
    }

    // This backend's options with the one GPU `ordinal` alone, for a kept run's backend.
    static CudaBackendOptions on_one_gpu(CudaBackendOptions options, int ordinal) {
        options.devices = {ordinal};
        options.max_devices = 1;
        return options;
    }

    // The study without a GPU choice of its own (a kept run goes where its result stays).
    static study::ResolvedStudy without_gpu_choice(const study::ResolvedStudy& study) {
        study::ResolvedStudy on_gpu = study;
        on_gpu.study.gpus.clear();
        on_gpu.study.gpu_share = {};
        return on_gpu;
    }

  private:
    static constexpr std::size_t kept_batch_systems = std::size_t(1) << 21;

    // A kept run of `study` on the one GPU `ordinal` (this backend's only one): batches of at most
    // max_batch systems (0: as memory allows), `keep` seeing each on the GPU before `outputs` come
    // back to `on_batch`; `kept_what` ends its note. The information of a cancel before the run.
    DeviceMapRun run_on_kept_gpu(const study::ResolvedStudy& study, int ordinal, study::RunControl& control,
                                 std::size_t max_batch,
                                 const std::function<void(const ensemble::BatchArrays&)>& on_batch,
                                 const DeviceBatchHook& keep, ensemble::BatchOutputs outputs,
                                 const std::string& kept_what) {
        const auto start = Clock::now();
        const Availability a = availability();
        if (!a.available) throw study::BackendError("CUDA backend unavailable: " + a.reason);
        const ModulePlan plan = plan_modules(study);
        if (plan.devices.size() != 1 || plan.devices.front().ordinal != ordinal)
            throw study::BackendError("a kept result runs on its own GPU alone");
        DeviceMapRun kept;
        study::RunInfo& info = kept.info;
        info = start_info(study, plan);
        Loaded loaded = load(study, plan, info, control);
        if (control.cancelled()) return kept;

        const auto run_start = Clock::now();
        const ensemble::SpecStorage spec(study);
        RunnerOptions runner_options = runner_options_of(options_, staging_, modules_);
        if (max_batch > 0) runner_options.max_batch = max_batch;
        const int real_bytes = info.precision == codegen::Precision::Float ? 4 : 8;
        EnsembleRunner runner(std::move(loaded.devices), study, spec, real_bytes, control, runner_options);
        try {
            info.complete = runner.run(on_batch, keep, outputs);
        } catch (const study::BackendError&) {
            throw;
        } catch (const std::exception& e) {
            throw study::BackendError(std::string("CUDA: ") + e.what());
        }
        info.notes.push_back("cuda: " + std::to_string(runner.launches()) + " kernel launches on 1 GPU, " +
                             std::to_string(runner.lanes_used()) + " lanes, " + kept_what);
        kept.integration_seconds = runner.integration_seconds();
        info.run_seconds = seconds_since(run_start);
        info.total_seconds = seconds_since(start);
        return kept;
    }

    // The render kernels of a GPU, compiled (or loaded from the cache) once per backend.
    std::shared_ptr<const RenderKernels> render_kernels(const Context& context) {
        std::lock_guard lock(contexts_mutex_);
        auto& kernels = render_kernels_[context.device().ordinal];
        if (!kernels) kernels = std::make_shared<const RenderKernels>(context);
        return kernels;
    }

    // What a run compiles: the devices it uses, its precision, and one request for all of them
    // (the register bound is sized for the whole run, so that every progressive pass of it shares
    // one module), with the distinct targets of those devices.
    struct LaunchPlan {
        std::vector<DeviceInfo> devices;
        codegen::Precision precision = codegen::Precision::Double;
        int min_blocks = 0; // the kernel's register bound (0: none)
    };
    struct ModulePlan : LaunchPlan {
        CompileRequest request; // functions compiled apart where the study's program allows
        CompileRequest whole;   // the same program compiled as a whole: the faster kernels
        std::vector<Target> targets;
    };

    // Whether `target` gets a tiered compile (CudaBackendOptions::tiered_compile): the program can be
    // compiled apart, and a cache takes the whole-program module for later runs.
    static bool tiers(const ModulePlan& plan, const Target& target, const ModuleCompiler& compiler,
                      bool tiered) {
        return tiered && compiler.separates(plan.request, target) && compiler.cache().enabled();
    }
    // The module a run loads first for `target`: with tiers(), the separately compiled one while the
    // whole-program module is not cached; otherwise the whole-program one.
    static const CompileRequest& first_request(const ModulePlan& plan, const Target& target,
                                               const ModuleCompiler& compiler, bool tiered) {
        if (tiers(plan, target, compiler, tiered) && !compiler.cached(plan.whole, target))
            return plan.request;
        return plan.whole;
    }
    const CompileRequest& first_request(const ModulePlan& plan, const Target& target,
                                        const ModuleCompiler& compiler) const {
        return first_request(plan, target, compiler, options_.tiered_compile);
    }

    // The devices, precision and register bound of a run, without generating its code.
    LaunchPlan plan_launch(const study::ResolvedStudy& study) const {
        LaunchPlan plan;
        try {
            plan.devices =
                share_of_devices(select_devices(list_devices(), study.study.gpus.empty() ? options_.devices
                                                                                         : study.study.gpus),
                                 study.study.gpu_share.index, study.study.gpu_share.count);
        } catch (const std::invalid_argument& e) {
            throw study::BackendError(std::string("CUDA: ") + e.what());
        }
        if (plan.devices.empty()) throw study::BackendError("no CUDA device found");
        if (options_.max_devices > 0 && plan.devices.size() > std::size_t(options_.max_devices))
            plan.devices.resize(std::size_t(options_.max_devices));
        plan.precision = precision_on(study, plan.devices.front());
        const std::size_t run_systems =
            study.run_system_count > 0 ? study.run_system_count : study.system_count();
        // sized for the whole run on one GPU, however many run it: one module (and one cache entry)
        // for any choice of GPUs, so that a run on several gives bit for bit what one GPU gives
        plan.min_blocks = options_.quick_compile ? 0
                          : options_.min_blocks != ensemble_min_blocks_default
                              ? options_.min_blocks
                              : ensemble_min_blocks(study, plan.precision, run_systems,
                                                    plan.devices.front().multiprocessors);
        return plan;
    }

    ModulePlan plan_modules(const study::ResolvedStudy& study) const {
        ModulePlan plan;
        static_cast<LaunchPlan&>(plan) = plan_launch(study);
        plan.request =
            ensemble_request(study, plan.precision, ensemble::SpecStorage(study).program(), plan.min_blocks);
        if (options_.quick_compile) {
            plan.request.extra_options = {"--Ofast-compile=max"};
            plan.request.separate_functions = false;
        }
        plan.whole = plan.request;
        plan.whole.separate_functions = false;
        const ModuleCompiler compiler;
        for (const DeviceInfo& d : plan.devices) {
            const Target target = compiler.target_for(d);
            bool seen = false;
            for (const Target& t : plan.targets)
                seen = seen || t.name() == target.name();
            if (!seen) plan.targets.push_back(target);
        }
        return plan;
    }

    // What every run's information starts with: backend, devices, precision, code path, and the
    // warning a float run owes tolerances it cannot honour.
    static study::RunInfo start_info(const study::ResolvedStudy& study, const ModulePlan& plan) {
        study::RunInfo info;
        info.backend = "cuda";
        const std::size_t gpus = plan.devices.size();
        info.device = plan.devices.front().name + (gpus > 1 ? " x" + std::to_string(gpus) : "");
        info.precision = plan.precision;
        info.code_path = study::CodePath::Cuda;
        if (info.precision == codegen::Precision::Float && smallest_tolerance(study) < 1e-6)
            info.warnings.push_back("float cannot honour tolerances below about 1e-6");
        return info;
    }

    // A run's modules, compiled or from the cache, and its devices with their contexts.
    struct Loaded {
        std::map<std::string, CompiledModule> modules; // by target; devices point into it
        std::vector<EnsembleDevice> devices;
    };

    // Fills info's compile time and code note; errors as BackendError.
    Loaded load(const study::ResolvedStudy& study, const ModulePlan& plan, study::RunInfo& info,
                study::RunControl& control) {
        control.report_progress(0, study.system_count(), "compiling model");
        const auto compile_start = Clock::now();
        const ModuleCompiler compiler;
        Loaded loaded;
        bool all_cached = true;
        bool tiered = false;
        try {
            // the contexts are retained while the modules compile or load from the cache
            std::future<std::vector<Context>> contexts =
                std::async(std::launch::async, [&] { return contexts_for(plan.devices); });
            for (const DeviceInfo& d : plan.devices) {
                const Target target = compiler.target_for(d);
                auto found = loaded.modules.find(target.name());
                if (found == loaded.modules.end()) {
                    std::optional<CompiledModule> module;
                    if (tiers(plan, target, compiler, options_.tiered_compile)) {
                        module = compiler.cached_module(plan.whole, target);
                        if (!module) {
                            module = compiler.compile(plan.request, target, &control.cancel_flag());
                            background_.start(plan.whole, target);
                            tiered = true;
                        }
                    } else {
                        module = compiler.compile(plan.whole, target, &control.cancel_flag());
                    }
                    found = loaded.modules.emplace(target.name(), std::move(*module)).first;
                }
                all_cached = all_cached && found->second.from_cache();
            }
            const std::vector<Context> retained = contexts.get();
            for (std::size_t i = 0; i < plan.devices.size(); ++i)
                loaded.devices.push_back(
                    {retained[i], &loaded.modules.at(compiler.target_for(plan.devices[i]).name())});
        } catch (const CompileCancelled&) {
            return {}; // the caller sees control.cancelled()
        } catch (const CompileError& e) {
            throw study::BackendError("NVRTC rejected the generated model: " + first_line(e.what()) + "\n" +
                                      e.log());
        } catch (const std::exception& e) {
            throw study::BackendError(std::string("CUDA: ") + e.what());
        }
        info.compile_seconds = seconds_since(compile_start);
        info.code_note = std::string(all_cached ? "module cache hit" : "compiled with NVRTC") + ", " +
                         loaded.modules.begin()->first +
                         (options_.quick_compile ? ", compiled for speed of compiling" : "") +
                         (tiered ? ", functions compiled apart (the whole-program module compiles in the "
                                   "background for later runs)"
                                 : "");
        return loaded;
    }

    // Contexts are kept for the backend's lifetime: retaining a device's primary context costs tens
    // of milliseconds, which a warm run should not pay again.
    // Those not yet retained are retained at once, a thread each.
    std::vector<Context> contexts_for(const std::vector<DeviceInfo>& devices) {
        std::lock_guard lock(contexts_mutex_);
        std::vector<int> missing;
        for (const DeviceInfo& d : devices)
            if (!contexts_.contains(d.ordinal)) missing.push_back(d.ordinal);
        const std::vector<Context> retained = retain_contexts(missing);
        for (std::size_t i = 0; i < missing.size(); ++i)
            contexts_.emplace(missing[i], retained[i]);
        std::vector<Context> contexts;
        for (const DeviceInfo& d : devices)
            contexts.push_back(contexts_.at(d.ordinal));
        return contexts;
    }

    // "cuda: batches per GPU: 0: 9 (532480 systems), 1: 7 (516096 systems)"
    static std::string shares_note(const EnsembleRunner& runner) {
        std::string note = "cuda: batches per GPU:";
        for (const DeviceShare& share : runner.device_shares())
            note += (note.back() == ':' ? " " : ", ") + std::to_string(share.ordinal) + ": " +
                    std::to_string(share.batches) + " (" + std::to_string(share.systems) + " systems)";
        return note;
    }

    static double smallest_tolerance(const study::ResolvedStudy& study) {
        double smallest = 1.0;
        for (double t : study.rtol)
            smallest = std::min(smallest, t);
        for (double t : study.atol)
            smallest = std::min(smallest, t);
        return smallest;
    }

    using Availability = study::Availability;
    CudaBackendOptions options_;
    std::mutex contexts_mutex_;
    std::map<int, Context> contexts_;
    std::shared_ptr<study::Backend> quick_;
    std::map<int, std::shared_ptr<const RenderKernels>> render_kernels_;
    // The lanes' page-locked staging, kept from run to run (and block to block of a progressive
    // run): pinning it anew cost each run tens of milliseconds.
    std::shared_ptr<PinnedPool> staging_ = keeps_between_runs() ? PinnedPool::make() : nullptr;
    // The modules loaded for earlier runs (module_shelf.h).
    std::shared_ptr<ModuleShelf> modules_ = keeps_between_runs() ? std::make_shared<ModuleShelf>() : nullptr;
    BackgroundCompiles background_; // first destroyed: kills or waits for its compiles
};

} // namespace

codegen::Precision precision_on(const study::ResolvedStudy& study, const DeviceInfo& device) {
    if (study.study.precision == study::PrecisionChoice::Auto && device.fast_fp64())
        return codegen::Precision::Double;
    return study.precision_for(true);
}

std::unique_ptr<study::Backend> make_cuda_backend(CudaBackendOptions options) {
    return std::make_unique<CudaBackend>(options);
}

DeviceMapRun run_map_on_device(const study::ResolvedStudy& study, const std::vector<KeptColumn>& columns,
                               const RenderKernels& kernels, study::RunControl& control,
                               CudaBackendOptions options) {
    if (columns.empty() || !columns.front().map)
        throw study::BackendError("a kept run with no map to keep it in");
    CudaBackend backend(CudaBackend::on_one_gpu(options, columns.front().map->context().device().ordinal));
    return backend.keep_columns(CudaBackend::without_gpu_choice(study), columns, kernels, control);
}

DeviceMapRun run_map_on_device(const study::ResolvedStudy& study, std::string_view column, DeviceMap& map,
                               const RenderKernels& kernels, study::RunControl& control,
                               CudaBackendOptions options) {
    return run_map_on_device(study, {KeptColumn{std::string(column), &map}}, kernels, control, options);
}

std::unique_ptr<study::Backend> make_cuda_backend() {
    return make_cuda_backend(CudaBackendOptions{});
}

} // namespace bif::cuda
