#include "engine/cuda/ensemble_runner.h"

#include "bif/study/entry.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_program.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/pinned_buffer.h"
#include "engine/cuda/stream.h"
#include "engine/ensemble/batch_pool.h"
#include "engine/ensemble/result_assembly.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace bif::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// Finished batches arrive from the workers in any order and leave in system order.
class InOrderQueue {
  public:
    void push(ensemble::BatchArrays batch) {
        std::lock_guard lock(mutex_);
        waiting_.emplace(batch.first, std::move(batch));
        ready_.notify_all();
    }
    // Blocks a worker while `limit` or more batches wait for the caller, until `stop` is set. Cannot
    // deadlock: the batch the caller needs next is either waiting (and leaves) or still in a lane
    // that is not blocked here.
    void wait_for_room(std::size_t limit, const std::atomic<bool>& stop) {
        std::unique_lock lock(mutex_);
        while (waiting_.size() >= limit && !stop.load())
            room_.wait_for(lock, std::chrono::milliseconds(20));
    }
    // A batch the caller is done with, for a lane to refill: its memory is already faulted in, which
    // fresh memory for every batch is not (page faults were ~45% of the host side of a 10^8-system
    // map, tests/bench/README.md).
    std::optional<ensemble::BatchArrays> take_spare() {
        std::lock_guard lock(mutex_);
        if (spares_.empty()) return std::nullopt;
        std::optional<ensemble::BatchArrays> spare(std::move(spares_.back()));
        spares_.pop_back();
        return spare;
    }
    // The spares left once the run is done, for the next run of the process (ensemble::BatchPool).
    std::vector<ensemble::BatchArrays> release_spares() {
        std::lock_guard lock(mutex_);
        return std::exchange(spares_, {});
    }
    // A worker (a device's thread) is done: drain() must not wait for a batch that will not come.
    // Without this wake-up drain saw the last worker leave only at its next 20 ms poll, which every
    // run paid once at its end (and a progressive run once per block).
    void worker_finished(std::atomic<std::size_t>& workers) {
        {
            std::lock_guard lock(mutex_);
            workers.fetch_sub(1);
        }
        ready_.notify_all();
    }
    // Hands over every batch that is next in order; returns once no worker is left and nothing waits.
    void drain(const std::function<void(const ensemble::BatchArrays&)>& on_batch,
               const std::atomic<std::size_t>& workers) {
        std::unique_lock lock(mutex_);
        for (;;) {
            while (!waiting_.empty() && waiting_.begin()->first == next_) {
                ensemble::BatchArrays batch = std::move(waiting_.begin()->second);
                waiting_.erase(waiting_.begin());
                room_.notify_all();
                next_ += batch.count;
                lock.unlock();
                on_batch(batch);
                lock.lock();
                spares_.push_back(std::move(batch));
            }
            if (workers.load() == 0) break;
            ready_.wait_for(lock, std::chrono::milliseconds(20));
        }
        // a cancelled run leaves gaps: hand over what is there, in order
        for (auto& entry : waiting_)
            on_batch(entry.second);
        waiting_.clear();
    }

  private:
    std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::map<std::size_t, ensemble::BatchArrays> waiting_;
    std::vector<ensemble::BatchArrays> spares_;
    std::size_t next_ = 0;
};

// Hands out consecutive batches of the study, each guided_batch of what is left.
class BatchDealer {
  public:
    BatchDealer(std::size_t total, std::size_t lanes) : total_(total), lanes_(lanes) {}
    // (first, count); count 0 once the study is dealt.
    std::pair<std::size_t, std::size_t> take(std::size_t smallest, std::size_t largest) {
        std::lock_guard lock(mutex_);
        const std::size_t count = guided_batch(total_ - next_, lanes_, smallest, largest);
        const std::size_t first = next_;
        next_ += count;
        return {first, count};
    }

  private:
    std::mutex mutex_;
    std::size_t total_;
    std::size_t lanes_;
    std::size_t next_ = 0;
};

// BIFSCOPE_CUDA_TIMELINE=1 (measurements): every batch's times on stderr once the run ends, to see
// where a multi-GPU run loses time (lanes waiting for room, the tail, the host's assembly); lines
// start with the process id and name the device by its ordinal (which GPU each MPI rank used).
class Timeline {
  public:
    Timeline() : on_(std::getenv("BIFSCOPE_CUDA_TIMELINE") != nullptr), start_(Clock::now()) {}
    bool on() const { return on_; }
    double now() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    void add(std::string line) {
        std::lock_guard lock(mutex_);
        lines_.push_back(std::move(line));
    }
    ~Timeline() {
        for (const std::string& line : lines_)
            std::fprintf(stderr, "timeline %ld %s\n", long(getpid()), line.c_str());
    }

  private:
    bool on_;
    Clock::time_point start_;
    std::mutex mutex_;
    std::vector<std::string> lines_;
};

std::string format_times(const char* what, std::initializer_list<double> times) {
    std::string line = what;
    char text[32];
    for (double t : times) {
        std::snprintf(text, sizeof text, " %.4f", t);
        line += text;
    }
    return line;
}

} // namespace

std::size_t guided_parts(std::size_t lanes) {
    return lanes <= 1 ? 1 : 2 * lanes;
}

namespace {

// The lane's part of one wave of its device, in whole thread blocks.
std::size_t lane_wave(const BatchLimits& limits) {
    const std::size_t on_device = std::max<std::size_t>(1, limits.lanes_on_device);
    return (limits.device_wave / on_device + ensemble_threads - 1) / ensemble_threads * ensemble_threads;
}

} // namespace

std::size_t lane_capacity(const BatchLimits& limits) {
    const std::size_t lanes = std::max<std::size_t>(1, limits.lanes);
    const std::size_t parts = guided_parts(lanes);
    const std::size_t share = (limits.systems + lanes - 1) / lanes;
    // a study that does not fill every device runs in one round: an under-filled launch takes as
    // long as a full one, so two rounds of half batches would take twice as long
    const std::size_t first =
        std::max((limits.systems + parts - 1) / parts, std::min(share, lane_wave(limits)));
    const std::size_t device_fit = limits.device_free_bytes / 2 /
                                   std::max<std::size_t>(1, limits.lanes_on_device) /
                                   std::max<std::size_t>(1, limits.device_bytes_per_system);
    const std::size_t host_fit = limits.host_systems / lanes;
    std::size_t capacity = std::min({first, device_fit, host_fit});
    if (limits.max_batch > 0) capacity = std::min(capacity, limits.max_batch);
    return std::max<std::size_t>(1, capacity);
}

std::size_t lane_smallest_batch(const BatchLimits& limits) {
    return std::clamp<std::size_t>(lane_wave(limits), 1, lane_capacity(limits));
}

std::size_t guided_batch(std::size_t remaining, std::size_t lanes, std::size_t smallest,
                         std::size_t largest) {
    const std::size_t parts = guided_parts(lanes);
    const std::size_t share = (remaining + parts - 1) / parts;
    largest = std::max<std::size_t>(1, largest);
    return std::min(remaining, std::clamp(share, std::min(smallest, largest), largest));
}

EnsembleRunner::EnsembleRunner(std::vector<EnsembleDevice> devices, const study::ResolvedStudy& study,
                               const ensemble::SpecStorage& spec, int real_bytes, study::RunControl& control,
                               RunnerOptions options)
    : devices_(std::move(devices)), study_(study), spec_(spec), real_bytes_(real_bytes), control_(control),
      options_(options) {}

namespace {

// Length of the union of [start, end) intervals.
double covered_seconds(std::vector<std::pair<double, double>> intervals) {
    std::sort(intervals.begin(), intervals.end());
    double covered = 0.0, reach = -1e300;
    for (const auto& [start, end] : intervals) {
        if (end <= reach) continue;
        covered += end - std::max(start, reach);
        reach = end;
    }
    return covered;
}

} // namespace

bool EnsembleRunner::run(const std::function<void(const ensemble::BatchArrays&)>& on_batch) {
    return run(on_batch, {}, ensemble::stored_outputs(study_));
}

bool EnsembleRunner::run(const std::function<void(const ensemble::BatchArrays&)>& on_batch,
                         const DeviceBatchHook& on_device, const ensemble::BatchOutputs outputs) {
    const std::size_t total = study_.system_count();
    const std::size_t lanes = std::size_t(std::max(1, options_.lanes));
    const std::size_t all_lanes = devices_.size() * lanes;
    std::atomic<std::size_t> done{0}, devices_working{devices_.size()};
    std::atomic<bool> cancelled{false}, pinned{true};
    std::atomic<long long> launches{0};
    std::atomic<int> lanes_used{0};
    std::vector<std::atomic<int>> batches_on(devices_.size());
    std::vector<std::atomic<std::size_t>> systems_on(devices_.size());
    std::mutex error_mutex;
    std::exception_ptr error;
    InOrderQueue queue;
    BatchDealer dealer(total, all_lanes);
    const std::shared_ptr<PinnedPool> staging = options_.staging ? options_.staging : PinnedPool::make(0);
    // host batches kept from run to run where the backend keeps its staging (not with
    // BIFSCOPE_CUDA_KEEP=0, for comparing)
    ensemble::BatchPool* const kept_batches = options_.staging ? &ensemble::BatchPool::process() : nullptr;
    Timeline timeline;
    std::mutex launches_mutex;
    // per device: when its launches ran, in milliseconds of the GPU's clock from the device's start
    std::vector<std::vector<std::pair<double, double>>> launch_intervals(devices_.size());
    control_.report_progress(0, total, "integrating");

    // The first error is kept; it stops every lane at its next launch.
    const auto guarded = [&](const auto& body) {
        try {
            body();
        } catch (...) {
            std::lock_guard lock(error_mutex);
            if (!error) error = std::current_exception();
            cancelled.store(true);
        }
    };

    const auto run_lane = [&](const EnsembleProgram& program, const BatchShape& shape, std::size_t smallest,
                              std::size_t device_index, const Event& origin) {
        const Context& context = program.context();
        Event began(context), ended(context);
        EnsembleBatch batch(context, shape, spec_.times(), staging);
        const Stream stream(context);
        DeviceBuffer<unsigned int> unfinished(context, 1);
        PooledPinned left_word = staging->take(
            sizeof(unsigned int), [&](std::size_t bytes) { return PinnedBuffer(context, bytes); });
        const std::span<unsigned int> left(reinterpret_cast<unsigned int*>(left_word.data()), 1);
        long long budget = whole_slices(options_.first_budget);
        bool used = false;
        // The batch fetched last, unpacked into its host arrays once the next batch's first kernels
        // are queued: converting it (and the page faults of fresh host memory) then overlaps them.
        struct Fetched {
            ensemble::BatchArrays host;
            double asked, taken, uploaded, integrated;
        };
        std::optional<Fetched> fetched;
        const auto hand_over = [&] {
            if (!fetched) return;
            batch.unpack(fetched->host);
            if (!batch.pinned()) pinned.store(false);
            const std::size_t first = fetched->host.first, count = fetched->host.count;
            done.fetch_add(count);
            queue.push(std::move(fetched->host));
            if (timeline.on())
                timeline.add("device " + std::to_string(context.device().ordinal) + " batch " +
                             std::to_string(first) + "+" + std::to_string(count) +
                             format_times(" asked/taken/uploaded/integrated/pushed",
                                          {fetched->asked, fetched->taken, fetched->uploaded,
                                           fetched->integrated, timeline.now()}));
            fetched.reset();
        };
        for (;;) {
            // finished batches the caller has not taken yet hold host memory: at most one per lane,
            // besides the one a lane holds fetched (which the caller may need next: no waiting then)
            const double asked = timeline.now();
            if (!fetched) queue.wait_for_room(all_lanes, cancelled);
            if (cancelled.load()) return hand_over();
            const auto [first, count] = dealer.take(smallest, shape.capacity);
            if (count == 0) {
                hand_over();
                if (timeline.on())
                    timeline.add("device " + std::to_string(context.device().ordinal) +
                                 format_times(" lane done (its buffers freed after)", {timeline.now()}));
                return;
            }
            const double taken = timeline.now();
            if (!std::exchange(used, true)) lanes_used.fetch_add(1);
            batches_on[device_index].fetch_add(1);
            systems_on[device_index].fetch_add(count);
            // carry_words 0: the carry lives on the device only. Outputs only: upload() stages the
            // axis values from the study and starts the outputs on the device, and unpack() sizes
            // and overwrites every output the host batch holds, so nothing of a spare's previous
            // batch is left; outputs the result does not keep stay on the device.
            ensemble::BatchArrays host;
            // (or a spare of an earlier run of this process: the same holds for it)
            if (std::optional<ensemble::BatchArrays> spare = queue.take_spare())
                host = std::move(*spare);
            else if (std::optional<ensemble::BatchArrays> kept =
                         kept_batches ? kept_batches->take() : std::nullopt)
                host = std::move(*kept);
            ensemble::refill_batch(host, study_, spec_, 0, first, count, false,
                                   ensemble::BatchFill::OutputsOnly, outputs);
            batch.upload(host, study_, stream);
            const double uploaded = timeline.now();
            const std::size_t blocks = (count + ensemble_threads - 1) / ensemble_threads;
            for (;;) {
                const auto start = Clock::now();
                began.record(stream);
                program.launch_slice(stream, batch, budget, unfinished);
                ended.record(stream);
                batch.prepare_downloads(); // once, while the lane's first kernels run
                hand_over();               // the batch before, while these kernels run
                unfinished.download_async(left, stream);
                stream.synchronize();
                launches.fetch_add(1);
                {
                    const double from = Event::elapsed_milliseconds(origin, began),
                                 to = Event::elapsed_milliseconds(origin, ended);
                    std::lock_guard lock(launches_mutex);
                    launch_intervals[device_index].emplace_back(from, to);
                }
                const double took = std::chrono::duration<double>(Clock::now() - start).count();
                const std::size_t finished_here =
                    (blocks - std::min<std::size_t>(left[0], blocks)) * ensemble_threads;
                control_.report_progress(done.load() + std::min(finished_here, count), total, "integrating");
                if (left[0] == 0) break;
                if (control_.cancelled() || cancelled.load()) {
                    cancelled.store(true);
                    break;
                }
                // aim each launch at slice_seconds: scale the budget, at most 4x either way, in whole
                // slices (the kernel spends it in calls of ensemble::slice_steps, as the CPU does);
                // the first launch's time includes handing over the batch before
                const double scale = std::clamp(options_.slice_seconds / std::max(took, 1e-6), 0.25, 4.0);
                budget = whole_slices(static_cast<long long>(double(budget) * scale));
            }
            const double integrated = timeline.now();
            if (on_device) on_device(batch, first, stream);
            batch.fetch(stream);
            fetched = Fetched{std::move(host), asked, taken, uploaded, integrated};
            if (cancelled.load()) return hand_over();
        }
    };

    // The device's lanes share its program (the kernels only read it) and its memory.
    const auto run_device = [&](std::size_t device_index) {
        const EnsembleDevice& device = devices_[device_index];
        const double loading = timeline.now();
        const EnsembleProgram program(options_.modules
                                          ? options_.modules->take(device.context, *device.module)
                                          : Module(device.context, *device.module),
                                      spec_.spec(), spec_.states(), real_bytes_);
        if (timeline.on())
            timeline.add("device " + std::to_string(device.context.device().ordinal) +
                         format_times(" program loading/loaded", {loading, timeline.now()}));
        BatchShape shape = batch_shape(spec_, program.carry_words(), real_bytes_);
        shape.downloaded = outputs;
        BatchLimits limits;
        limits.systems = total;
        limits.lanes = all_lanes;
        limits.lanes_on_device = lanes;
        limits.device_free_bytes = device.context.free_memory();
        limits.device_bytes_per_system = shape.bytes_per_system();
        limits.host_systems = control_.systems_per_chunk(ensemble::batch_bytes_per_system(spec_, 0, false) +
                                                         shape.staging_bytes_per_system());
        limits.max_batch = options_.max_batch;
        limits.device_wave = std::size_t(device.context.device().multiprocessors) *
                             std::size_t(program.advance_kernel().max_active_blocks_per_multiprocessor(
                                 int(ensemble_threads))) *
                             ensemble_threads;
        shape.capacity = lane_capacity(limits);
        const std::size_t smallest = lane_smallest_batch(limits);
        if (timeline.on())
            timeline.add("device " + std::to_string(device.context.device().ordinal) + " wave " +
                         std::to_string(limits.device_wave) + " capacity " + std::to_string(shape.capacity) +
                         " smallest " + std::to_string(smallest));
        Event origin(device.context); // the lanes' launches are timed from here
        {
            const Stream stream(device.context);
            origin.record(stream);
            stream.synchronize();
        }
        std::vector<std::jthread> other_lanes; // joined before the program goes
        for (std::size_t l = 1; l < lanes; ++l)
            other_lanes.emplace_back(
                [&] { guarded([&] { run_lane(program, shape, smallest, device_index, origin); }); });
        guarded([&] { run_lane(program, shape, smallest, device_index, origin); });
        other_lanes.clear(); // joined: every lane waited for its stream
        // a run that failed leaves its module: the error may be the device's
        bool failed = false;
        {
            std::lock_guard lock(error_mutex);
            failed = error != nullptr;
        }
        if (options_.modules && !failed) options_.modules->give_back(*device.module, program.module());
    };

    {
        std::vector<std::jthread> threads; // joined at the end of this block, also when drain throws
        for (std::size_t d = 0; d < devices_.size(); ++d)
            threads.emplace_back([&, d] {
                guarded([&] { run_device(d); });
                queue.worker_finished(devices_working);
            });
        try {
            const auto timed_on_batch = [&](const ensemble::BatchArrays& b) {
                const double from = timeline.now();
                on_batch(b);
                if (timeline.on())
                    timeline.add("stored " + std::to_string(b.first) + "+" + std::to_string(b.count) +
                                 format_times(" from/to", {from, timeline.now()}));
            };
            queue.drain(timed_on_batch, devices_working);
            if (kept_batches)
                for (ensemble::BatchArrays& spare : queue.release_spares())
                    kept_batches->give(std::move(spare));
            if (timeline.on()) timeline.add(format_times("drained", {timeline.now()}));
        } catch (...) {
            cancelled.store(true);
            throw;
        }
    }
    launches_ = launches.load();
    lanes_used_ = lanes_used.load();
    pinned_ = pinned.load();
    integration_seconds_ = 0.0;
    for (auto& intervals : launch_intervals)
        integration_seconds_ = std::max(integration_seconds_, covered_seconds(std::move(intervals)) / 1000.0);
    shares_.clear();
    for (std::size_t d = 0; d < devices_.size(); ++d)
        shares_.push_back({devices_[d].context.device().ordinal, batches_on[d].load(), systems_on[d].load()});
    if (error) std::rethrow_exception(error);
    return !cancelled.load() && !control_.cancelled();
}

} // namespace bif::cuda
