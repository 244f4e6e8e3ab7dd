#include "engine/jobs/backend_registry.h"

#include "engine/jobs/backend_race.h"
#include "engine/jobs/work_choice.h"

#include <algorithm>
#include <thread>

namespace bif::jobs {

void BackendRegistry::add(std::shared_ptr<study::Backend> backend) {
    backends_.push_back(std::move(backend));
}

std::shared_ptr<study::Backend> BackendRegistry::find(const std::string& name) const {
    for (const auto& b : backends_)
        if (b->name() == name) return b;
    return nullptr;
}

namespace {

// The backend's reason it cannot run, or an empty string when it can.
std::string why_not(const study::Backend& backend, const study::ResolvedStudy& study) {
    study::Availability a = backend.availability();
    if (!a.available) return a.reason.empty() ? "not available" : a.reason;
    a = backend.supports(study);
    if (!a.available) return a.reason.empty() ? "does not support this study" : a.reason;
    return {};
}

std::string systems_text(std::size_t count) {
    return std::to_string(count) + (count == 1 ? " system" : " systems");
}

// What runs side by side: the systems, or a continuation's chains (each runs system after system).
std::size_t parallel_work(const study::ResolvedStudy& study) {
    return study.is_continuation() ? study.chain_count() : study.system_count();
}

std::string work_text(const study::ResolvedStudy& study) {
    if (!study.is_continuation()) return systems_text(study.system_count());
    const std::size_t chains = study.chain_count();
    return std::to_string(chains) + (chains == 1 ? " continuation chain" : " continuation chains");
}

} // namespace

void BackendRegistry::set_work_estimate(std::shared_ptr<study::Backend> probe,
                                        std::shared_ptr<SpeedCalibration> calibration, SecondsClock clock) {
    probe_ = std::move(probe);
    calibration_ = std::move(calibration);
    clock_ = std::move(clock);
    works_ = std::make_shared<WorkMemo>();
}

BackendSelection BackendRegistry::select(study::BackendChoice choice, const study::ResolvedStudy& study,
                                         study::RunControl* control) const {
    BackendSelection selection;
    if (choice == study::BackendChoice::Cpu) return select_cpu(std::move(selection), study);
    const auto cuda = find("cuda");
    const std::size_t systems = parallel_work(study);
    const auto cpu = find("cpu");
    const bool cpu_runs = cpu && why_not(*cpu, study).empty();
    std::string count_reason; // why auto decides by the count of systems
    if (choice == study::BackendChoice::Auto && cuda && cpu_runs && probe_ && calibration_) {
        // A GPU thread is slower than a core: a study with no more systems than threads never
        // gains from a GPU, and does not even ask the driver (slow the first time).
        const unsigned threads =
            control ? control->threads() : std::max(1u, std::thread::hardware_concurrency());
        if (systems <= threads) {
            selection.notes.push_back("auto: " + work_text(study) + ", no more than the CPU's " +
                                      std::to_string(threads) + " threads; running on the CPU");
            selection.backend = cpu;
            return selection;
        }
        if (why_not(*cuda, study).empty()) {
            const WorkChoiceSetup setup{cpu.get(), cuda.get(), probe_.get(), calibration_.get(),
                                        clock_,    control,    works_.get(), race_};
            if (auto by_work = choose_by_work(study, systems, work_text(study), setup, count_reason)) {
                selection.backend = by_work->gpu ? cuda : cpu;
                if (by_work->race) {
                    // the winner is kept for the study's next runs in this process
                    BackendRace::OnWinner keep = [works = works_, key = by_work->memo_key,
                                                  known = by_work->known](const std::string& winner) {
                        KnownWork w = known;
                        w.winner = winner;
                        works->keep(key, w);
                    };
                    selection.backend = std::make_shared<BackendRace>(
                        by_work->gpu ? cuda : cpu, by_work->gpu ? cpu : cuda, std::move(keep));
                }
                selection.notes.push_back(std::move(by_work->note));
                return selection;
            }
            count_reason = "auto: " + count_reason + "; deciding by the count: ";
        }
    }
    // Asking a driver whether it can run is slow the first time: a small study does not ask.
    if (choice == study::BackendChoice::Auto && cuda && systems < min_gpu_systems_ && cpu_runs) {
        selection.notes.push_back((count_reason.empty() ? "auto: " : count_reason) + work_text(study) +
                                  "; the CPU is faster for so few");
        selection.backend = cpu;
        return selection;
    }
    const std::string reason = cuda ? why_not(*cuda, study) : "this build has no CUDA backend";
    if (reason.empty()) {
        if (choice == study::BackendChoice::Auto)
            selection.notes.push_back((count_reason.empty() ? "auto: " : count_reason) + work_text(study) +
                                      " fill the GPU; running on cuda");
        selection.backend = cuda;
        return selection;
    }
    // Whoever names the GPU explicitly is timing it or needs its precision: running on the CPU
    // instead would answer a different question.
    if (choice == study::BackendChoice::Cuda) {
        selection.failure = "cuda: " + reason;
        return selection;
    }
    if (cuda) selection.notes.push_back("cuda: " + reason + "; running on the CPU");
    return select_cpu(std::move(selection), study);
}

BackendSelection BackendRegistry::select_cpu(BackendSelection selection,
                                             const study::ResolvedStudy& study) const {
    auto cpu = find("cpu");
    if (!cpu) {
        selection.failure = "this build has no CPU backend";
        return selection;
    }
    if (const std::string reason = why_not(*cpu, study); !reason.empty()) {
        selection.failure = "cpu: " + reason;
        return selection;
    }
    selection.backend = cpu;
    return selection;
}

} // namespace bif::jobs
