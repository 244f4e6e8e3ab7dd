// Studies and synthetic results for the plot tests: small Duffing studies resolved against the
// bundled model, and results filled with values the tests choose.
#pragma once

#include "engine/study/resolved_study.h"
#include "engine/study/result.h"
#include "engine/study/study_json.h"
#include "gui_test_support.h"

#include <catch2/catch.hpp>
#include <memory>

namespace bif::test {

inline std::shared_ptr<const study::ResolvedStudy> resolve(study::Study s) {
    s.model.path = source_path("resources/models/duffing.ode").toStdString();
    auto r = study::resolve_study(s, "");
    for (const auto& p : r.problems)
        INFO(p.format());
    REQUIRE(r.resolved);
    return r.resolved;
}

inline study::Section strobe() {
    study::Section s;
    s.period = "2*pi/omega";
    return s;
}

// Bifurcation over k in [from, to] with `count` values, recording y1 and y2 at `rows` sections.
inline std::shared_ptr<const study::ResolvedStudy> diagram_study(double from, double to, int count, int rows,
                                                                 bool continuation = false) {
    study::Study s;
    s.analysis = study::AnalysisKind::Bifurcation;
    s.sweep = {{study::SweepTarget::Parameter, "k", from, to, count, study::SweepScale::Linear}};
    s.bifurcation.section = strobe();
    s.bifurcation.recorded_sections = rows;
    s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection},
                            {"y2", "", study::IntervalValue::AtSection}};
    s.bifurcation.continuation = continuation;
    return resolve(s);
}

// A period and Lyapunov map over k (n0 values) and b (n1 values).
inline std::shared_ptr<const study::ResolvedStudy> map_study(int n0, int n1) {
    study::Study s;
    s.title = "period map";
    s.analysis = study::AnalysisKind::ParameterMap;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.1, 0.4, n0, study::SweepScale::Linear},
               {study::SweepTarget::Parameter, "b", 0.1, 0.5, n1, study::SweepScale::Linear}};
    s.map.section = strobe();
    s.map.recorded_sections = 8;
    s.map.largest_exponent = true;
    return resolve(s);
}

inline std::shared_ptr<const study::ResolvedStudy> basins_study(int n0, int n1) {
    study::Study s;
    s.analysis = study::AnalysisKind::Basins;
    s.sweep = {{study::SweepTarget::InitialValue, "y1", -2, 2, n0, study::SweepScale::Linear},
               {study::SweepTarget::InitialValue, "y2", -1.5, 1.5, n1, study::SweepScale::Linear}};
    s.basins.section = strobe();
    return resolve(s);
}

inline study::NumberColumn& column(study::Result& r, const std::string& name) {
    for (auto& c : r.scalars)
        if (c.name == name) return c;
    FAIL("no column " << name);
    return r.scalars.front();
}

} // namespace bif::test
