// What a map figure holds of a map whose cells stay on a device (engine/study/kept_map.h): on the
// host, only the cells of the map's sample lattice (kept_sample_systems: at most 512 along either
// axis), first from the job's preview block, then read from the kept map; they make the figure's
// image, which QPainter exports and views without the CUDA path draw. The kept map itself gives
// the colours (its summary, over every cell), the cell under the cursor, and the cells at full
// resolution for the CUDA path (ui/render) and for exports of the data.
#pragma once

#include "engine/study/kept_map.h"
#include "ui/plot/map_colouring.h"

#include <QImage>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace bif::plot {

class KeptMapPicture {
  public:
    // A map of width x height cells whose quantities are the scalar columns `scalars` (the status
    // view aside).
    KeptMapPicture(std::size_t width, std::size_t height, QStringList scalars);

    std::size_t step() const { return step_; }
    QSize sampleSize() const { return QSize(int(sample_width_), int(sample_height_)); }
    const study::KeptMap* kept() const { return kept_.get(); }

    // A host block's systems (rows of `result`) that lie on the lattice; the rest are left to the
    // kept map. Returns how many lattice cells were new.
    std::size_t addBlock(const study::Result& result, const std::vector<std::size_t>& systems);
    // The kept map: the lattice's cells are read back from it (its columns by name).
    void setKept(std::shared_ptr<const study::KeptMap> kept);

    // The kept map's column of scalar quantity `scalar` (the status view: any column, its statuses);
    // none when the map does not keep it.
    std::optional<std::size_t> keptColumn(int scalar) const;
    // The colours of quantity `scalar` (-1: the status view), over every kept cell once the map is
    // kept, else over the lattice's cells.
    MapColouring colouring(int scalar) const;
    // The lattice's cells painted as colours says: an image of sampleSize(), y growing upwards.
    void paint(QImage& image, const MapColouring& colours, int scalar) const;
    // The lattice's cells of quantity `scalar` as floats (the status view: the statuses) and statuses
    // (no_status_cell where none came yet): a layer's host upload.
    void sampleCells(int scalar, std::vector<float>& values, std::vector<std::uint8_t>& statuses) const;
    // Cell (i, j) of quantity `scalar`: from the kept map (one cell read back), or before it from the
    // lattice cell that stands for it; none before that came.
    std::optional<std::pair<double, study::SystemStatus>> cell(std::size_t i, std::size_t j,
                                                               int scalar) const;

  private:
    double valueOf(std::size_t k, int scalar) const;

    std::size_t width_, height_, step_, sample_width_, sample_height_;
    QStringList scalars_;
    std::vector<std::vector<float>> values_; // per scalar quantity, per lattice cell
    std::vector<std::uint8_t> statuses_;     // per lattice cell
    std::shared_ptr<const study::KeptMap> kept_;
};

} // namespace bif::plot
