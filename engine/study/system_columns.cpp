#include "engine/study/system_columns.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace bif::study {

namespace {

// Below this many items a piece costs less than starting a thread.
constexpr std::size_t items_per_thread_at_least = std::size_t{1} << 18;

// Systems [begin, end) of the range that starts at study system `first`.
void fill_axis_piece(const ResolvedStudy& study, std::size_t axis, std::size_t first, std::size_t begin,
                     std::size_t end, double* out) {
    const SweepGrid& grid = study.grid;
    const std::vector<double>& values = grid.values(axis);
    const std::size_t n = values.size();
    std::size_t stride = 1; // SweepGrid's order: the first axis fastest
    for (std::size_t a = 0; a < axis; ++a)
        stride *= grid.values(a).size();
    const bool chains = study.is_continuation();
    // index = (point / stride) % n and within = point % stride, carried from one point to the next
    std::size_t expected = 0, index = 0, within = 0;
    bool stepping = false;
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t system = first + i;
        const std::size_t point = grid.whole_point(chains ? study.grid_point(system) : system);
        if (!stepping || point != expected) {
            index = (point / stride) % n;
            within = point % stride;
            stepping = true;
        }
        out[i] = values[index];
        expected = point + 1;
        if (++within == stride) {
            within = 0;
            if (++index == n) index = 0;
        }
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
