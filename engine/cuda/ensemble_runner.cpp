#include "engine/cuda/ensemble_runner.h"

#include "bif/study/entry.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_program.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace bif::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// A launch budget in whole slices of ensemble::slice_steps, at least one.
long long whole_slices(long long steps) {
    return std::max(1LL, (steps + ensemble::slice_steps / 2) / ensemble::slice_steps) * ensemble::slice_steps;
}

// Finished batches arrive from the workers in any order and leave in system order.
class InOrderQueue {
  public:
    void push(cpu::BatchArrays batch) {
        std::lock_guard lock(mutex_);
        waiting_.emplace(batch.first, std::move(batch));
        ready_.notify_all();
    }
    // Hands over every batch that is next in order; returns when `all_done` and nothing is waiting.
    void drain(const std::function<void(const cpu::BatchArrays&)>& on_batch,
               const std::atomic<int>& workers) {
        std::unique_lock lock(mutex_);
        for (;;) {
            while (!waiting_.empty() && waiting_.begin()->first == next_) {
                cpu::BatchArrays batch = std::move(waiting_.begin()->second);
                waiting_.erase(waiting_.begin());
                next_ += batch.count;
                lock.unlock();
                on_batch(batch);
                lock.lock();
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
    std::condition_variable ready_;
    std::map<std::size_t, cpu::BatchArrays> waiting_;
    std::size_t next_ = 0;
};

} // namespace

EnsembleRunner::EnsembleRunner(std::vector<EnsembleDevice> devices, const study::ResolvedStudy& study,
                               const cpu::SpecStorage& spec, int real_bytes, study::RunControl& control,
                               RunnerOptions options)
    : devices_(std::move(devices)), study_(study), spec_(spec), real_bytes_(real_bytes), control_(control),
      options_(options) {}

bool EnsembleRunner::run(const std::function<void(const cpu::BatchArrays&)>& on_batch) {
    const std::size_t total = study_.system_count();
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancelled{false};
    std::atomic<long long> launches{0};
    std::atomic<int> workers{int(devices_.size())};
    std::mutex error_mutex;
    std::exception_ptr error;
    InOrderQueue queue;
    control_.report_progress(0, total, "integrating");

    const auto work = [&](const EnsembleDevice& device) {
        const EnsembleProgram program(device.context, *device.module, spec_.spec(), spec_.states(),
                                      real_bytes_);
        BatchShape shape;
        shape.axes = spec_.spec().axis_count;
        shape.carry_words = program.carry_words();
        shape.point_rows = spec_.point_rows();
        shape.point_columns = spec_.point_columns();
        shape.scalar_columns = spec_.scalar_columns();
        shape.states = spec_.states();
        shape.output_times = int(spec_.times().size());
        shape.real_bytes = real_bytes_;
        // batches: at most half the free device memory and the host memory budget, and an even
        // share of the systems per device so that every GPU gets work
        const std::size_t device_fit = device.context.free_memory() / 2 / shape.bytes_per_system();
        const std::size_t host_fit =
            control_.systems_per_chunk(cpu::batch_bytes_per_system(spec_, program.carry_words(), false));
        const std::size_t share = (total + devices_.size() - 1) / devices_.size();
        shape.capacity = std::max<std::size_t>(1, std::min({device_fit, host_fit, share}));
        if (options_.max_batch > 0) shape.capacity = std::min(shape.capacity, options_.max_batch);
        EnsembleBatch batch(device.context, shape, spec_.times());
        const Stream stream(device.context);
        DeviceBuffer<unsigned int> unfinished(device.context, 1);
        long long budget = whole_slices(options_.first_budget);
        for (;;) {
            const std::size_t first = next.fetch_add(shape.capacity);
            if (first >= total || cancelled.load()) return;
            const std::size_t count = std::min(shape.capacity, total - first);
            cpu::BatchArrays host =
                cpu::make_batch(study_, spec_, program.carry_words(), first, count, false);
            host.carry.clear();
            host.carry.shrink_to_fit(); // the carry lives on the device only
            batch.upload(host, stream);
            const std::size_t blocks = (count + ensemble_threads - 1) / ensemble_threads;
            for (;;) {
                const auto start = Clock::now();
                program.launch_slice(stream, batch, budget, unfinished);
                unsigned int left = 0;
                unfinished.download_async(std::span<unsigned int>(&left, 1), stream);
                stream.synchronize();
                launches.fetch_add(1);
                const double took = std::chrono::duration<double>(Clock::now() - start).count();
                const std::size_t finished_here =
                    (blocks - std::min<std::size_t>(left, blocks)) * ensemble_threads;
                control_.report_progress(done.load() + std::min(finished_here, count), total, "integrating");
                if (left == 0) break;
                if (control_.cancelled()) {
                    cancelled.store(true);
                    break;
                }
                // aim each launch at slice_seconds: scale the budget, at most 4x either way, in whole
                // slices (the kernel spends it in calls of ensemble::slice_steps, as the CPU does)
                const double scale = std::clamp(options_.slice_seconds / std::max(took, 1e-6), 0.25, 4.0);
                budget = whole_slices(static_cast<long long>(double(budget) * scale));
            }
            batch.download(host, stream);
            done.fetch_add(count);
            queue.push(std::move(host));
            if (cancelled.load()) return;
        }
    };

    std::vector<std::thread> threads;
    for (const EnsembleDevice& device : devices_)
        threads.emplace_back([&, &device = device] {
            try {
                work(device);
            } catch (...) {
                std::lock_guard lock(error_mutex);
                if (!error) error = std::current_exception();
                cancelled.store(true);
            }
            workers.fetch_sub(1);
        });
    queue.drain(on_batch, workers);
    for (auto& t : threads)
        t.join();
    launches_ = launches.load();
    if (error) std::rethrow_exception(error);
    return !cancelled.load() && !control_.cancelled();
}

} // namespace bif::cuda
