// The host side of issue 36's warm 2^23-system Robertson run, without a GPU: allocate_result of the
// study (3 states, one recorded section of 3 values per system) against the former allocation that
// filled every column on the calling thread one after another, alternately (this machine may be
// shared and loaded), then ResultAssembly::store of a finished whole-study batch. Wall and process
// CPU seconds, the median of the rounds.
//
//   bench_stiff_host [systems (8388608)] [rounds (5)]
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"
#include "engine/study/system_columns.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace bif;

std::shared_ptr<const study::ResolvedStudy> robertson(std::size_t n) {
    std::ostringstream json;
    json << R"({"bifscope_study": 1, "model": {"path": "../models/robertson.ode"},
      "parameters": {"k1": 0.04, "k2": 3e7}, "initial": {"y1": 1, "y2": 0, "y3": 0},
      "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": )"
         << n << R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
      "solver": {"method": "rosenbrock23", "rtol": 1e-3, "atol": 1e-6, "initial_step": 1e-3},
      "precision": "float"})";
    auto read = study::read_study_json(json.str());
    if (!read.study || study::has_errors(read.problems)) throw std::runtime_error("bad benchmark study");
    auto r = study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies");
    if (!r.resolved) throw std::runtime_error("benchmark study does not resolve");
    return r.resolved;
}

// allocate_result as it was before issue 36: every column on the calling thread, in turn.
study::Result former_allocation(const study::ResolvedStudy& s) {
    study::Result r;
    r.analysis = s.study.analysis;
    r.system_count = s.system_count();
    r.status.assign(r.system_count, study::SystemStatus::NotRun);
    study::NumberColumn axis{s.axes[0].name, std::vector<double>(r.system_count)};
    study::fill_axis_values(s, 0, 0, r.system_count, axis.values.data());
    r.axes.push_back(std::move(axis));
    r.points.columns = {"y1", "y2", "y3"};
    r.points.rows_per_system = 1;
    r.points.rows_filled.assign(r.system_count, 0);
    r.points.values.assign(r.system_count * 3, study::missing_value);
    return r;
}

struct Seconds {
    double wall = 0, cpu = 0;
};

Seconds timed(const std::function<void()>& body) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu = std::clock();
    body();
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            double(std::clock() - cpu) / CLOCKS_PER_SEC};
}

Seconds median(std::vector<Seconds> v) {
    std::sort(v.begin(), v.end(), [](const Seconds& a, const Seconds& b) { return a.wall < b.wall; });
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t(1) << 23;
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const auto study = robertson(n);
    std::vector<Seconds> former, now, store;
    for (int round = 0; round < rounds; ++round) {
        study::Result a, b;
        former.push_back(timed([&] { a = former_allocation(*study); }));
        now.push_back(timed([&] { b = study::allocate_result(*study); }));
        if (a.points.values.size() != b.points.values.size() || a.axes[0].values != b.axes[0].values)
            throw std::runtime_error("the two allocations differ");
    }
    const ensemble::SpecStorage spec(*study);
    ensemble::BatchArrays batch = ensemble::make_batch(*study, spec, 0, 0, n, false);
    std::fill(batch.status.begin(), batch.status.end(), ensemble::outcome_ok);
    std::fill(batch.rows_filled.begin(), batch.rows_filled.end(), 1);
    for (std::size_t i = 0; i < batch.points.size(); ++i)
        batch.points[i] = double(i);
    for (int round = 0; round < rounds; ++round) {
        study::Result r = study::allocate_result(*study);
        store.push_back(timed([&] {
            ensemble::ResultAssembly assembly(*study, r);
            assembly.store(batch);
        }));
    }
    const Seconds f = median(former), a = median(now), s = median(store);
    std::printf("%zu systems, median of %d rounds (wall s / process CPU s)\n", n, rounds);
    std::printf("  former allocation (one thread)  %.3f / %.3f\n", f.wall, f.cpu);
    std::printf("  allocate_result                 %.3f / %.3f\n", a.wall, a.cpu);
    std::printf("  store of the whole batch        %.3f / %.3f\n", s.wall, s.cpu);
    return 0;
}
