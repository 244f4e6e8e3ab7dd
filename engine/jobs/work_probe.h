// How much work one system of a study is, measured before it runs: a few of its systems, spread
// over the sweep, integrated for a short slice of the study's length on the probe backend (the
// compiler-free evaluator, one thread: it starts at once and its speed per step is what the
// machine's calibration relates every backend to), each sample in a run of its own so that the
// heaviest is known apart from the mean: a run cannot end before its slowest system does. The slice grows
// fourfold until it takes long enough to time; the work is extrapolated from the last two slices, so that
// what a run costs whatever its length (building the evaluator, the first steps from the initial step size)
// drops out. Each next slice is as much longer as should make it last min_seconds (three to four times the
// one before): a slice that grew fourfold past min_seconds cost up to five times the budget.
//
// A study run again (the same study file, model text and sample points) is not probed again:
// WorkMemo keeps the works measured in this process.
#pragma once

#include "engine/study/backend.h"

#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>

namespace bif::jobs {

// Seconds from some fixed start (tests pass a clock that their fake backends advance).
using SecondsClock = std::function<double()>;
SecondsClock steady_seconds();

// A copy of `study` holding `samples` of its systems spread over the sweep (a continuation's
// chains cut into plain systems) that integrates about `fraction` of its length (sections, times);
// `*actual` gets the fraction it does integrate (whole sections round it).
study::ResolvedStudy shortened_study(const study::ResolvedStudy& study, double fraction, std::size_t samples,
                                     double* actual);

// The smallest slice shortened_study can cut: one section, a thousandth of a long time span.
double smallest_fraction(const study::Study& study);

struct WorkMeasure {
    double work = 0;          // evaluator-seconds per system (a continuation: per chain), the samples' mean
    double heaviest = 0;      // the heaviest sample's evaluator-seconds
    double probe_seconds = 0; // what measuring took
    std::string failure;      // set when the probe backend could not run the study
};

struct ProbeOptions {
    // five, not three: a sweep's ends are often its easy systems (relief_valve_impacts: its two ends
    // and middle gave half the mean work and half the heaviest of 40 systems)
    std::size_t samples = 5;
    double min_seconds = 0.02; // the last slice takes at least this long, unless it is the whole study
    // Called after each slice with the work extrapolated from it and the slice before, what the probe
    // took so far and what its last slice took: true ends the probe there (the choice it serves
    // cannot change, or it cost enough against the run it serves). May be empty.
    std::function<bool(double work, double probe_seconds, double slice_seconds)> decided;
};

// Runs on `probe` with one thread; stops early on `cancel` (failure "cancelled").
WorkMeasure measure_work(const study::ResolvedStudy& study, study::Backend& probe,
                         const std::atomic<bool>& cancel, const SecondsClock& clock,
                         const ProbeOptions& options = {});

// What a study's work depends on, as text: the study as its file would write it, the base folder,
// the generated model (a model file changed on disk changes it) and the grid points the probe
// samples. Equal texts, equal work.
// `source`: the study's generated source (study_source), computed once by the caller.
std::string work_key(const study::ResolvedStudy& study, const std::string& source,
                     std::size_t samples = ProbeOptions{}.samples);
// The study's generated source in double precision (what its code and its work follow); a failure
// to generate gives the error's text, which is as good a key.
std::string study_source(const study::ResolvedStudy& study);

// A study's work as measured: the samples' mean and the heaviest (WorkMeasure's).
struct KnownWork {
    double work = 0, heaviest = 0;
    std::string winner; // the backend that won auto's race on the study (backend_race.h); empty: none ran
    bool factors_measured = false; // the model's factors were measured on this very study
};

// The works measured in this process, by work_key (the most recent `limit`); thread-safe.
class WorkMemo {
  public:
    explicit WorkMemo(std::size_t limit = 64) : limit_(limit) {}
    std::optional<KnownWork> find(const std::string& key) const;
    void keep(const std::string& key, KnownWork work);

  private:
    std::size_t limit_;
    mutable std::mutex mutex_;
    mutable std::list<std::pair<std::string, KnownWork>> works_; // most recent first
};

} // namespace bif::jobs
