// What the driver says about each visible GPU, and the choices that follow from it: which
// architecture to compile for and which precision to default to.
#pragma once

#include "engine/codegen/codegen.h"

#include <cstddef>
#include <string>
#include <vector>

namespace bif::cuda {

class DriverLibrary;

struct ComputeCapability {
    int major = 0;
    int minor = 0;
    int number() const { return 10 * major + minor; } // 90 for 9.0 (sm_90)
    friend bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
};

// FP32 : FP64 throughput ratio from the compute capability alone (NVIDIA's CUDA C++ Programming
// Guide, "Arithmetic Instructions" throughput table): the data-centre parts sm_60, sm_70, sm_80,
// sm_90 and sm_100 run FP64 at half rate; the consumer and embedded parts at 1/32 (sm_61, sm_62,
// sm_72, sm_75, sm_87, sm_5x) or 1/64 (sm_86, sm_89, sm_12x, sm_103, ...).
int fp32_to_fp64_ratio_for(ComputeCapability capability);

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    ComputeCapability capability;
    int multiprocessors = 0;
    std::size_t total_memory = 0; // bytes
    int clock_khz = 0;
    int warp_size = 32;
    int max_threads_per_block = 0;
    int max_threads_per_multiprocessor = 0;
    int registers_per_multiprocessor = 0;
    std::size_t shared_memory_per_block = 0;       // without opt-in
    std::size_t shared_memory_per_block_optin = 0; // the most a kernel may ask for
    std::size_t l2_cache = 0;
    bool integrated = false;
    // FP32 : FP64 throughput, 2 on data-centre parts; from the driver where it reports it, else
    // from fp32_to_fp64_ratio_for.
    int fp32_to_fp64_ratio = 0;

    // FP64 is "fast" at a third of FP32 or better; then double costs little and is the default.
    bool fast_fp64() const { return fp32_to_fp64_ratio > 0 && fp32_to_fp64_ratio <= 3; }
    codegen::Precision default_precision() const {
        return fast_fp64() ? codegen::Precision::Double : codegen::Precision::Float;
    }
    // One line for logs and the UI: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, FP64 1/2)".
    std::string summary() const;
};

// Every device the driver sees, in ordinal order; empty when the driver is unavailable. Throws
// CudaError only if the driver fails a query on a device it listed.
std::vector<DeviceInfo> list_devices(const DriverLibrary& driver);
std::vector<DeviceInfo> list_devices(); // the process-wide driver's, asked once

// The devices of `all` with the given ordinals, in the order given; every device when `ordinals` is
// empty. Throws std::invalid_argument naming the devices there are for an ordinal not among them
// or given twice.
std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& all, const std::vector<int>& ordinals);
// Process `index` of `count` on a node: its part of `chosen` (see study::GpuShare).
std::vector<DeviceInfo> share_of_devices(const std::vector<DeviceInfo>& chosen, int index, int count);

} // namespace bif::cuda
