// Modules compiled into the disk cache on threads of their own, for later runs to find there. The
// CUDA backend's tiered compile starts the whole-program module of a study here after a run got
// going on the quicker separately compiled one (cuda_backend.cpp). Each compile runs in a process of
// its own (compile_process.h); the destructor kills those still under way (a program that ends does
// not wait for a module it will not use) or, when asked, waits for them to finish into the cache.
#pragma once

#include "engine/cuda/compile_request.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bif::cuda {

class BackgroundCompiles {
  public:
    explicit BackgroundCompiles(bool finish_on_destruction = false)
        : finish_on_destruction_(finish_on_destruction) {}
    BackgroundCompiles(const BackgroundCompiles&) = delete;
    BackgroundCompiles& operator=(const BackgroundCompiles&) = delete;
    ~BackgroundCompiles();

    // Compiles `request` for `target` into the default module cache, unless a compile of the same
    // cache key is under way. A failure is dropped: the run that needs the module compiles it again
    // and reports the error then.
    void start(CompileRequest request, Target target);

  private:
    struct Task {
        std::string key;
        std::shared_ptr<std::atomic<bool>> done;
        std::thread thread;
    };
    void join_finished(); // with mutex_ held

    bool finish_on_destruction_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::vector<Task> tasks_;
};

} // namespace bif::cuda
