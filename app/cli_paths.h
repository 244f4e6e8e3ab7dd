// Checks on where a run's result goes, made before the run starts: a mistake in --out should cost
// nothing, neither the study's inputs nor the minutes of the run.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

// The first of `inputs` that `path` names however it is spelled (symbolic links, "./", "..", hard
// links: the same device and inode), or an empty string when none is.
std::string input_named_by(const std::string& path, const std::vector<std::string>& inputs);

// Why a file cannot be created at `path`, or an empty string when it can. Probed by creating and
// removing a temporary file beside it, which is where the result's own temporary file will go.
std::string why_output_cannot_be_created(const std::string& path);

// The temporary file a result is written to before it is renamed into place.
std::string partial_path(const std::string& path);

// Writes `path` through its partial file, renamed at the end, so an interrupted write leaves no
// truncated result. Returns Success or IoFailure (said on `err`).
int write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                     std::ostream& err);

} // namespace bif::cli
