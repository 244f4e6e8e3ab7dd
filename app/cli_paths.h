// Checks on where a run's result goes, made before the run starts: a mistake in --out should cost
// nothing, neither the study's inputs nor the minutes of the run.
#pragma once

#include <string>
#include <vector>

namespace bif::cli {

// The first of `inputs` that `path` names however it is spelled (symbolic links, "./", "..", hard
// links: the same device and inode), or an empty string when none is.
std::string input_named_by(const std::string& path, const std::vector<std::string>& inputs);

// Why a file cannot be created at `path`, or an empty string when it can. Probed by creating and
// removing a temporary file beside it, which is where the result's own temporary file will go.
std::string why_output_cannot_be_created(const std::string& path);

} // namespace bif::cli
