#include "engine/jobs/deferred_compile.h"

namespace bif::jobs {

void run_on_cpu_while_compiling(const BackendRegistry& registry, study::BackendChoice choice,
                                const study::ResolvedStudy& study, BackendSelection& selection) {
    if (choice != study::BackendChoice::Auto || !selection.backend || selection.backend->name() == "cpu")
        return;
    const std::shared_ptr<study::Backend> cpu = registry.find("cpu");
    if (!cpu || !cpu->availability().available || !cpu->supports(study).available) return;
    // asked last: it starts the compile, which only pays when the CPU takes this run
    std::string note = selection.backend->compile_in_background(study);
    if (note.empty()) return;
    selection.notes.push_back(std::move(note));
    selection.backend = cpu;
}

} // namespace bif::jobs
