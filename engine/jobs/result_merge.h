// Moving systems between results of allocate_result's layout: a block of a progressive job holds
// some systems of the whole study, row i being the whole study's system systems[i].
#pragma once

#include "engine/study/result.h"

#include <cstddef>
#include <vector>

namespace bif::jobs {

// Copies every row of `block` (statuses, scalars, point rows and rows_filled) into `whole` at the
// systems it belongs to. Scalar columns go by name; one that `whole` lacks (a backend may add its
// own, e.g. "lambda_change") is added, NaN elsewhere. Axes are left alone: allocate_result filled
// them for the whole study already. Throws std::logic_error when the point layouts differ.
void scatter_block(const study::Result& block, const std::vector<std::size_t>& systems, study::Result& whole);

// The result of only these rows of `part`, in this order (info copied).
study::Result gather_rows(const study::Result& part, const std::vector<std::size_t>& rows);

// Adds a block's run information to the whole's: timings summed, notes and warnings appended
// unless already there, the code path and its note, the device and precision taken over.
// `complete` is left to the caller.
void merge_info(study::RunInfo& whole, const study::RunInfo& part);

} // namespace bif::jobs
