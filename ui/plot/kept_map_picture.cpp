#include "ui/plot/kept_map_picture.h"

#include <algorithm>
#include <cmath>

namespace bif::plot {

KeptMapPicture::KeptMapPicture(std::size_t width, std::size_t height, QStringList scalars)
    : width_(width), height_(height), preview_step_(study::kept_sample_step(width, height)),
      scalars_(std::move(scalars)) {
    setStep(preview_step_);
    const std::size_t cells = sample_width_ * sample_height_;
    values_.assign(std::size_t(scalars_.size()), std::vector<float>(cells, NAN));
    statuses_.assign(cells, render::no_status_cell);
}

void KeptMapPicture::setStep(std::size_t step) {
    step_ = step;
    sample_width_ = (width_ + step - 1) / step;
    sample_height_ = (height_ + step - 1) / step;
}

std::size_t KeptMapPicture::finestStep() const {
    return study::kept_sample_step(width_, height_, finest_kept_sample);
}

bool KeptMapPicture::resample(std::size_t step, int scalar) {
    if (!kept_) return false;
    step = std::clamp(step, finestStep(), preview_step_);
    const bool holds_scalar = sampled_ == every_quantity || sampled_ == scalar;
    if (step == step_ && holds_scalar) return false;
    setStep(step);
    sampled_ = scalar;
    for (auto& values : values_)
        values = {};
    std::vector<float> values;
    const auto column = keptColumn(scalar);
    kept_->sample(column.value_or(0), step_, values, statuses_);
    if (scalar >= 0)
        values_[std::size_t(scalar)] = column ? std::move(values) : std::vector<float>(statuses_.size(), NAN);
    return true;
}

std::size_t KeptMapPicture::addBlock(const study::Result& result, const std::vector<std::size_t>& systems) {
    std::vector<const study::NumberColumn*> columns;
    for (const QString& name : scalars_)
        columns.push_back(result.scalar(name.toStdString()));
    std::size_t added = 0;
    for (std::size_t row = 0; row < systems.size() && row < result.status.size(); ++row) {
        const std::size_t i = systems[row] % width_, j = systems[row] / width_;
        if (i % step_ != 0 || j % step_ != 0 || j >= height_) continue;
        const std::size_t k = (j / step_) * sample_width_ + i / step_;
        added += statuses_[k] == render::no_status_cell;
        statuses_[k] = static_cast<std::uint8_t>(result.status[row]);
        for (std::size_t q = 0; q < columns.size(); ++q)
            values_[q][k] = columns[q] ? float(columns[q]->values[row]) : NAN;
    }
    return added;
}

void KeptMapPicture::setKept(std::shared_ptr<const study::KeptMap> kept) {
    kept_ = std::move(kept);
    if (!kept_ || kept_->width() != width_ || kept_->height() != height_) return kept_.reset();
    setStep(preview_step_);
    sampled_ = every_quantity;
    statuses_.resize(sample_width_ * sample_height_);
    for (auto& values : values_)
        values.resize(statuses_.size());
    std::vector<float> values;
    bool statuses_read = false;
    for (int q = 0; q < scalars_.size(); ++q) {
        const auto column = keptColumn(q);
        if (!column) {
            std::fill(values_[q].begin(), values_[q].end(), NAN);
            continue;
        }
        kept_->sample(*column, step_, values, statuses_);
        values_[q] = values;
        statuses_read = true;
    }
    if (!statuses_read) kept_->sample(0, step_, values, statuses_);
}

std::optional<std::size_t> KeptMapPicture::keptColumn(int scalar) const {
    if (!kept_) return std::nullopt;
    if (scalar < 0) return std::size_t{0};
    const auto& names = kept_->columns();
    for (std::size_t c = 0; c < names.size(); ++c)
        if (QString::fromStdString(names[c]) == scalars_.value(scalar)) return c;
    return std::nullopt;
}

double KeptMapPicture::valueOf(std::size_t k, int scalar) const {
    if (scalar < 0) return double(statuses_[k]);
    const auto& values = values_[std::size_t(scalar)];
    return k < values.size() ? values[k] : NAN;
}

MapColouring KeptMapPicture::colouring(int scalar) const {
    MapColouring colours(scalar < 0 ? QStringLiteral("status") : scalars_.value(scalar), scalar < 0);
    if (const auto column = keptColumn(scalar))
        colours.include(kept_->summary(*column));
    else
        for (std::size_t k = 0; k < statuses_.size(); ++k)
            if (statuses_[k] != render::no_status_cell)
                colours.include(valueOf(k, scalar), static_cast<study::SystemStatus>(statuses_[k]));
    colours.settle();
    return colours;
}

void KeptMapPicture::paint(QImage& image, const MapColouring& colours, int scalar) const {
    image = QImage(sampleSize(), QImage::Format_ARGB32_Premultiplied);
    for (std::size_t j = 0; j < sample_height_; ++j) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(int(sample_height_ - 1 - j)));
        for (std::size_t i = 0; i < sample_width_; ++i) {
            const std::size_t k = j * sample_width_ + i;
            line[i] =
                statuses_[k] == render::no_status_cell
                    ? 0u
                    : colours.colour(valueOf(k, scalar), static_cast<study::SystemStatus>(statuses_[k]));
        }
    }
}

void KeptMapPicture::sampleCells(int scalar, std::vector<float>& values,
                                 std::vector<std::uint8_t>& statuses) const {
    values.resize(statuses_.size());
    for (std::size_t k = 0; k < statuses_.size(); ++k)
        values[k] = float(valueOf(k, scalar));
    statuses = statuses_;
}

std::optional<std::pair<double, study::SystemStatus>> KeptMapPicture::cell(std::size_t i, std::size_t j,
                                                                           int scalar) const {
    if (i >= width_ || j >= height_) return std::nullopt;
    if (const auto column = keptColumn(scalar)) {
        const auto [value, status] = kept_->cell(*column, j * width_ + i);
        if (status == study::SystemStatus::NotRun) return std::nullopt;
        return std::pair{scalar < 0 ? double(status) : double(value), status};
    }
    const std::size_t k = (j / step_) * sample_width_ + i / step_;
    if (statuses_[k] == render::no_status_cell) return std::nullopt;
    return std::pair{valueOf(k, scalar), static_cast<study::SystemStatus>(statuses_[k])};
}

} // namespace bif::plot
