// Loaded modules kept from one run for the next. Loading a study's module (cuModuleLoadData) cost
// every run again, and every block of a progressive run (each block is a run): a backend's runs take
// their module from its shelf instead and put it back when their lanes are done. A module is one
// run's at a time: its parameter block lives in the module's constant memory (EnsembleProgram),
// which each run writes; two runs at once of the same study load a second copy, and both go back.
//
//   Module module = shelf.take(context, compiled);   // kept, or loaded now
//   ... EnsembleProgram(module, ...) runs ...
//   shelf.give_back(compiled, module);               // after every stream of the run was waited for
//
// Keyed by the GPU and the module's cache key; at most `per_module` copies of one and `limit`
// modules in all are kept, those given back longest ago dropped first. Thread-safe.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/module.h"

#include <cstddef>
#include <list>
#include <mutex>
#include <string>

namespace bif::cuda {

class ModuleShelf {
  public:
    explicit ModuleShelf(std::size_t limit = 16, std::size_t per_module = 2)
        : limit_(limit), per_module_(per_module) {}

    Module take(const Context& context, const CompiledModule& compiled);
    // A module without a cache key is not kept (nothing would find it again).
    void give_back(const CompiledModule& compiled, Module module);
    std::size_t kept() const;

  private:
    struct Entry {
        int ordinal;
        std::string key;
        Module module;
    };
    std::size_t limit_, per_module_;
    mutable std::mutex mutex_;
    std::list<Entry> kept_; // given back most recently first
};

} // namespace bif::cuda
