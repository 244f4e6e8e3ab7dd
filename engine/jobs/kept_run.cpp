#include "engine/jobs/kept_run.h"

namespace bif::jobs {

namespace {

// The lattice's systems as a study of their own, run on the backend as any block is.
std::shared_ptr<const ResultBlock> run_preview(const study::ResolvedStudy& study, study::Backend& backend,
                                               study::RunControl& control, std::size_t step) {
    const study::MapShape shape = study::map_shape(study);
    auto block = std::make_shared<ResultBlock>();
    block->systems = study::kept_sample_systems(shape.width, shape.height, step);
    study::ResolvedStudy part = study;
    part.grid = study.grid.subset(block->systems);
    part.run_system_count = study.system_count();
    const std::size_t total = study.system_count();
    study::RunControl preview_control(
        control.cancel_flag(),
        [&control, total](const study::Progress& p) {
            control.report_progress(0, total, "preview: " + p.phase);
        },
        control.threads(), control.memory_budget_bytes(), std::chrono::milliseconds(0));
    block->result = std::make_shared<const study::Result>(backend.run(part, preview_control));
    block->pass = 0;
    block->pass_count = 2;
    block->stride = static_cast<int>(std::min<std::size_t>(step, 65535));
    block->provisional = true;
    return block;
}

} // namespace

study::Result run_kept_map(const study::ResolvedStudy& study, const study::KeepRequest& keep,
                           study::Backend& backend, study::RunControl& control, const BlockSink& on_block,
                           bool preview) {
    const study::MapShape shape = study::map_shape(study);
    const std::size_t step = study::kept_sample_step(shape.width, shape.height);
    if (preview && step > 1 && on_block && !study.is_continuation()) {
        std::shared_ptr<const ResultBlock> block = run_preview(study, backend, control, step);
        if (control.cancelled()) {
            study::Result none;
            none.analysis = study.study.analysis;
            none.system_count = study.system_count();
            return none;
        }
        on_block(std::move(block));
    }
    return backend.run_kept(study, keep, control);
}

} // namespace bif::jobs
