#include "engine/study/backend.h"

#include <algorithm>
#include <thread>
#include <unistd.h>

namespace bif::study {

namespace {

std::size_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return std::size_t{4} << 30; // assume 4 GiB when unknown
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
}

} // namespace

RunControl::RunControl(const std::atomic<bool>& cancel, ProgressSink sink, unsigned threads,
                       std::size_t memory_budget_bytes, std::chrono::milliseconds progress_interval)
    : cancel_(cancel), sink_(std::move(sink)),
      threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())),
      memory_budget_bytes_(memory_budget_bytes ? memory_budget_bytes : physical_memory_bytes() / 4),
      interval_(progress_interval), start_(std::chrono::steady_clock::now()) {}

std::size_t RunControl::systems_per_chunk(std::size_t bytes_per_system) const noexcept {
    if (bytes_per_system == 0) return memory_budget_bytes_;
    return std::max<std::size_t>(1, memory_budget_bytes_ / bytes_per_system);
}

double RunControl::elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void RunControl::report_progress(std::size_t systems_done, std::size_t systems_total,
                                 std::string_view phase) {
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        const bool phase_changed = phase != latest_.phase;
        latest_.systems_total = systems_total;
        latest_.systems_done = std::max(latest_.systems_done, std::min(systems_done, systems_total));
        const double fraction = systems_total ? double(latest_.systems_done) / double(systems_total) : 1.0;
        latest_.fraction = std::max(latest_.fraction, fraction);
        latest_.phase.assign(phase);
        latest_.elapsed_seconds = std::chrono::duration<double>(now - start_).count();
        const bool last = latest_.systems_done == systems_total;
        if (sent_any_ && !phase_changed && !last && now - last_sent_ < interval_) return;
        sent_any_ = true;
        last_sent_ = now;
    }
    if (!sink_) return;
    // Sends are serialised and each sends the newest progress, so the sink sees it never decrease;
    // the progress lock is not held meanwhile, so a slow sink does not stall reporting threads that
    // the throttle turns away.
    std::lock_guard send_lock(send_mutex_);
    sink_(latest_progress());
}

Progress RunControl::latest_progress() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

Availability Backend::supports(const ResolvedStudy&) const {
    return {true, ""};
}

} // namespace bif::study
