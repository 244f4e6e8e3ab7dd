// The headers under kernels/, embedded in the binary at build time (embed_headers.cmake writes the
// table), so that NVRTC gets them from memory: no file system access to kernels/ at run time, and a
// compiled module's cache key covers exactly the header text it was built from.
//
// Include names are paths relative to kernels/ ("bif/config.h"); NVRTC matches them against the
// text of #include directives, so kernel headers include each other by that path.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace bif::cuda {

struct EmbeddedHeader {
    const char* include_name;
    const char* text;
    std::size_t size;
    std::string_view view() const { return {text, size}; }
};

// Sorted by include name.
std::span<const EmbeddedHeader> embedded_headers();
// nullptr when no such header was embedded.
const EmbeddedHeader* find_embedded_header(std::string_view include_name);
// SHA-256 (hex) over every include name and text: part of every module's cache key.
const std::string& embedded_headers_digest();

} // namespace bif::cuda
