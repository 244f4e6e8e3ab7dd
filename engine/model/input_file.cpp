#include "engine/model/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bif::model {

namespace {

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string megabytes(std::size_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MB";
}

// Closes the descriptor on every way out.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

InputFile read_input_file(const std::string& path, std::size_t max_bytes) {
    InputFile file;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. The checks use the
    // opened descriptor, so the file cannot be swapped between the check and the read.
    const Descriptor d{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (d.fd < 0) return file.failure = std::strerror(errno), file;
    struct stat info {};
    if (::fstat(d.fd, &info) != 0) return file.failure = std::strerror(errno), file;
    if (!S_ISREG(info.st_mode))
        return file.failure = "it is " + kind_of(info.st_mode) + ", not a regular file", file;
    const auto limit_exceeded = [&] {
        file.failure = "it is larger than the " + megabytes(max_bytes) + " limit";
        return file;
    };
    if (static_cast<std::size_t>(info.st_size) > max_bytes) return limit_exceeded();
    // Reads to the end rather than st_size bytes: a file that grows meanwhile is still bounded.
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(d.fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            return file.failure = std::strerror(errno), file;
        }
        if (text.size() + static_cast<std::size_t>(n) > max_bytes) return limit_exceeded();
        text.append(buffer, static_cast<std::size_t>(n));
    }
    file.text = std::move(text);
    return file;
}

} // namespace bif::model
