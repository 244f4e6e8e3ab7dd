#include "host_kept_map.h"

#include "engine/study/resolved_study.h"

#include <algorithm>
#include <cmath>

namespace bif::test {

render::MapSummary summarise_on_host(const std::vector<float>& values,
                                     const std::vector<std::uint8_t>& statuses) {
    render::MapSummary s;
    for (std::size_t i = 0; i < statuses.size(); ++i) {
        const unsigned st = statuses[i];
        if (st == render::no_status_cell) continue;
        s.statuses[st >> 5] |= 1u << (st & 31);
        const float v = values[i];
        if (!render::status_counts_value(std::uint8_t(st)) || !std::isfinite(v)) continue;
        s.lo_key = std::min(s.lo_key, render::float_order_key(v));
        s.hi_key = std::max(s.hi_key, render::float_order_key(v));
        const int bit = int(std::clamp<long>(std::lround(v), -1, 1023)) + 1;
        s.categories[bit >> 5] |= 1u << (bit & 31);
    }
    return s;
}

HostKeptMap::HostKeptMap(const study::Result& result, std::size_t width, std::size_t height,
                         std::vector<std::string> columns)
    : width_(width), height_(height), columns_(std::move(columns)) {
    for (std::size_t c = 0; c < std::max<std::size_t>(1, columns_.size()); ++c) {
        std::vector<float> v(result.system_count, NAN);
        if (c < columns_.size())
            if (const study::NumberColumn* column = result.scalar(columns_[c]))
                std::transform(column->values.begin(), column->values.end(), v.begin(),
                               [](double x) { return float(x); });
        values_.push_back(std::move(v));
    }
    statuses_.resize(result.system_count);
    std::transform(result.status.begin(), result.status.end(), statuses_.begin(), [](study::SystemStatus s) {
        return s == study::SystemStatus::NotRun ? render::no_status_cell : std::uint8_t(s);
    });
}

std::pair<float, study::SystemStatus> HostKeptMap::cell(std::size_t column, std::size_t index) const {
    ++cells_read;
    const std::uint8_t s = statuses_.at(index);
    return {values_.at(column).at(index),
            s == render::no_status_cell ? study::SystemStatus::NotRun : static_cast<study::SystemStatus>(s)};
}

void HostKeptMap::sample(std::size_t column, std::size_t step, std::vector<float>& values,
                         std::vector<std::uint8_t>& statuses) const {
    ++samples;
    values.clear();
    statuses.clear();
    for (std::size_t s : study::kept_sample_systems(width_, height_, step)) {
        values.push_back(values_.at(column)[s]);
        statuses.push_back(statuses_[s]);
    }
}

void HostKeptMap::download(std::size_t column, std::vector<float>& values,
                           std::vector<std::uint8_t>& statuses) const {
    ++downloads;
    values = values_.at(column);
    statuses = statuses_;
}

render::MapSummary HostKeptMap::summary(std::size_t column) const {
    return summarise_on_host(values_.at(column), statuses_);
}

HostKeptPoints::HostKeptPoints(const study::Result& result) : points_(result.points) {
    x_ = result.axes.at(0).values;
}

std::optional<std::pair<double, double>> HostKeptPoints::range(std::size_t column) const {
    std::optional<std::pair<double, double>> range;
    for (std::size_t s = 0; s < systems(); ++s)
        for (std::size_t r = 0; r < points_.rows_filled[s]; ++r) {
            const double v = points_.value(s, r, column);
            if (!std::isfinite(v)) continue;
            range =
                range ? std::pair{std::min(range->first, v), std::max(range->second, v)} : std::pair{v, v};
        }
    return range;
}

void HostKeptPoints::density(std::size_t column, const render::DensityBinning& binning,
                             std::vector<std::uint32_t>& counts) const {
    ++densities;
    counts.assign(std::size_t(binning.width) * std::size_t(binning.height), 0);
    for (std::size_t s = 0; s < systems(); ++s)
        for (std::size_t r = 0; r < points_.rows_filled[s]; ++r) {
            const long long pixel = render::density_pixel(binning, x_[s], points_.value(s, r, column));
            if (pixel >= 0) ++counts[std::size_t(pixel)];
        }
}

void HostKeptPoints::download(study::PointBlock& points) const {
    ++downloads;
    points = points_;
}

study::Result KeepingBackend::run_kept(const study::ResolvedStudy& s, const study::KeepRequest& keep,
                                       study::RunControl& control) {
    if (s.is_continuation()) throw study::NotKept("a continuation's result cannot stay on the device");
    if (s.study.analysis == study::AnalysisKind::Bifurcation) {
        if (s.grid.axis_count() != 1) throw study::NotKept("only a diagram over one axis keeps its points");
        ++kept_runs;
        study::Result host = inner_->run(s, control);
        auto points = std::make_shared<HostKeptPoints>(host);
        host.points.rows_per_system = 0;
        host.points.rows_filled.clear();
        host.points.values.clear();
        host.kept_points = std::move(points);
        return host;
    }
    const study::Result layout = study::allocate_result(s);
    for (const std::string& c : keep.columns)
        if (!layout.scalar(c)) throw study::NotKept("the device does not compute \"" + c + "\"");
    ++kept_runs;
    study::Result host = inner_->run(s, control);
    const study::MapShape shape = study::map_shape(s);
    study::Result kept;
    kept.analysis = host.analysis;
    kept.system_count = host.system_count;
    kept.info = host.info;
    kept.kept = std::make_shared<HostKeptMap>(host, shape.width, shape.height, keep.columns);
    return kept;
}

} // namespace bif::test
