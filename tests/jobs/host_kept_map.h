// A stand-in for a device that keeps results (engine/study/kept_map.h, kept_points.h), for the tests
// that run without a GPU: HostKeptMap holds a host result's columns as a GPU's cells would (a float
// and a status byte per cell), HostKeptPoints a diagram's points, and KeepingBackend keeps the
// results of the backend it wraps so. Counters say how a view used them (a cell under the cursor, a
// sample, a density, a whole download).
#pragma once

#include "bif/render/map_summary.h"
#include "engine/study/backend.h"
#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace bif::test {

// The summary's rule (bif/render/map_summary.h) over cells on the host.
render::MapSummary summarise_on_host(const std::vector<float>& values,
                                     const std::vector<std::uint8_t>& statuses);

class HostKeptMap : public study::KeptMap {
  public:
    HostKeptMap(const study::Result& result, std::size_t width, std::size_t height,
                std::vector<std::string> columns);

    std::size_t width() const override { return width_; }
    std::size_t height() const override { return height_; }
    const std::vector<std::string>& columns() const override { return columns_; }
    std::string where() const override { return "host memory (a test's stand-in)"; }
    std::pair<float, study::SystemStatus> cell(std::size_t column, std::size_t index) const override;
    void sample(std::size_t column, std::size_t step, std::vector<float>& values,
                std::vector<std::uint8_t>& statuses) const override;
    void download(std::size_t column, std::vector<float>& values,
                  std::vector<std::uint8_t>& statuses) const override;
    render::MapSummary summary(std::size_t column) const override;

    mutable std::atomic<int> cells_read{0}, samples{0}, downloads{0};

  private:
    std::size_t width_, height_;
    std::vector<std::string> columns_;
    std::vector<std::vector<float>> values_;
    std::vector<std::uint8_t> statuses_;
};

// A diagram's points as a device keeps them, from a host result: binned by bif/render/binning.h's rule.
class HostKeptPoints : public study::KeptPoints {
  public:
    explicit HostKeptPoints(const study::Result& result);

    std::size_t systems() const override { return points_.rows_filled.size(); }
    std::size_t rows() const override { return points_.rows_per_system; }
    const std::vector<std::string>& columns() const override { return points_.columns; }
    std::string where() const override { return "host memory (a test's stand-in)"; }
    std::optional<std::pair<double, double>> range(std::size_t column) const override;
    void density(std::size_t column, const render::DensityBinning& binning,
                 std::vector<std::uint32_t>& counts) const override;
    void download(study::PointBlock& points) const override;

    mutable std::atomic<int> densities{0}, downloads{0};

  private:
    std::vector<double> x_; // per system
    study::PointBlock points_;
};

// Runs as `inner` does; run_kept runs the study on it and keeps the result in a HostKeptMap, or a
// one-axis diagram's points in HostKeptPoints (NotKept for a continuation, a column the result
// lacks or a diagram over two axes, as the CUDA backend refuses them).
class KeepingBackend : public study::Backend {
  public:
    explicit KeepingBackend(std::shared_ptr<study::Backend> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return inner_->name(); } // the registry picks it as the inner one
    study::Availability availability() const override { return inner_->availability(); }
    study::Result run(const study::ResolvedStudy& s, study::RunControl& control) override {
        return inner_->run(s, control);
    }
    study::Result run_kept(const study::ResolvedStudy& s, const study::KeepRequest& keep,
                           study::RunControl& control) override;

    std::atomic<int> kept_runs{0};

  private:
    std::shared_ptr<study::Backend> inner_;
};

} // namespace bif::test
