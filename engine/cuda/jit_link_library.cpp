#include "engine/cuda/jit_link_library.h"

#include "engine/cuda/errors.h"
#include "engine/cuda/nvrtc_library.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace bif::cuda {

namespace {

// Destroys a link on every way out of link_cubin.
class LinkGuard {
  public:
    explicit LinkGuard(const nvjitlink::EntryPoints& api) : api_(api) {}
    LinkGuard(const LinkGuard&) = delete;
    LinkGuard& operator=(const LinkGuard&) = delete;
    ~LinkGuard() {
        if (handle) api_.destroy(&handle);
    }
    nvjitlink::Handle handle = nullptr;

  private:
    const nvjitlink::EntryPoints& api_;
};

// nvJitLink 13 exports plain names; 12.x only names with the version its header maps them to.
template <class Function>
bool bind_versioned(const SharedLibrary& so, Function& slot, const std::string& name, int major) {
    return so.bind(slot, name.c_str()) ||
           so.bind(slot, ("__" + name + "_" + std::to_string(major) + "_0").c_str());
}

} // namespace

std::vector<std::string> JitLinkLibrary::candidates_for(const NvrtcLibrary& nvrtc) {
    std::vector<std::string> folders;
    if (!nvrtc.path().empty()) {
        const std::filesystem::path folder = std::filesystem::path(nvrtc.path()).parent_path();
        if (!folder.empty()) folders.push_back(folder.string());
    }
    for (const std::string& candidate : NvrtcLibrary::default_candidates()) {
        const std::string folder = std::filesystem::path(candidate).parent_path().string();
        if (!folder.empty() && std::find(folders.begin(), folders.end(), folder) == folders.end())
            folders.push_back(folder);
    }
    const int major = nvrtc.version() / 1000;
    std::vector<std::string> names = {"libnvJitLink.so"};
    if (major > 0) names.push_back("libnvJitLink.so." + std::to_string(major));
    std::vector<std::string> candidates;
    for (const std::string& folder : folders)
        for (const std::string& name : names)
            candidates.push_back(folder + "/" + name);
    for (const std::string& name : names)
        candidates.push_back(name);
    return candidates;
}

const JitLinkLibrary& JitLinkLibrary::instance() noexcept {
    // Never unloaded (see DriverLibrary::instance).
    static const JitLinkLibrary* const process_linker = [] {
        const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
        try {
            if (!nvrtc.available()) {
                auto none = load({}, 0);
                none->unavailable_reason_ = "nvJitLink not used: " + nvrtc.unavailable_reason();
                return none.release();
            }
            return load(candidates_for(nvrtc), nvrtc.version() / 1000).release();
        } catch (...) {
            return load({}, 0).release();
        }
    }();
    return *process_linker;
}

std::unique_ptr<JitLinkLibrary> JitLinkLibrary::load(const std::vector<std::string>& candidates,
                                                     int nvrtc_major) noexcept {
    std::unique_ptr<JitLinkLibrary> linker(new JitLinkLibrary());
    linker->initialise(candidates, nvrtc_major);
    return linker;
}

void JitLinkLibrary::initialise(const std::vector<std::string>& candidates, int nvrtc_major) noexcept {
    try {
        std::string failure;
        library_ = SharedLibrary::open_first(candidates, failure);
        if (!library_) {
            unavailable_reason_ = "nvJitLink library not found (" + failure + ")";
            return;
        }
        const SharedLibrary& so = *library_;
        const int major = nvrtc_major;
        const bool bound = bind_versioned(so, api_.create, "nvJitLinkCreate", major) &&
                           bind_versioned(so, api_.destroy, "nvJitLinkDestroy", major) &&
                           bind_versioned(so, api_.add_data, "nvJitLinkAddData", major) &&
                           bind_versioned(so, api_.complete, "nvJitLinkComplete", major) &&
                           bind_versioned(so, api_.linked_cubin_size, "nvJitLinkGetLinkedCubinSize", major) &&
                           bind_versioned(so, api_.linked_cubin, "nvJitLinkGetLinkedCubin", major) &&
                           bind_versioned(so, api_.error_log_size, "nvJitLinkGetErrorLogSize", major) &&
                           bind_versioned(so, api_.error_log, "nvJitLinkGetErrorLog", major);
        if (!bound) {
            unavailable_reason_ = "nvJitLink unusable: " + so.name() + " lacks the functions of version " +
                                  std::to_string(major);
            return;
        }
        so.bind(api_.version, "nvJitLinkVersion");
        unsigned linker_major = 0;
        unsigned linker_minor = 0;
        if (api_.version && api_.version(&linker_major, &linker_minor) == nvjitlink::success &&
            int(linker_major) != major) {
            unavailable_reason_ = "nvJitLink " + std::to_string(linker_major) + "." +
                                  std::to_string(linker_minor) + " in " + so.name() +
                                  " does not match NVRTC " + std::to_string(major);
            return;
        }
        unavailable_reason_.clear();
    } catch (...) {
        unavailable_reason_ = "nvJitLink loading failed: out of memory";
    }
}

const std::string& JitLinkLibrary::path() const noexcept {
    static const std::string none;
    return library_ ? library_->name() : none;
}

std::string JitLinkLibrary::link_cubin(const std::string& relocatable, int architecture) const {
    if (!available()) throw CudaUnavailable(unavailable_reason_);
    LinkGuard link(api_);
    const std::string arch = "-arch=sm_" + std::to_string(architecture);
    const char* options[] = {arch.c_str()};
    auto fail = [&](const char* step, nvjitlink::Result result) {
        std::string log;
        std::size_t size = 0;
        if (link.handle && api_.error_log_size(link.handle, &size) == nvjitlink::success && size > 0) {
            log.resize(size);
            if (api_.error_log(link.handle, log.data()) != nvjitlink::success) log.clear();
            while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
                log.pop_back();
        }
        return std::runtime_error("nvJitLink could not link the module for sm_" +
                                  std::to_string(architecture) + " (" + step + ", result " +
                                  std::to_string(result) + ")" + (log.empty() ? "" : ":\n" + log));
    };
    if (nvjitlink::Result r = api_.create(&link.handle, 1, options); r != nvjitlink::success)
        throw fail("nvJitLinkCreate", r);
    if (nvjitlink::Result r = api_.add_data(link.handle, nvjitlink::input_cubin, relocatable.data(),
                                            relocatable.size(), "module");
        r != nvjitlink::success)
        throw fail("nvJitLinkAddData", r);
    if (nvjitlink::Result r = api_.complete(link.handle); r != nvjitlink::success)
        throw fail("nvJitLinkComplete", r);
    std::size_t size = 0;
    if (nvjitlink::Result r = api_.linked_cubin_size(link.handle, &size); r != nvjitlink::success)
        throw fail("nvJitLinkGetLinkedCubinSize", r);
    std::string cubin(size, '\0');
    if (nvjitlink::Result r = api_.linked_cubin(link.handle, cubin.data()); r != nvjitlink::success)
        throw fail("nvJitLinkGetLinkedCubin", r);
    return cubin;
}

} // namespace bif::cuda
