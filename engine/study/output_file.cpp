#include "engine/study/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <streambuf>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

namespace bif::study {

// A stream buffer over a file descriptor that keeps the first write error's errno, which an
// std::ofstream loses (it only sets badbit).
class OutputFile::FdBuffer : public std::streambuf {
  public:
    explicit FdBuffer(int fd) : fd_(fd), buffer_(std::size_t{1} << 16) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
    }
    int error() const { return error_; }

  protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }
    std::streamsize xsputn(const char* data, std::streamsize n) override {
        if (n >= std::streamsize(buffer_.size())) {
            if (!drain() || !write_all(data, std::size_t(n))) return 0;
            return n;
        }
        return std::streambuf::xsputn(data, n);
    }

  private:
    bool drain() {
        const std::size_t n = std::size_t(pptr() - pbase());
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        return write_all(buffer_.data(), n);
    }
    bool write_all(const char* data, std::size_t n) {
        if (error_) return false;
        while (n > 0) {
            const ssize_t written = ::write(fd_, data, n);
            if (written < 0) {
                if (errno == EINTR) continue;
                error_ = errno;
                return false;
            }
            data += written;
            n -= std::size_t(written);
        }
        return true;
    }

    int fd_;
    std::vector<char> buffer_;
    int error_ = 0;
};

namespace {

bool is_stream(mode_t mode) {
    return S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode);
}

bool is_socket(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISSOCK(info.st_mode);
}

// A Unix-domain socket takes output through a connection, not open(2); -1 with errno on failure.
int connect_socket(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) return errno = ENAMETOOLONG, -1;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return fd;
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
}

} // namespace

OutputKind output_kind(const std::string& path, std::string& why) {
    why.clear();
    if (path == "-") return OutputKind::StandardOutput;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return OutputKind::File; // created by the write
    if (is_stream(info.st_mode)) return OutputKind::Stream;
    if (S_ISDIR(info.st_mode))
        why = "it is a directory";
    else if (!S_ISREG(info.st_mode))
        why = "it is neither a regular file nor a stream";
    return OutputKind::File;
}

std::string partial_path(const std::string& path) {
    return path + ".partial";
}

std::string why_output_cannot_be_written(const std::string& path) {
    std::string why;
    switch (output_kind(path, why)) {
    case OutputKind::StandardOutput:
        return {};
    case OutputKind::Stream: {
        // A FIFO or a socket is not opened to probe it: its reader would take the probe's close for
        // the end of the output.
        struct stat info {};
        if (::stat(path.c_str(), &info) == 0 && !S_ISCHR(info.st_mode))
            return ::access(path.c_str(), W_OK) == 0 ? std::string{} : std::string(std::strerror(errno));
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) return ::close(fd), std::string{};
        return std::strerror(errno);
    }
    case OutputKind::File:
        break;
    }
    if (!why.empty()) return why;
    std::string probe = path + ".probe-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    std::string why;
    kind_ = output_kind(path_, why);
    if (!why.empty()) throw std::runtime_error(why);
    switch (kind_) {
    case OutputKind::StandardOutput:
        fd_ = STDOUT_FILENO;
        break;
    case OutputKind::Stream:
        // no O_TRUNC: a device or a pipe is written as it is
        fd_ = is_socket(path_) ? connect_socket(path_) : ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        break;
    case OutputKind::File:
        partial_ = partial_path(path_);
        fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        break;
    }
    if (fd_ < 0) throw std::runtime_error(std::strerror(errno));
    buffer_ = std::make_unique<FdBuffer>(fd_);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
}

OutputFile::~OutputFile() {
    if (committed_) return;
    if (kind_ != OutputKind::StandardOutput && fd_ >= 0) ::close(fd_);
    if (kind_ == OutputKind::File) ::unlink(partial_.c_str());
}

std::ostream& OutputFile::stream() {
    return *stream_;
}

std::string OutputFile::commit() {
    if (committed_) return {};
    stream_->flush();
    int error = buffer_->error();
    if (!error && !*stream_) error = EIO;
    if (kind_ != OutputKind::StandardOutput) {
        if (::close(fd_) != 0 && !error) error = errno;
        fd_ = -1;
    }
    if (!error && kind_ == OutputKind::File && ::rename(partial_.c_str(), path_.c_str()) != 0) error = errno;
    if (error) {
        if (kind_ == OutputKind::File) ::unlink(partial_.c_str());
        committed_ = true; // nothing left to clean up
        return std::strerror(error);
    }
    committed_ = true;
    return {};
}

std::string write_output(const std::string& path, const std::string& bytes) {
    try {
        OutputFile file(path);
        file.stream().write(bytes.data(), std::streamsize(bytes.size()));
        return file.commit();
    } catch (const std::exception& e) {
        return e.what();
    }
}

} // namespace bif::study
