// The on-disk cache of compiled modules, one file per key (a SHA-256 of everything that went into
// the compilation). Best effort: lookups and stores never throw; an entry that fails its checksum or
// does not parse is ignored (and replaced by the next store). Stores are atomic: a temporary file in
// the same folder, then rename, so concurrent processes never see half an entry.
//
// Default folder: $BIFSCOPE_CUDA_CACHE_DIR, else $XDG_CACHE_HOME/bifscope/cuda, else
// $HOME/.cache/bifscope/cuda; caching is off when none of them is set.
#pragma once

#include "engine/cuda/compile_request.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bif::cuda {

struct CacheEntry {
    CodeKind kind = CodeKind::Cubin;
    int architecture = 0;
    std::string image;
    std::vector<std::pair<std::string, std::string>> lowered_names;
    std::string log;
};

class ModuleCache {
  public:
    static ModuleCache disabled() { return ModuleCache(); }
    static ModuleCache default_location();
    explicit ModuleCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

    bool enabled() const { return !directory_.empty(); }
    const std::filesystem::path& directory() const { return directory_; }
    std::filesystem::path entry_path(std::string_view key) const;

    std::optional<CacheEntry> load(std::string_view key) const noexcept;
    bool store(std::string_view key, const CacheEntry& entry) const noexcept; // false when it could not

  private:
    ModuleCache() = default;
    std::filesystem::path directory_;
};

} // namespace bif::cuda
