// A map's result kept where it was computed (issue 11): a GPU backend writes the map's scalar columns
// and statuses into device memory as its batches finish, and only this handle reaches the caller.
// A view draws the cells from there (ui/render's CUDA path), colours them from their summary, reads
// the one cell under the cursor, and brings the whole map to the host only for an export.
//
//   JobOptions options;
//   options.keep = KeepRequest{device, {"period", "lambda_max"}};
//   ... job->result()->kept->summary(0);                       // the colours of "period"
//
// A Result that holds a KeptMap has system_count and info alone: no axes, statuses or scalars (a
// 10^8-cell map would hold gigabytes of them on the host).
#pragma once

#include "bif/render/map_summary.h"
#include "engine/study/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bif::study {

struct ResolvedStudy;

// What a job asks a backend to keep: the scalar columns of a map study (none: the statuses alone),
// on the device whose ordinal is `device` (the GPU that draws the view).
struct KeepRequest {
    int device = 0;
    std::vector<std::string> columns;
};

// A backend that cannot keep this study where asked (another backend, a basin's labels that the
// host assigns, a continuation, another GPU): the job runs it the ordinary way instead.
class NotKept : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class KeptMap {
  public:
    virtual ~KeptMap() = default;

    // Cells along the first sweep axis and along the second (1 for a one-axis map); cell (i, j) is
    // system j * width + i.
    virtual std::size_t width() const = 0;
    virtual std::size_t height() const = 0;
    std::size_t count() const { return width() * height(); }
    // The columns kept, in the request's order; the status of every cell is kept with each.
    virtual const std::vector<std::string>& columns() const = 0;
    // Where they are: "NVIDIA H100 80GB HBM3 (GPU 0)".
    virtual std::string where() const = 0;

    // One cell of column `column`: its value (as a float holds it) and status. Waits for the copy.
    virtual std::pair<float, SystemStatus> cell(std::size_t column, std::size_t index) const = 0;
    // Every `step`-th cell of every `step`-th row, from cell (0, 0): the cells of a picture
    // ceil(width / step) x ceil(height / step) wide, row by row.
    virtual void sample(std::size_t column, std::size_t step, std::vector<float>& values,
                        std::vector<std::uint8_t>& statuses) const = 0;
    // Every cell, row by row (an export).
    virtual void download(std::size_t column, std::vector<float>& values,
                          std::vector<std::uint8_t>& statuses) const = 0;
    // The colour range, categories and statuses of the column's cells, summarised where they are.
    virtual render::MapSummary summary(std::size_t column) const = 0;
};

// A map study's cells: along its first sweep axis, and rows of them (the second axis; 1 without one).
struct MapShape {
    std::size_t width = 1, height = 1;
};
MapShape map_shape(const ResolvedStudy& study);

// The step of a kept map's sample (KeptMap::sample) and of the preview its job runs first: the
// smallest that keeps the sample within `most` cells along either axis.
std::size_t kept_sample_step(std::size_t width, std::size_t height, std::size_t most = 512);

// The systems of that sample, ascending.
std::vector<std::size_t> kept_sample_systems(std::size_t width, std::size_t height, std::size_t step);

// The kept map as an ordinary result (allocate_result's layout for `study`, whose system count it
// must have): what an export writes. The values are the kept floats.
Result download_kept(const ResolvedStudy& study, const KeptMap& kept);

} // namespace bif::study
