#include "engine/cuda/embedded_headers.h"

#include "engine/cuda/sha256.h"

namespace bif::cuda {

const EmbeddedHeader* find_embedded_header(std::string_view include_name) {
    for (const EmbeddedHeader& header : embedded_headers())
        if (include_name == header.include_name) return &header;
    return nullptr;
}

const std::string& embedded_headers_digest() {
    static const std::string digest = [] {
        Sha256 hash;
        for (const EmbeddedHeader& header : embedded_headers())
            hash.update_field(header.include_name).update_field(header.view());
        return hash.hex_digest();
    }();
    return digest;
}

} // namespace bif::cuda
