#include "engine/study/system_columns.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace bif::study {

namespace {

// Below this many items a piece costs less than starting a thread.
constexpr std::size_t items_per_thread_at_least = std::size_t{1} << 18;

// Systems [begin, end) of the range that starts at study system `first`, one point at a time
// (continuation chains, whose systems walk the grid back and forth).
void fill_chain_axis_piece(const ResolvedStudy& study, std::size_t axis, std::size_t first, std::size_t begin,
                           std::size_t end, std::size_t stride, double* out) {
    const std::vector<double>& values = study.grid.values(axis);
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t point = study.grid.whole_point(study.grid_point(first + i));
        out[i] = values[(point / stride) % values.size()];
    }
}

// Grid points [point, point + count) along `axis` into out[0, count): a stretch of one value per
// `stride` points, or along the first axis (stride 1) a stretch of the axis's values, at a time.
void fill_consecutive(const std::vector<double>& values, std::size_t stride, std::size_t point,
                      std::size_t count, double* out) {
    const std::size_t n = values.size();
    std::size_t index = (point / stride) % n, within = point % stride;
    while (count > 0) {
        if (stride == 1) {
            const std::size_t run = std::min(count, n - index);
            std::copy(values.begin() + long(index), values.begin() + long(index + run), out);
            out += run;
            count -= run;
            index = 0;
            continue;
        }
        const std::size_t run = std::min(count, stride - within);
        std::fill(out, out + run, values[index]);
        out += run;
        count -= run;
        within = 0;
        if (++index == n) index = 0;
    }
}

// Systems [begin, end) of the range that starts at study system `first`: runs of consecutive grid
// points (every plain sweep, and the blocks a streamed job cuts) are filled a stretch at a time.
void fill_axis_piece(const ResolvedStudy& study, std::size_t axis, std::size_t first, std::size_t begin,
                     std::size_t end, double* out) {
    const SweepGrid& grid = study.grid;
    std::size_t stride = 1; // SweepGrid's order: the first axis fastest
    for (std::size_t a = 0; a < axis; ++a)
        stride *= grid.values(a).size();
    if (study.is_continuation()) return fill_chain_axis_piece(study, axis, first, begin, end, stride, out);
    if (grid.consecutive())
        return fill_consecutive(grid.values(axis), stride, grid.whole_point(first + begin), end - begin,
                                out + begin);
    for (std::size_t i = begin; i < end;) {
        const std::size_t point = grid.whole_point(first + i);
        // eight points at a time where it can: one branch per eight (a streamed block is one run)
        std::size_t run = 1;
        for (bool whole = true; whole && i + run + 8 <= end; run += whole ? 8 : 0)
            for (std::size_t k = 0; k < 8; ++k)
                whole &= grid.whole_point(first + i + run + k) == point + run + k;
        while (i + run < end && grid.whole_point(first + i + run) == point + run)
            ++run;
        fill_consecutive(grid.values(axis), stride, point, run, out + i);
        i += run;
    }
}

} // namespace

void for_each_piece(std::size_t count, const std::function<void(std::size_t, std::size_t)>& piece) {
    const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t pieces = std::clamp<std::size_t>(count / items_per_thread_at_least, 1, hardware);
    if (pieces == 1) return piece(0, count);
    std::vector<std::thread> threads;
    threads.reserve(pieces - 1);
    const std::size_t size = (count + pieces - 1) / pieces;
    for (std::size_t p = 1; p < pieces; ++p) {
        const std::size_t begin = std::min(p * size, count), end = std::min(begin + size, count);
        threads.emplace_back([&piece, begin, end] { piece(begin, end); });
    }
    piece(0, std::min(size, count));
    for (auto& t : threads)
        t.join();
}

void fill_axis_values(const ResolvedStudy& study, std::size_t axis, std::size_t first, std::size_t count,
                      double* out) {
    for_each_piece(count, [&](std::size_t begin, std::size_t end) {
        fill_axis_piece(study, axis, first, begin, end, out);
    });
}

} // namespace bif::study
