#include "engine/cuda/background_compiles.h"

#include "engine/cuda/module_compiler.h"

#include <algorithm>

namespace bif::cuda {

BackgroundCompiles::~BackgroundCompiles() {
    if (!finish_on_destruction_) stopping_.store(true);
    std::lock_guard lock(mutex_);
    for (Task& task : tasks_)
        task.thread.join();
}

void BackgroundCompiles::start(CompileRequest request, Target target) {
    const ModuleCompiler compiler;
    std::string key = compiler.cache_key(request, target);
    std::lock_guard lock(mutex_);
    join_finished();
    for (const Task& task : tasks_)
        if (task.key == key) return;
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([request = std::move(request), target, done, this] {
        try {
            (void)ModuleCompiler().compile(request, target, &stopping_);
        } catch (...) {
            // the next run that needs this module compiles it and reports why it fails
        }
        done->store(true);
    });
    tasks_.push_back({std::move(key), std::move(done), std::move(thread)});
}

void BackgroundCompiles::join_finished() {
    auto finished = std::stable_partition(tasks_.begin(), tasks_.end(),
                                          [](const Task& task) { return !task.done->load(); });
    for (auto it = finished; it != tasks_.end(); ++it)
        it->thread.join();
    tasks_.erase(finished, tasks_.end());
}

} // namespace bif::cuda
