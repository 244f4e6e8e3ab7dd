// A bifurcation diagram's section points kept where they were computed (issue 11): a GPU backend
// writes every recorded point into device memory as its batches finish, and the Result carries this
// handle instead of the points; its axes, statuses and scalars come to the host as usual (a few
// bytes a system, against 8 bytes a point per quantity). A view bins the points where they are, at
// its own range and pixels (ui/render's CUDA path, or density() for a host picture), and only an
// export brings them to the host.
//
//   JobOptions options;
//   options.keep = KeepRequest{device, {}};       // a one-axis diagram: every recorded quantity
//   ... job->result()->kept_points->density(0, binning, counts);
#pragma once

#include "bif/render/binning.h"
#include "engine/study/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bif::study {

class KeptPoints {
  public:
    virtual ~KeptPoints() = default;

    // One system per swept value; rows() points at most per system and quantity (the study's
    // recorded sections), of which each system filled its own count.
    virtual std::size_t systems() const = 0;
    virtual std::size_t rows() const = 0;
    // The recorded quantities, in the study's order (Result::points.columns).
    virtual const std::vector<std::string>& columns() const = 0;
    // Where they are: "NVIDIA H100 80GB HBM3 (GPU 0)".
    virtual std::string where() const = 0;

    // The smallest and largest finite value of quantity `column` over every filled row; none when
    // there is none.
    virtual std::optional<std::pair<double, double>> range(std::size_t column) const = 0;
    // The points (x: their system's swept value, y: quantity `column`) counted per pixel of
    // `binning` (bif/render/binning.h, the rule ResultFigure bins by): binning.width * binning.height
    // counts, row 0 first. Waits for them.
    virtual void density(std::size_t column, const render::DensityBinning& binning,
                         std::vector<std::uint32_t>& counts) const = 0;
    // Every filled row into `points`, which has these columns and no rows yet (an export): sized
    // here to rows() per system.
    virtual void download(PointBlock& points) const = 0;
};

// The result with its points on the host (an export): a copy of `result`, whose kept_points it
// downloads. `result` without kept points is copied as it is.
Result download_kept_points(const Result& result);

} // namespace bif::study
