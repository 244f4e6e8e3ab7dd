#include "engine/jobs/model_speed.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace bif::jobs {

namespace {

// FNV-1a: the key names a cache entry, it guards nothing.
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// A measured factor beyond this is a timing accident, not a model.
constexpr double factor_limit = 256;

struct Cancelled {};
struct NotReady {};

} // namespace

std::string model_speed_key(const study::ResolvedStudy& study, const std::string& source) {
    std::string text = source;
    text += "\nmethod ";
    text += study::name_of(study.study.solver.method);
    text += "\nprecision ";
    text += study::name_of(study.study.precision);
    text += "\nanalysis " + std::to_string(int(study.study.analysis));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return hex;
}

BackendSpeed scaled_speed(BackendSpeed speed, double factor) {
    if (std::isfinite(factor) && factor > 0) {
        speed.single *= factor;
        speed.per_system *= factor;
    }
    return speed;
}

namespace {

// Runs slices of a study on a backend, two at a time: the longer's time and the slope between them.
class SliceTimer {
  public:
    SliceTimer(const study::ResolvedStudy& study, study::Backend& backend, std::size_t samples,
               const std::atomic<bool>& cancel, const SecondsClock& clock)
        : study_(study), backend_(backend), samples_(samples), clock_(clock),
          control_(cancel, {}, unsigned(samples)) {}

    struct Pair {
        double long_seconds = 0, long_fraction = 0;
        double per_fraction = 0; // the slope; 0 where the two slices were one
    };
    // `fraction` and a quarter of it, the shorter first (it pays what a first run in a process
    // pays: a GPU context, a module load); throws Cancelled or NotReady.
    Pair time(double fraction) {
        const double smallest = smallest_fraction(study_.study);
        fraction = std::clamp(fraction, smallest, 1.0);
        // two slices of different lengths where that costs little: a slope needs them
        if (fraction < 2 * smallest && 2 * smallest <= 0.25) fraction = 2 * smallest;
        double short_fraction = 0;
        Pair p;
        const double short_seconds = run(std::max(smallest, fraction / 4), short_fraction);
        p.long_seconds = run(fraction, p.long_fraction);
        if (p.long_fraction > short_fraction && p.long_seconds > short_seconds)
            p.per_fraction = (p.long_seconds - short_seconds) / (p.long_fraction - short_fraction);
        return p;
    }

  private:
    double run(double wanted, double& actual) {
        study::ResolvedStudy slice = shortened_study(study_, wanted, samples_, &actual);
        // the code of the whole run (a GPU sizes its registers by the systems), not of a sample
        slice.run_system_count =
            study_.run_system_count > 0 ? study_.run_system_count : study_.system_count();
        // measuring must never compile: a slice whose code differs from the study's is not timed
        if (!backend_.ready(slice)) throw NotReady{};
        const double before = clock_();
        const study::Result r = backend_.run(slice, control_);
        if (!r.info.complete) throw Cancelled{};
        return clock_() - before;
    }

    const study::ResolvedStudy& study_;
    study::Backend& backend_;
    std::size_t samples_;
    const SecondsClock& clock_;
    study::RunControl control_;
};

// Runs `measure`, turning its throws into a failure.
template <class Measure>
std::string failure_of(Measure&& measure) {
    try {
        measure();
    } catch (const Cancelled&) {
        return "cancelled";
    } catch (const NotReady&) {
        return "its code for a slice is not compiled";
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

} // namespace

FactorMeasure measure_model_factor(const study::ResolvedStudy& study, study::Backend& backend,
                                   const BackendSpeed& speed, double heaviest, double target_seconds,
                                   const std::atomic<bool>& cancel, const SecondsClock& clock,
                                   std::size_t samples) {
    FactorMeasure m;
    const double start = clock();
    // what the reference speed predicts for the heaviest sample, per fraction of the study
    const double predicted = speed.single * heaviest;
    if (!(predicted > 0) || !std::isfinite(predicted)) {
        m.failure = "no work to compare with";
        return m;
    }
    SliceTimer timer(study, backend, std::max<std::size_t>(samples, 1), cancel, clock);
    m.failure = failure_of([&] {
        const SliceTimer::Pair p = timer.time(target_seconds / predicted);
        // one slice twice (a study of few sections): the second run, warm, less its fixed cost
        const double per_fraction =
            p.per_fraction > 0 ? p.per_fraction
                               : std::max(p.long_seconds - speed.fixed_seconds, 0.0) / p.long_fraction;
        m.factor = std::clamp(per_fraction / predicted, 1 / factor_limit, factor_limit);
    });
    m.seconds = clock() - start;
    return m;
}

} // namespace bif::jobs
