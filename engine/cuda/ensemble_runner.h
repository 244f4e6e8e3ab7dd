// Runs every system of a study on the given GPUs. Each device has `lanes` lanes: a lane is a
// thread with its own stream and batch arrays (allocated once, at the lane's capacity) that takes
// batches of consecutive systems from a dealer shared by all devices, integrates each in launches
// of ~50 ms (the per-system state stays in device memory between launches, so a display GPU never
// reaches its watchdog and a cancel is seen within one launch), and copies it back. With two lanes,
// one lane's copies and host-side work run while the other lane's kernels run, so a study larger
// than device memory, run in many batches, keeps the GPU busy.
//
// Batches are dealt dynamically and shrink as the study runs out (guided self-scheduling): large
// ones first, each a share of what is left, down to what fills the device; a chaotic stretch of the
// sweep costs many times the steps of a periodic one, so the faster GPU simply takes more batches
// and every GPU finishes within about one small batch of the others. Which batch a system lands
// in does not change its result (launch budgets are whole slices of ensemble::slice_steps).
// Finished batches reach the caller in system order on the calling thread; lanes keep running
// meanwhile, and stop taking batches while `lanes` finished ones wait for it (host memory bounded).
// A batch the caller is done with goes back to the lanes, which refill it (its memory is already
// faulted in). Batches hold only the outputs the study's result is assembled from
// (ensemble::stored_outputs): a map's section points, say, never cross the bus.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/cuda/module_shelf.h"
#include "engine/cuda/pinned_pool.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/backend.h"

#include <cstddef>
#include <functional>
#include <memory>
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
    // Where the lanes' page-locked staging comes from and goes back to (a backend's, kept from run
    // to run); null: pinned for each lane alone.
    std::shared_ptr<PinnedPool> staging;
    // Where each device's loaded module comes from and goes back to when its lanes are done (a
    // backend's shelf); null: loaded for the run alone.
    std::shared_ptr<ModuleShelf> modules;
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
    std::size_t device_wave = 0;             // systems the device runs at once (0: unknown)
};

// How many parts of what is left a dealt batch is: twice the lanes, so that the first round of
// batches leaves half the study for the lanes that turn out faster. One lane takes it all at once.
std::size_t guided_parts(std::size_t lanes);

// Systems per batch of one lane at most (its buffers' size), at least 1: the first batch the dealer
// hands out (ceil(systems / guided_parts)), or where that is less than the lane's part of one wave
// of the device, up to that much, at most an even share per lane (a small study runs in one round
// on every lane); within the lane's part of half the device's free memory (the rest is left to
// other programs and the driver) and of the host budget, and at most max_batch.
std::size_t lane_capacity(const BatchLimits& limits);

// Systems per batch of one lane at least, while the study has them: the lane's part of one wave of
// the device (so that the device's lanes together keep every multiprocessor busy), in whole thread
// blocks, at most lane_capacity. 1 when the wave is unknown.
std::size_t lane_smallest_batch(const BatchLimits& limits);

// The next batch's size for `remaining` systems over `lanes` lanes: ceil(remaining / guided_parts),
// within [smallest, largest] and at most `remaining`.
std::size_t guided_batch(std::size_t remaining, std::size_t lanes, std::size_t smallest, std::size_t largest);

// What one device did in a run.
struct DeviceShare {
    int ordinal = 0;
    int batches = 0;
    std::size_t systems = 0;
};

class EnsembleBatch;
class Stream;

// Called on a lane once a batch's kernels are done, before its outputs are fetched, on the lane's
// thread: it may queue work on `stream` that reads the batch's device arrays (a render kernel that
// keeps a map's cells on the GPU, engine/cuda/device_map.h). `first` is the batch's first system.
using DeviceBatchHook =
    std::function<void(const EnsembleBatch& batch, std::size_t first, const Stream& stream)>;

class EnsembleRunner {
  public:
    EnsembleRunner(std::vector<EnsembleDevice> devices, const study::ResolvedStudy& study,
                   const ensemble::SpecStorage& spec, int real_bytes, study::RunControl& control,
                   RunnerOptions options = {});

    // Returns false when cancelled (finished batches are still handed over). Errors on a device
    // (CudaError, ...) are rethrown here after every lane stopped.
    bool run(const std::function<void(const ensemble::BatchArrays&)>& on_batch);
    // The same, with `on_device` seeing every batch on its device first; `outputs` replaces what
    // comes back to the host (ensemble::stored_outputs): what the hook keeps need not cross the bus.
    bool run(const std::function<void(const ensemble::BatchArrays&)>& on_batch,
             const DeviceBatchHook& on_device, ensemble::BatchOutputs outputs);

    // Launches made, over every lane (for RunInfo notes and tests).
    long long launches() const { return launches_; }
    // Lanes that ran at least one batch, over every device.
    int lanes_used() const { return lanes_used_; }
    // Whether every lane's staging buffers were page-locked (false: the driver could not pin them,
    // so copies did not overlap kernels).
    bool pinned() const { return pinned_; }
    // Batches and systems each device ran, in the order of the devices given.
    const std::vector<DeviceShare>& device_shares() const { return shares_; }
    // Seconds in which some lane's integration kernels were running on a GPU (the union of its
    // launches' intervals by the GPU's clock, over its lanes; the longest of the GPUs): the run's
    // time without its host side.
    double integration_seconds() const { return integration_seconds_; }

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
    std::vector<DeviceShare> shares_;
    double integration_seconds_ = 0.0;
};

} // namespace bif::cuda
