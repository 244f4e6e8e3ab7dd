// Where a result, a figure or a study goes, by what the path names. A regular file (or a path that
// does not exist yet) is written whole to a temporary file beside it and renamed into place, so an
// interrupted write never leaves a truncated file. A character device, FIFO or socket that exists
// already is opened and written in place, as every Unix tool does: renaming over it would replace
// /dev/null or a named pipe with a plain file. "-" is standard output. Every write error (ENOSPC,
// EIO, EPIPE) is reported with its reason; nothing fails silently.
#pragma once

#include <memory>
#include <ostream>
#include <string>

namespace bif::study {

enum class OutputKind {
    File,           // regular or not there yet: temporary file, then rename
    Stream,         // an existing character device, FIFO or socket: written in place
    StandardOutput, // "-"
};

// What `path` names. Sets `why` when it can take no output at all (a directory, a block device).
OutputKind output_kind(const std::string& path, std::string& why);

// The temporary file a regular output is written to before it is renamed into place.
std::string partial_path(const std::string& path);

// Why output cannot go to `path`, or an empty string when it can. A regular output is probed by
// creating and removing a temporary file beside it, where the partial file will go; a stream must
// be openable for writing (a FIFO without a reader is not waited for here).
std::string why_output_cannot_be_written(const std::string& path);

// One output being written. Use stream() for the bytes, then commit(); an OutputFile dropped
// uncommitted removes its partial file and leaves the target as it was (a stream keeps what it got).
class OutputFile {
  public:
    // Opens the partial file, the stream or standard output. Throws std::runtime_error with the
    // reason when it cannot.
    explicit OutputFile(std::string path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::ostream& stream();
    OutputKind kind() const { return kind_; }
    const std::string& path() const { return path_; }

    // Flushes, closes and (for a regular file) renames into place. Returns an empty string on
    // success, else the reason (strerror of the failed write, close or rename).
    std::string commit();

  private:
    class FdBuffer;
    std::string path_, partial_;
    OutputKind kind_ = OutputKind::File;
    int fd_ = -1;
    std::unique_ptr<FdBuffer> buffer_;
    std::unique_ptr<std::ostream> stream_;
    bool committed_ = false;
};

// Writes `bytes` to `path` by the rules above; returns an empty string or the reason it failed.
std::string write_output(const std::string& path, const std::string& bytes);

} // namespace bif::study
