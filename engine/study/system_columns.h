// Per-system columns of a study computed for a range of its systems at once: what allocate_result
// (engine/study/result.h) and the batches of the backends (engine/ensemble/batch_arrays.h) fill for
// every system, at the speed of a copy rather than of a lookup per system (issue 14: the host side
// of a 10^8-system map).
#pragma once

#include "engine/study/resolved_study.h"

#include <cstddef>
#include <functional>

namespace bif::study {

// The swept values of systems [first, first + count) of `study` along `axis`, into out[0, count):
// out[i] == study.grid.value(study.grid_point(first + i), axis), bit for bit. Runs of consecutive
// grid points (every plain sweep, and the blocks a streamed job cuts) are stepped through instead of
// divided out per system; a large range is split over threads.
void fill_axis_values(const ResolvedStudy& study, std::size_t axis, std::size_t first, std::size_t count,
                      double* out);

// Calls piece(begin, end) for contiguous pieces covering [0, count): one piece below a few hundred
// thousand items, else one per hardware thread, run concurrently. `piece` must be safe to run so,
// and must not throw.
void for_each_piece(std::size_t count, const std::function<void(std::size_t, std::size_t)>& piece);

} // namespace bif::study
