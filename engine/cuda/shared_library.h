// A shared library opened at run time (dlopen) and closed when its owner goes. The CUDA backend
// links against nothing of CUDA: the driver and NVRTC are found this way, so one binary runs on
// machines with and without them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bif::cuda {

class SharedLibrary {
  public:
    // Opens the first candidate that loads (a path, or a bare name for the loader's default search).
    // On failure returns nothing and fills `failure` with one line: what was tried, the last error.
    static std::optional<SharedLibrary> open_first(const std::vector<std::string>& candidates,
                                                   std::string& failure);

    SharedLibrary(SharedLibrary&& other) noexcept;
    SharedLibrary& operator=(SharedLibrary&& other) noexcept;
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;
    ~SharedLibrary();

    // The address of an exported symbol, or nullptr when the library lacks it.
    void* symbol(const char* name) const noexcept;
    // What was opened (the candidate as given).
    const std::string& name() const noexcept { return name_; }
    // Points `slot` at the exported function `name`; false (and slot null) when the library lacks it.
    template <class Function>
    bool bind(Function& slot, const char* name) const noexcept {
        slot = reinterpret_cast<Function>(symbol(name));
        return slot != nullptr;
    }

  private:
    SharedLibrary(void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}

    void* handle_ = nullptr;
    std::string name_;
};

// Binds a table of functions a library must export, remembering the first one it lacks.
class RequiredSymbols {
  public:
    explicit RequiredSymbols(const SharedLibrary& library) noexcept : library_(library) {}

    template <class Function>
    void need(Function& slot, const char* name) noexcept {
        if (!library_.bind(slot, name) && missing_ == nullptr) missing_ = name;
    }
    // The first required function the library lacks, or nullptr when it has them all.
    const char* missing() const noexcept { return missing_; }

  private:
    const SharedLibrary& library_;
    const char* missing_ = nullptr;
};

} // namespace bif::cuda
