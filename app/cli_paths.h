// Checks on where a run's result goes, made before the run starts: a mistake in --out should cost
// nothing, neither the study's inputs nor the minutes of the run. The rules for what a path names
// (a regular file through a temporary file and a rename, a device or FIFO in place, "-" standard
// output) are engine/study/output_file.h's.
#pragma once

#include "engine/study/output_file.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

using study::partial_path;

// The first of `inputs` that `path` names however it is spelled (symbolic links, "./", "..", hard
// links: the same device and inode), or an empty string when none is.
std::string input_named_by(const std::string& path, const std::vector<std::string>& inputs);

// Refuses an output that would overwrite one of `inputs` (also through the partial file written
// first) or that cannot be written, before any work is done. Returns Success, Usage or IoFailure
// (said on `err`).
int check_output_path(const std::string& out_path, const std::vector<std::string>& inputs, std::ostream& err);

// Writes `path` by output_file.h's rules. Returns Success or IoFailure (said on `err` with the reason).
int write_output(const std::string& path, const std::function<void(std::ostream&)>& write, std::ostream& err);

// Flushes a result written to `out` (standard output) and says why it could not be written (a full
// disk, a closed pipe). Returns Success or IoFailure.
int flush_result(std::ostream& out, std::ostream& err);

} // namespace bif::cli
