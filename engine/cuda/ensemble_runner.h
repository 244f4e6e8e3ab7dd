// Runs every system of a study on every visible GPU. Each device has `lanes` lanes: a lane is a
// thread with its own stream and batch arrays that takes batches of consecutive systems from a
// counter shared by all devices, integrates each in launches of ~50 ms (the per-system state stays
// in device memory between launches, so a display GPU never reaches its watchdog and a cancel is
// seen within one launch), and copies it back. With two lanes, one lane's copies and host-side
// work run while the other lane's kernels run, so a study larger than device memory, run in many
// batches, keeps the GPU busy. Finished batches reach the caller in system order on the calling
// thread.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/backend.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace bif::cuda {

struct EnsembleDevice {
    Context context;
    const CompiledModule* module; // compiled for this device's architecture
};

struct RunnerOptions {
    double slice_seconds = 0.05;   // target length of one launch
    long long first_budget = 4096; // attempted steps per system in the first launch (whole slices)
    std::size_t max_batch = 0;     // systems per batch at most (0: as memory allows)
    int lanes = 2;                 // per device; 1 runs batch after batch (no overlap)
};

// What bounds the systems of one lane's batch.
struct BatchLimits {
    std::size_t systems = 0;                 // in the study
    std::size_t lanes = 1;                   // over every device
    std::size_t lanes_on_device = 1;         // sharing this device's memory
    std::size_t device_free_bytes = 0;       // before any lane allocated
    std::size_t device_bytes_per_system = 1; // BatchShape::bytes_per_system
    std::size_t host_systems = 1;            // what the host memory budget holds, for all lanes
    std::size_t max_batch = 0;               // 0: no limit
};

// Systems per batch of one lane, at least 1: an even share of the study per lane (so that every
// lane of every GPU gets work), within the lane's part of half the device's free memory (the rest
// is left to other programs and the driver) and of the host budget, and at most max_batch.
std::size_t lane_capacity(const BatchLimits& limits);

class EnsembleRunner {
  public:
    EnsembleRunner(std::vector<EnsembleDevice> devices, const study::ResolvedStudy& study,
                   const ensemble::SpecStorage& spec, int real_bytes, study::RunControl& control,
                   RunnerOptions options = {});

    // Returns false when cancelled (finished batches are still handed over). Errors on a device
    // (CudaError, ...) are rethrown here after every lane stopped.
    bool run(const std::function<void(const ensemble::BatchArrays&)>& on_batch);

    // Launches made, over every lane (for RunInfo notes and tests).
    long long launches() const { return launches_; }
    // Lanes that ran at least one batch, over every device.
    int lanes_used() const { return lanes_used_; }
    // Whether every lane's staging buffers were page-locked (false: the driver could not pin them,
    // so copies did not overlap kernels).
    bool pinned() const { return pinned_; }

  private:
    std::vector<EnsembleDevice> devices_;
    const study::ResolvedStudy& study_;
    const ensemble::SpecStorage& spec_;
    int real_bytes_;
    study::RunControl& control_;
    RunnerOptions options_;
    long long launches_ = 0;
    int lanes_used_ = 0;
    bool pinned_ = true;
};

} // namespace bif::cuda
