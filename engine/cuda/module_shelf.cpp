#include "engine/cuda/module_shelf.h"

#include <algorithm>

namespace bif::cuda {

Module ModuleShelf::take(const Context& context, const CompiledModule& compiled) {
    {
        std::lock_guard lock(mutex_);
        const int ordinal = context.device().ordinal;
        const auto found = std::find_if(kept_.begin(), kept_.end(), [&](const Entry& e) {
            return e.ordinal == ordinal && e.key == compiled.key();
        });
        if (found != kept_.end()) {
            Module module = found->module;
            kept_.erase(found);
            return module;
        }
    }
    return Module(context, compiled);
}

void ModuleShelf::give_back(const CompiledModule& compiled, Module module) {
    if (compiled.key().empty()) return;
    std::list<Entry> dropped; // unloaded outside the lock
    std::lock_guard lock(mutex_);
    const int ordinal = module.context().device().ordinal;
    kept_.push_front({ordinal, compiled.key(), std::move(module)});
    std::size_t copies = 0;
    for (auto it = kept_.begin(); it != kept_.end();) {
        const bool same = it->ordinal == ordinal && it->key == compiled.key();
        if (same && ++copies > per_module_) {
            const auto next = std::next(it);
            dropped.splice(dropped.begin(), kept_, it);
            it = next;
        } else {
            ++it;
        }
    }
    while (kept_.size() > limit_)
        dropped.splice(dropped.begin(), kept_, std::prev(kept_.end()));
}

std::size_t ModuleShelf::kept() const {
    std::lock_guard lock(mutex_);
    return kept_.size();
}

} // namespace bif::cuda
