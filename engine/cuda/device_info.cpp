#include "engine/cuda/device_info.h"

#include "engine/cuda/driver_library.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace bif::cuda {

int fp32_to_fp64_ratio_for(ComputeCapability capability) {
    switch (capability.number()) {
    case 13: // GT200 (Tesla C1060): 1/8
        return 8;
    case 35: // GK110/GK210 (K20, K40, K80)
    case 37:
        return 3;
    case 60:  // P100
    case 70:  // V100
    case 80:  // A100, A30
    case 90:  // H100, H200
    case 100: // B200
        return 2;
    case 86:  // GA10x consumer Ampere
    case 89:  // Ada
    case 103: // B300: FP64 cut to consumer rate
    case 120: // Blackwell consumer
    case 121:
        return 64;
    default:
        if (capability.major >= 11) // newer families: assume consumer rate until known
            return 64;
        return 32; // sm_3x consumer, sm_5x, sm_61, sm_62, sm_72, sm_75, sm_87, sm_88
    }
}

std::string DeviceInfo::summary() const {
    char text[256];
    std::snprintf(text, sizeof text, "%s (sm_%d, %d SMs, %.1f GiB, FP64 1/%d)", name.c_str(),
                  capability.number(), multiprocessors,
                  static_cast<double>(total_memory) / (1024.0 * 1024.0 * 1024.0), fp32_to_fp64_ratio);
    return text;
}

namespace {

DeviceInfo query_device(const DriverLibrary& driver, int ordinal) {
    driver::CUdevice device = 0;
    BIF_CU_CALL(driver, cuDeviceGet, &device, ordinal);
    auto attribute = [&](int which) {
        int value = 0;
        BIF_CU_CALL(driver, cuDeviceGetAttribute, &value, which, device);
        return value;
    };
    DeviceInfo info;
    info.ordinal = ordinal;
    char name[256] = {};
    BIF_CU_CALL(driver, cuDeviceGetName, name, static_cast<int>(sizeof name) - 1, device);
    info.name = name;
    info.capability = {attribute(driver::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                       attribute(driver::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
    info.multiprocessors = attribute(driver::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    BIF_CU_CALL(driver, cuDeviceTotalMem_v2, &info.total_memory, device);
    info.clock_khz = attribute(driver::CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    info.warp_size = attribute(driver::CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    info.max_threads_per_block = attribute(driver::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    info.max_threads_per_multiprocessor =
        attribute(driver::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    info.registers_per_multiprocessor =
        attribute(driver::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    info.shared_memory_per_block =
        static_cast<std::size_t>(attribute(driver::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    info.shared_memory_per_block_optin =
        static_cast<std::size_t>(attribute(driver::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
    info.l2_cache = static_cast<std::size_t>(attribute(driver::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    info.integrated = attribute(driver::CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0;
    const int reported = attribute(driver::CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
    info.fp32_to_fp64_ratio = reported > 0 ? reported : fp32_to_fp64_ratio_for(info.capability);
    return info;
}

} // namespace

std::vector<DeviceInfo> list_devices(const DriverLibrary& driver) {
    std::vector<DeviceInfo> devices;
    if (!driver.available()) return devices;
    for (int ordinal = 0; ordinal < driver.device_count(); ++ordinal)
        devices.push_back(query_device(driver, ordinal));
    return devices;
}

std::vector<DeviceInfo> list_devices() {
    // Asked once: a GPU's attributes do not change while a process runs, and the 14 driver calls a
    // device took 0.5 ms on an H100, twice in every auto choice and again in every run.
    static const std::vector<DeviceInfo> devices = list_devices(DriverLibrary::instance());
    return devices;
}

std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& all, const std::vector<int>& ordinals) {
    if (ordinals.empty()) return all;
    std::vector<DeviceInfo> chosen;
    for (const int ordinal : ordinals) {
        const auto found =
            std::find_if(all.begin(), all.end(), [&](const DeviceInfo& d) { return d.ordinal == ordinal; });
        if (found == all.end()) {
            std::string there = all.empty() ? "none" : "";
            for (const DeviceInfo& d : all)
                there += (d.ordinal == all.front().ordinal ? "" : ", ") + std::to_string(d.ordinal);
            throw std::invalid_argument("no GPU " + std::to_string(ordinal) + " (GPUs there are: " + there +
                                        ")");
        }
        for (const DeviceInfo& d : chosen)
            if (d.ordinal == ordinal)
                throw std::invalid_argument("GPU " + std::to_string(ordinal) + " given twice");
        chosen.push_back(*found);
    }
    return chosen;
}

std::vector<DeviceInfo> share_of_devices(const std::vector<DeviceInfo>& chosen, int index, int count) {
    if (count <= 1 || chosen.empty()) return chosen;
    index = std::clamp(index, 0, count - 1);
    if (chosen.size() <= std::size_t(count)) return {chosen[std::size_t(index) % chosen.size()]};
    std::vector<DeviceInfo> share;
    for (std::size_t i = std::size_t(index); i < chosen.size(); i += std::size_t(count))
        share.push_back(chosen[i]);
    return share;
}

} // namespace bif::cuda
