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
    samples = std::max<std::size_t>(samples, 1);
    study::RunControl control(cancel, {}, unsigned(samples));
    const auto timed = [&](double wanted, double& actual) {
        study::ResolvedStudy slice = shortened_study(study, wanted, samples, &actual);
        // the code of the whole run (a GPU sizes its registers by the systems), not of a sample
        slice.run_system_count = study.run_system_count > 0 ? study.run_system_count : study.system_count();
        // measuring must never compile: a slice whose code differs from the study's is not timed
        if (!backend.ready(slice)) throw NotReady{};
        const double before = clock();
        const study::Result r = backend.run(slice, control);
        if (!r.info.complete) throw Cancelled{};
        return clock() - before;
    };
    try {
        const double smallest = smallest_fraction(study.study);
        double fraction = std::clamp(target_seconds / predicted, smallest, 1.0);
        // two slices of different lengths where that costs little: a slope needs them
        if (fraction < 2 * smallest && 2 * smallest <= 0.25) fraction = 2 * smallest;
        // the shorter first: it also pays what a first run in a process pays (a GPU context, a
        // module load), which the slope leaves out
        double short_fraction = 0, long_fraction = 0;
        const double short_seconds = timed(std::max(smallest, fraction / 4), short_fraction);
        const double long_seconds = timed(fraction, long_fraction);
        // one slice twice (a study of few sections): the second run, warm, less its fixed cost
        const double per_fraction = long_fraction > short_fraction && long_seconds > short_seconds
                                        ? (long_seconds - short_seconds) / (long_fraction - short_fraction)
                                        : std::max(long_seconds - speed.fixed_seconds, 0.0) / long_fraction;
        m.factor = std::clamp(per_fraction / predicted, 1 / factor_limit, factor_limit);
    } catch (const Cancelled&) {
        m.failure = "cancelled";
    } catch (const NotReady&) {
        m.failure = "its code for a slice is not compiled";
    } catch (const std::exception& e) {
        m.failure = e.what();
    }
    m.seconds = clock() - start;
    return m;
}

} // namespace bif::jobs
