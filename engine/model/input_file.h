// Reading a user's input file (a model, a study) whole. Only a regular file under a size limit is
// read: a path that names a device (/dev/zero), a FIFO or a directory would otherwise hang the
// reader or exhaust memory. Symbolic links are followed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace bif::model {

inline constexpr std::size_t max_input_file_bytes = 16u << 20; // 16 MiB

struct InputFile {
    std::optional<std::string> text; // present when the file was read
    std::string failure;             // otherwise why not, one line without the path
};

InputFile read_input_file(const std::string& path, std::size_t max_bytes = max_input_file_bytes);

} // namespace bif::model
