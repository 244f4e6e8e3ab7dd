// A job's run of a map whose result stays on a device (JobOptions::keep, engine/study/kept_map.h), or
// of a diagram whose points do (kept_points.h): a preview of the sample lattice (kept_sample_systems;
// a diagram is a map one row high) as an ordinary host block first, so that a view has a coarse
// picture while the whole study runs, then the backend's kept run.
#pragma once

#include "engine/jobs/pass_runner.h"
#include "engine/study/backend.h"

namespace bif::jobs {

// The kept result (a map: system_count, info, kept; a diagram: axes, statuses, scalars, kept_points). With
// `preview`, the sample lattice (when it is coarser than the map) runs first and goes to on_block as a
// provisional block of stride kept_sample_step. Throws study::NotKept, after that preview, when the backend
// cannot keep the study; otherwise what the backend throws. A cancel during the preview returns an empty
// incomplete result.
study::Result run_kept_map(const study::ResolvedStudy& study, const study::KeepRequest& keep,
                           study::Backend& backend, study::RunControl& control, const BlockSink& on_block,
                           bool preview);

} // namespace bif::jobs
