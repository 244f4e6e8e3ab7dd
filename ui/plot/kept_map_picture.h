// What a map figure holds of a map whose cells stay on a device (engine/study/kept_map.h): on the
// host, only the cells of the map's sample lattice (kept_sample_systems: at most 512 along either
// axis), first from the job's preview block, then read from the kept map; they make the figure's
// image, which QPainter exports and views without the CUDA path draw. Once the map is kept, a view
// or export with more pixels than that asks for a finer sample of the quantity it shows (resample):
// as fine as its pixels, down to every cell, within finest_kept_sample cells along either axis. The kept map
// itself gives the colours (its summary, over every cell), the cell under the cursor, and the cells at full
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

// The most cells along either axis of a resampled kept map (16.7 M cells, 84 MB with their statuses).
inline constexpr std::size_t finest_kept_sample = 4096;

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

    // The lattice of every `step`-th cell of quantity `scalar` (-1: the status view), read from the kept
    // map when it is not what the picture holds already; the other quantities are read again when
    // shown. Returns whether the lattice changed. Nothing before the map is kept.
    bool resample(std::size_t step, int scalar);
    // The step of the preview lattice (kept_sample_step), the coarsest the picture holds.
    std::size_t previewStep() const { return preview_step_; }
    // The finest step for views of this map: every cell, within finest_kept_sample along either axis.
    std::size_t finestStep() const;

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

    void setStep(std::size_t step);

    std::size_t width_, height_, preview_step_, step_, sample_width_, sample_height_;
    QStringList scalars_;
    // Per scalar quantity, per lattice cell; a resampled lattice holds the quantity shown alone
    // (the others empty: NaN until shown).
    std::vector<std::vector<float>> values_;
    static constexpr int every_quantity = -2;
    int sampled_ = every_quantity;       // the quantity a resampled lattice holds
    std::vector<std::uint8_t> statuses_; // per lattice cell
    std::shared_ptr<const study::KeptMap> kept_;
};

} // namespace bif::plot
