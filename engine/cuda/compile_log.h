// Maps NVRTC log lines back to the program part they point into. The compilation service puts
// `#line 1 "<part>"` before each part, so NVRTC reports "<part>(<line>): error: ..."; this finds
// those lines and attaches the part's own text of that line.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/errors.h"

#include <string>
#include <vector>

namespace bif::cuda {

std::vector<CompileDiagnostic> map_compile_log(const std::string& log, const std::vector<SourcePart>& parts);

// The log with each mapped line followed by the offending source line, indented; for messages.
std::string annotate_compile_log(const std::string& log, const std::vector<SourcePart>& parts);

} // namespace bif::cuda
