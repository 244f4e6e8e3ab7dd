// libFuzzer entry for the study file: reading must never crash, hang, leak or read out of bounds on
// any bytes, and every problem must format. A study that reads without errors must also survive
// writing: written out and read back it has no errors and writes out to the same text again.
// Resolving checks it against its inline model; a model named by path is left out, so that the
// fuzzer reads no files. The same text is read as a document's saved branches: the branches read
// without errors, written back into it, read back to as many branches without errors.
#include "engine/continuation/saved_branch.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

std::size_t formatted_size(const bif::study::Problems& problems) {
    std::size_t total = 0;
    for (const auto& p : problems)
        total += p.format().size();
    return total;
}

std::size_t saved_branches_checked(std::string_view text) {
    const bif::cont::SavedBranchesReadResult read = bif::cont::read_saved_branches(text);
    const std::size_t total = formatted_size(read.problems);
    if (read.branches.empty() || bif::study::has_errors(read.problems)) return total;
    const bif::cont::SavedBranchesReadResult again =
        bif::cont::read_saved_branches(bif::cont::with_saved_branches(text, read.branches));
    if (bif::study::has_errors(again.problems) || again.branches.size() != read.branches.size()) std::abort();
    return total;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bif::study;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::size_t total = saved_branches_checked(text);
    StudyReadResult read = read_study_json(text);
    total += formatted_size(read.problems);
    if (!read.study || has_errors(read.problems)) return total == static_cast<std::size_t>(-1);

    const std::string written = write_study_json(*read.study);
    const StudyReadResult again = read_study_json(written);
    if (!again.study || has_errors(again.problems) || write_study_json(*again.study) != written) std::abort();

    if (read.study->model.path.empty()) total += formatted_size(resolve_study(*read.study, "").problems);
    return total == static_cast<std::size_t>(-1);
}
