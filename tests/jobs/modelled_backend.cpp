#include "modelled_backend.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace bif::test {

double system_work(const study::ResolvedStudy& study) {
    const auto& b = study.study.bifurcation;
    return section_work * double(b.transient_sections + b.recorded_sections);
}

void ModelledBackend::prepare(const study::ResolvedStudy& study, study::RunControl&) {
    if (ready(study)) return;
    clock_.now += speed_.compile_seconds;
    compiled.insert(study.study.model.text);
}

double ModelledBackend::seconds(std::size_t systems, double work, double heaviest, double factor) const {
    return speed_.fixed_seconds + double(systems) * speed_.host +
           factor *
               std::max(std::max(work, heaviest) * speed_.single, work * double(systems) * speed_.per_system);
}

study::Result ModelledBackend::run(const study::ResolvedStudy& study, study::RunControl& control) {
    ++runs;
    if (!supported) throw study::BackendError("not this study");
    if (blocks) {
        while (!control.cancelled())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        study::Result r = study::allocate_result(study);
        r.info.backend = name_;
        r.info.complete = false;
        return r;
    }
    prepare(study, control);
    const std::size_t n = study.system_count();
    double total = 0, heaviest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double w = weight && !study.study.sweep.empty() ? weight(study.grid.value(i, 0)) : 1.0;
        total += w;
        heaviest = std::max(heaviest, w);
    }
    const double base = system_work(study);
    const auto factor = model_factors.find(study.study.model.text);
    clock_.now += seconds(n, n == 0 ? base : base * total / double(n), base * heaviest,
                          factor == model_factors.end() ? 1.0 : factor->second);
    study::Result r = study::allocate_result(study);
    r.info.backend = name_;
    r.info.device = "modelled " + name_;
    r.info.complete = true;
    return r;
}

std::shared_ptr<ModelledBackend> modelled_probe(VirtualClock& clock) {
    jobs::BackendSpeed evaluator;
    evaluator.fixed_seconds = 0.002;
    evaluator.single = evaluator.per_system = 1.0;
    return std::make_shared<ModelledBackend>("cpu", clock, evaluator);
}

} // namespace bif::test
