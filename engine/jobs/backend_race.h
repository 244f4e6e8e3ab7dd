// Auto's last resort where its predictions cannot tell the backends apart (work_choice.h): the two
// run the same study side by side, the first to finish with a complete result is kept, the other
// is stopped. A GPU run of a few hundred systems lasts as long as its slowest warp, whose threads
// drift apart as their trajectories do; the probe's few samples and short slices cannot show that,
// a race can (issue 33: a 64-system Duffing period map took an H100 145 ms where 16 cores took 78,
// three times what every slice-based estimate said).
//
// The race runs once: a study run in blocks (streamed, progressive) races its first block and runs
// the rest on the winner, and `on_winner` hears the winner's name (auto keeps it for the study's
// later runs in the process). The CPU side gets one thread less than the run's, for the GPU side's
// host thread.
#pragma once

#include "engine/study/backend.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace bif::jobs {

class BackendRace : public study::Backend {
  public:
    using OnWinner = std::function<void(const std::string& winner)>;
    // `predicted`: the one auto expects to win, whose answers stand for the pair where they differ.
    BackendRace(std::shared_ptr<study::Backend> predicted, std::shared_ptr<study::Backend> rival,
                OnWinner on_winner = {});

    std::string name() const override; // "cpu+cuda" before the race, the winner's name after
    study::Availability availability() const override { return {true, ""}; }
    study::Availability supports(const study::ResolvedStudy& study) const override;
    bool ready(const study::ResolvedStudy& study) const override;
    void prepare(const study::ResolvedStudy& study, study::RunControl& control) override;
    std::size_t parallel_systems(const study::ResolvedStudy& study) const override;
    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override;

    std::shared_ptr<study::Backend> winner() const; // null before the race ends

  private:
    study::Result race(const study::ResolvedStudy& study, study::RunControl& control);

    std::shared_ptr<study::Backend> predicted_, rival_;
    OnWinner on_winner_;
    mutable std::mutex mutex_;
    std::shared_ptr<study::Backend> winner_;
};

} // namespace bif::jobs
