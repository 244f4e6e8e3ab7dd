#include "engine/cuda/nvrtc_library.h"

#include "engine/cuda/errors.h"

#include <cstdlib>

#ifndef BIFSCOPE_CUDA_LIBRARY_HINT
#define BIFSCOPE_CUDA_LIBRARY_HINT ""
#endif

namespace bif::cuda {

namespace {

const char* const library_names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                     "libnvrtc.so.11"};

void add_folder(std::vector<std::string>& candidates, const std::string& folder) {
    if (folder.empty()) return;
    for (const char* name : library_names)
        candidates.push_back(folder + "/" + name);
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

} // namespace

std::vector<std::string> NvrtcLibrary::default_candidates() {
    std::vector<std::string> candidates;
    add_folder(candidates, BIFSCOPE_CUDA_LIBRARY_HINT);
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
        if (std::string root = environment(variable); !root.empty()) add_folder(candidates, root + "/lib64");
    add_folder(candidates, "/usr/local/cuda/lib64");
    for (const char* name : library_names)
        candidates.emplace_back(name);
    return candidates;
}

const NvrtcLibrary& NvrtcLibrary::instance() noexcept {
    // Never unloaded (see DriverLibrary::instance).
    static const NvrtcLibrary* const process_nvrtc = [] {
        try {
            return load(default_candidates()).release();
        } catch (...) {
            return load({}).release();
        }
    }();
    return *process_nvrtc;
}

std::unique_ptr<NvrtcLibrary> NvrtcLibrary::load(const std::vector<std::string>& candidates) noexcept {
    std::unique_ptr<NvrtcLibrary> nvrtc(new NvrtcLibrary());
    nvrtc->initialise(candidates);
    return nvrtc;
}

void NvrtcLibrary::initialise(const std::vector<std::string>& candidates) noexcept {
    try {
        std::string failure;
        library_ = SharedLibrary::open_first(candidates, failure);
        if (!library_) {
            unavailable_reason_ = "NVRTC library not found (" + failure + ")";
            return;
        }
        std::string missing;
        if (!resolve_entry_points(missing)) {
            unavailable_reason_ =
                "NVRTC too old: " + library_->name() + " lacks " + missing + " (11.1 or newer needed)";
            return;
        }
        int major = 0;
        int minor = 0;
        if (api_.nvrtcVersion(&major, &minor) != nvrtc::NVRTC_SUCCESS) {
            unavailable_reason_ = "NVRTC unusable: nvrtcVersion failed in " + library_->name();
            return;
        }
        version_ = 1000 * major + 10 * minor;
        if (version_ < minimum_version) {
            unavailable_reason_ =
                "NVRTC too old: " + library_->name() + " is " + version_text() + ", 11.1 or newer needed";
            return;
        }
        int count = 0;
        if (api_.nvrtcGetNumSupportedArchs(&count) != nvrtc::NVRTC_SUCCESS || count <= 0) {
            unavailable_reason_ = "NVRTC unusable: it lists no supported architecture";
            return;
        }
        architectures_.resize(static_cast<std::size_t>(count));
        if (api_.nvrtcGetSupportedArchs(architectures_.data()) != nvrtc::NVRTC_SUCCESS) {
            unavailable_reason_ = "NVRTC unusable: nvrtcGetSupportedArchs failed";
            return;
        }
        unavailable_reason_.clear();
    } catch (...) {
        unavailable_reason_ = "NVRTC loading failed: out of memory";
    }
}

bool NvrtcLibrary::resolve_entry_points(std::string& missing) noexcept {
    const SharedLibrary& so = *library_;
    RequiredSymbols required(so);
    required.need(api_.nvrtcGetErrorString, "nvrtcGetErrorString");
    required.need(api_.nvrtcVersion, "nvrtcVersion");
    required.need(api_.nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs");
    required.need(api_.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs");
    required.need(api_.nvrtcCreateProgram, "nvrtcCreateProgram");
    required.need(api_.nvrtcDestroyProgram, "nvrtcDestroyProgram");
    required.need(api_.nvrtcCompileProgram, "nvrtcCompileProgram");
    required.need(api_.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize");
    required.need(api_.nvrtcGetProgramLog, "nvrtcGetProgramLog");
    required.need(api_.nvrtcGetPTXSize, "nvrtcGetPTXSize");
    required.need(api_.nvrtcGetPTX, "nvrtcGetPTX");
    required.need(api_.nvrtcGetCUBINSize, "nvrtcGetCUBINSize");
    required.need(api_.nvrtcGetCUBIN, "nvrtcGetCUBIN");
    required.need(api_.nvrtcAddNameExpression, "nvrtcAddNameExpression");
    required.need(api_.nvrtcGetLoweredName, "nvrtcGetLoweredName");
    if (required.missing() == nullptr) return true;
    missing = required.missing();
    return false;
}

const std::string& NvrtcLibrary::path() const noexcept {
    static const std::string none;
    return library_ ? library_->name() : none;
}

std::string NvrtcLibrary::version_text() const {
    return std::to_string(version_ / 1000) + "." + std::to_string(version_ % 1000 / 10);
}

const nvrtc::EntryPoints& NvrtcLibrary::api() const {
    if (!available()) throw CudaUnavailable(unavailable_reason_);
    return api_;
}

void NvrtcLibrary::check(nvrtc::nvrtcResult result, const char* call, const char* file, int line) const {
    if (result == nvrtc::NVRTC_SUCCESS) return;
    throw NvrtcError(result, error_name(result), call, std::string(file) + ":" + std::to_string(line));
}

std::string NvrtcLibrary::error_name(nvrtc::nvrtcResult result) const noexcept {
    if (api_.nvrtcGetErrorString)
        if (const char* name = api_.nvrtcGetErrorString(result)) return name;
    return "nvrtcResult " + std::to_string(result);
}

} // namespace bif::cuda
