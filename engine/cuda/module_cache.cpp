#include "engine/cuda/module_cache.h"

#include "engine/cuda/sha256.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace bif::cuda {

// An entry is a sequence of length-prefixed fields ("<bytes>:<data>"):
//   magic, key, kind, architecture, image, log, name count, (expression, lowered name)...
// followed by the SHA-256 (hex) of everything before it.
namespace {

constexpr std::string_view magic = "bifscope-cuda-module-1";

void put(std::string& out, std::string_view field) {
    out += std::to_string(field.size());
    out += ':';
    out += field;
}

class FieldReader {
  public:
    explicit FieldReader(std::string_view text) : text_(text) {}

    std::optional<std::string_view> next() {
        const std::size_t colon = text_.find(':', position_);
        if (colon == std::string_view::npos || colon == position_ || colon - position_ > 12)
            return std::nullopt;
        std::size_t size = 0;
        for (std::size_t i = position_; i < colon; ++i) {
            if (text_[i] < '0' || text_[i] > '9') return std::nullopt;
            size = size * 10 + static_cast<std::size_t>(text_[i] - '0');
        }
        if (size > text_.size() - colon - 1) return std::nullopt;
        std::string_view field = text_.substr(colon + 1, size);
        position_ = colon + 1 + size;
        return field;
    }
    std::optional<int> next_int() {
        auto field = next();
        if (!field || field->empty() || field->size() > 9) return std::nullopt;
        int value = 0;
        for (char c : *field) {
            if (c < '0' || c > '9') return std::nullopt;
            value = value * 10 + (c - '0');
        }
        return value;
    }
    std::size_t position() const { return position_; }

  private:
    std::string_view text_;
    std::size_t position_ = 0;
};

std::string serialise(std::string_view key, const CacheEntry& entry) {
    std::string out;
    put(out, magic);
    put(out, key);
    put(out, entry.kind == CodeKind::Cubin ? "cubin" : "ptx");
    put(out, std::to_string(entry.architecture));
    put(out, entry.image);
    put(out, entry.log);
    put(out, std::to_string(entry.lowered_names.size()));
    for (const auto& [expression, lowered] : entry.lowered_names) {
        put(out, expression);
        put(out, lowered);
    }
    put(out, sha256_hex(out));
    return out;
}

std::optional<CacheEntry> parse(std::string_view text, std::string_view key) {
    FieldReader reader(text);
    if (reader.next() != magic || reader.next() != key) return std::nullopt;
    CacheEntry entry;
    const auto kind = reader.next();
    if (kind == "cubin")
        entry.kind = CodeKind::Cubin;
    else if (kind == "ptx")
        entry.kind = CodeKind::Ptx;
    else
        return std::nullopt;
    const auto architecture = reader.next_int();
    const auto image = reader.next();
    const auto log = reader.next();
    const auto count = reader.next_int();
    if (!architecture || !image || image->empty() || !log || !count) return std::nullopt;
    entry.architecture = *architecture;
    entry.image = *image;
    entry.log = *log;
    for (int i = 0; i < *count; ++i) {
        const auto expression = reader.next();
        const auto lowered = reader.next();
        if (!expression || !lowered) return std::nullopt;
        entry.lowered_names.emplace_back(*expression, *lowered);
    }
    const std::size_t checked = reader.position();
    const auto checksum = reader.next();
    if (!checksum || *checksum != sha256_hex(text.substr(0, checked)) || reader.position() != text.size())
        return std::nullopt;
    return entry;
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

} // namespace

ModuleCache ModuleCache::default_location() {
    if (std::string explicit_dir = environment("BIFSCOPE_CUDA_CACHE_DIR"); !explicit_dir.empty())
        return ModuleCache(explicit_dir);
    // XDG Base Directory Specification: $XDG_CACHE_HOME, default $HOME/.cache.
    if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')
        return ModuleCache(std::filesystem::path(xdg) / "bifscope" / "cuda");
    if (std::string home = environment("HOME"); !home.empty())
        return ModuleCache(std::filesystem::path(home) / ".cache" / "bifscope" / "cuda");
    return disabled();
}

std::filesystem::path ModuleCache::entry_path(std::string_view key) const {
    return directory_ / (std::string(key) + ".module");
}

std::optional<CacheEntry> ModuleCache::load(std::string_view key) const noexcept {
    if (!enabled()) return std::nullopt;
    try {
        std::ifstream in(entry_path(key), std::ios::binary);
        if (!in) return std::nullopt;
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return parse(text, key);
    } catch (...) {
        return std::nullopt;
    }
}

bool ModuleCache::store(std::string_view key, const CacheEntry& entry) const noexcept {
    if (!enabled()) return false;
    static std::atomic<unsigned> counter{0};
    try {
        std::error_code error;
        std::filesystem::create_directories(directory_, error);
        if (error) return false;
        const std::filesystem::path final_path = entry_path(key);
        std::filesystem::path temporary = final_path;
        temporary += ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            const std::string text = serialise(key, entry);
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            out.close();
            if (!out) {
                std::filesystem::remove(temporary, error);
                return false;
            }
        }
        std::filesystem::rename(temporary, final_path, error);
        if (error) {
            std::filesystem::remove(temporary, error);
            return false;
        }
        return true;
    } catch (...) {
        return false;
    }
}

} // namespace bif::cuda
