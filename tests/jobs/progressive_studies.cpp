#include "progressive_studies.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <numeric>

namespace bif::test {

namespace {

const char* duffing_text = "y1'=y2\ny2'=delta*y1-y1^3-k*y2+b*cos(omega*t)\npar k=0.25,b=0.3\n"
                           "par delta=1,omega=1\ninit y1=0.1,y2=0\ndone\n";

study::Study duffing_base() {
    study::Study s;
    s.model.text = duffing_text;
    s.solver.method = study::Method::Rkck45;
    s.solver.rtol.all = 1e-8;
    s.solver.atol.all = 1e-8;
    s.precision = study::PrecisionChoice::Double;
    return s;
}

std::shared_ptr<const study::ResolvedStudy> resolve(const study::Study& s) {
    study::ResolveResult r = study::resolve_study(s, "");
    std::string problems;
    for (const auto& p : r.problems)
        problems += p.path + ": " + p.message + "\n";
    INFO(problems);
    REQUIRE(r.resolved);
    return r.resolved;
}

} // namespace

std::shared_ptr<const study::ResolvedStudy> duffing_map(int count_k, int count_b, int transient_sections) {
    study::Study s = duffing_base();
    s.analysis = study::AnalysisKind::ParameterMap;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.1, 0.4, count_k, study::SweepScale::Linear},
               {study::SweepTarget::Parameter, "b", 0.1, 0.5, count_b, study::SweepScale::Linear}};
    s.map.section.period = "2*pi/omega";
    s.map.transient_sections = transient_sections;
    s.map.recorded_sections = 16;
    s.map.largest_exponent = true;
    s.map.accessories = {{"max y1", "y1", study::Reduction::Max, study::ReductionDomain::Steps}};
    return resolve(s);
}

std::shared_ptr<const study::ResolvedStudy> duffing_bifurcation(int count, bool continuation) {
    study::Study s = duffing_base();
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.2, 0.3, count, study::SweepScale::Linear}};
    s.bifurcation.section.period = "2*pi/omega";
    s.bifurcation.transient_sections = 32;
    s.bifurcation.recorded_sections = 16;
    s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection},
                            {"y2", "", study::IntervalValue::AtSection}};
    s.bifurcation.continuation = continuation;
    return resolve(s);
}

std::shared_ptr<const study::ResolvedStudy> duffing_lyapunov(int count) {
    study::Study s = duffing_base();
    s.analysis = study::AnalysisKind::Lyapunov;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.2, 0.3, count, study::SweepScale::Linear}};
    s.lyapunov.transient_time = 100;
    s.lyapunov.averaging_time = 200;
    s.lyapunov.renormalization_interval = 2;
    return resolve(s);
}

std::shared_ptr<const study::ResolvedStudy> duffing_basins(int count) {
    study::Study s = duffing_base();
    s.analysis = study::AnalysisKind::Basins;
    s.parameters = {{"b", 0.1}};
    s.sweep = {{study::SweepTarget::InitialValue, "y1", -2, 2, count, study::SweepScale::Linear},
               {study::SweepTarget::InitialValue, "y2", -1.5, 1.5, count, study::SweepScale::Linear}};
    s.basins.section.period = "2*pi/omega";
    s.basins.transient_sections = 32;
    s.basins.recorded_sections = 8;
    return resolve(s);
}

bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool rows_equal(const study::Result& part, const std::vector<std::size_t>& systems,
                const study::Result& whole) {
    REQUIRE(part.system_count == systems.size());
    REQUIRE(part.points.width() == whole.points.width());
    REQUIRE(part.points.rows_per_system == whole.points.rows_per_system);
    const std::size_t rows = whole.points.rows_per_system, width = whole.points.width();
    for (std::size_t i = 0; i < systems.size(); ++i) {
        const std::size_t s = systems[i];
        INFO("row " << i << " = system " << s);
        if (part.status[i] != whole.status[s]) {
            CHECK(study::name_of(part.status[i]) == std::string(study::name_of(whole.status[s])));
            return false;
        }
        if (rows == 0) continue;
        CHECK(part.points.rows_filled[i] == whole.points.rows_filled[s]);
        for (std::size_t k = 0; k < rows * width; ++k)
            if (!same_bits(part.points.values[i * rows * width + k],
                           whole.points.values[s * rows * width + k])) {
                CHECK(part.points.values[i * rows * width + k] == whole.points.values[s * rows * width + k]);
                return false;
            }
    }
    for (const auto& column : whole.scalars) {
        const study::NumberColumn* mine = part.scalar(column.name);
        INFO("scalar " << column.name);
        REQUIRE(mine);
        for (std::size_t i = 0; i < systems.size(); ++i)
            if (!same_bits(mine->values[i], column.values[systems[i]])) {
                CHECK(mine->values[i] == column.values[systems[i]]);
                return false;
            }
    }
    return true;
}

bool results_equal(const study::Result& a, const study::Result& b) {
    REQUIRE(a.system_count == b.system_count);
    REQUIRE(a.scalars.size() == b.scalars.size());
    std::vector<std::size_t> all(a.system_count);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return rows_equal(a, all, b);
}

} // namespace bif::test
