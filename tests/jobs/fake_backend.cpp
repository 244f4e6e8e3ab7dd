#include "fake_backend.h"

#include <catch2/catch.hpp>
#include <thread>

namespace bif::test {

void FakeBackend::prepare(const study::ResolvedStudy&, study::RunControl& control) {
    for (auto left = compile_time; left.count() > 0 && !compiled; left -= std::chrono::milliseconds(1)) {
        if (control.cancelled()) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    compiled = true;
}

study::Result FakeBackend::run(const study::ResolvedStudy& s, study::RunControl& control) {
    ++runs;
    const std::size_t run_size = s.run_system_count > 0 ? s.run_system_count : s.system_count();
    for (std::size_t seen = smallest_run_size.load();
         run_size < seen && !smallest_run_size.compare_exchange_weak(seen, run_size);) {
    }
    for (std::size_t seen = largest_run_size.load();
         run_size > seen && !largest_run_size.compare_exchange_weak(seen, run_size);) {
    }
    if (throw_on_run) throw study::BackendError("the fake toolchain broke");
    study::Result r = study::allocate_result(s);
    prepare(s, control);
    if (!compiled) return r;
    r.info.backend = name_;
    control.report_progress(0, r.system_count, "integrating");
    for (std::size_t i = 0; i < r.system_count; ++i) {
        // Sleep in slices of at most 1 ms, checking the flag between them.
        for (auto left = per_system_; left.count() > 0; left -= std::chrono::milliseconds(1)) {
            if (control.cancelled()) {
                r.info.complete = false;
                return r;
            }
            std::this_thread::sleep_for(
                std::min<std::chrono::microseconds>(left, std::chrono::milliseconds(1)));
        }
        const double k = r.axes[0].values[i];
        for (std::size_t row = 0; row < r.points.rows_per_system; ++row)
            r.points.row(i, row)[0] = k * k + row + offset;
        r.points.rows_filled[i] = static_cast<std::uint32_t>(r.points.rows_per_system);
        r.status[i] = study::SystemStatus::Ok;
        control.report_progress(i + 1, r.system_count, "integrating");
    }
    r.info.complete = true;
    return r;
}

std::shared_ptr<const study::ResolvedStudy> fake_study(int count) {
    study::Study s;
    s.model.text = "y1'=y2\ny2'=y1-y1^3-k*y2+b*cos(t)\npar k=0.25,b=0.3\ndone\n";
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.0, 1.0, count, study::SweepScale::Linear}};
    s.bifurcation.section.period = "2*pi";
    s.bifurcation.recorded_sections = 2;
    s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection}};
    study::ResolveResult r = study::resolve_study(s, "");
    REQUIRE(r.resolved);
    return r.resolved;
}

} // namespace bif::test
