// SHA-256 (FIPS 180-4), for module cache keys: a key names compiled machine code that is loaded
// without further checks, so it must not collide by accident.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace bif::cuda {

class Sha256 {
  public:
    Sha256();
    Sha256& update(std::string_view bytes);
    // Length-prefixed, so that ("ab","c") and ("a","bc") hash differently.
    Sha256& update_field(std::string_view bytes);
    std::array<std::uint8_t, 32> digest() const; // does not change the running state
    std::string hex_digest() const;

  private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view bytes);

} // namespace bif::cuda
