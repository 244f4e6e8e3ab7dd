#include "engine/cuda/shared_library.h"

#include <dlfcn.h>
#include <utility>

namespace bif::cuda {

std::optional<SharedLibrary> SharedLibrary::open_first(const std::vector<std::string>& candidates,
                                                       std::string& failure) {
    std::string last_error = "no candidate";
    for (const std::string& candidate : candidates) {
        // RTLD_LOCAL: keep CUDA's symbols out of the global namespace of the process.
        if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL))
            return SharedLibrary(handle, candidate);
        if (const char* error = dlerror()) last_error = error;
    }
    failure = "tried " + std::to_string(candidates.size()) + " location(s); last error: " + last_error;
    for (char& c : failure)
        if (c == '\n') c = ' ';
    return std::nullopt;
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), name_(std::move(other.name_)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
    if (this != &other) {
        if (handle_) dlclose(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        name_ = std::move(other.name_);
    }
    return *this;
}

SharedLibrary::~SharedLibrary() {
    if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const noexcept {
    return handle_ ? dlsym(handle_, name) : nullptr;
}

} // namespace bif::cuda
