#include "engine/study/kept_map.h"

#include "engine/study/resolved_study.h"

#include <algorithm>

namespace bif::study {

MapShape map_shape(const ResolvedStudy& study) {
    MapShape shape;
    shape.width = study.grid.axis_count() > 0 ? std::max<std::size_t>(1, study.grid.values(0).size()) : 1;
    shape.height = study.system_count() / shape.width;
    return shape;
}

std::size_t kept_sample_step(std::size_t width, std::size_t height, std::size_t most) {
    const std::size_t longest = std::max(width, height);
    most = std::max<std::size_t>(most, 1);
    return std::max<std::size_t>(1, (longest + most - 1) / most);
}

std::vector<std::size_t> kept_sample_systems(std::size_t width, std::size_t height, std::size_t step) {
    std::vector<std::size_t> systems;
    step = std::max<std::size_t>(step, 1);
    systems.reserve(((width + step - 1) / step) * ((height + step - 1) / step));
    for (std::size_t j = 0; j < height; j += step)
        for (std::size_t i = 0; i < width; i += step)
            systems.push_back(j * width + i);
    return systems;
}

Result download_kept(const ResolvedStudy& study, const KeptMap& kept) {
    if (study.system_count() != kept.count())
        throw std::invalid_argument("a study of " + std::to_string(study.system_count()) +
                                    " systems for a kept map of " + std::to_string(kept.count()) + " cells");
    Result r = allocate_result(study);
    std::vector<float> values;
    std::vector<std::uint8_t> statuses;
    // a map kept without a column still holds every status
    const std::size_t columns = std::max<std::size_t>(1, kept.columns().size());
    for (std::size_t c = 0; c < columns; ++c) {
        kept.download(c, values, statuses);
        if (c == 0)
            for (std::size_t s = 0; s < r.system_count; ++s)
                r.status[s] = statuses[s] == render::no_status_cell ? SystemStatus::NotRun
                                                                    : static_cast<SystemStatus>(statuses[s]);
        if (c >= kept.columns().size()) break;
        for (auto& column : r.scalars)
            if (column.name == kept.columns()[c])
                std::copy(values.begin(), values.end(), column.values.begin());
    }
    return r;
}

} // namespace bif::study
