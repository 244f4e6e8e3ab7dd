// What a result file says about its run as a whole: the status counts over every system and the run
// information. A streamed run never holds every system at once, so it adds up the counts block by
// block; an assembled Result is summarized in one go. Both give the same summary.
#pragma once

#include "engine/study/result.h"

#include <cstddef>

namespace bif::study {

struct ResultSummary {
    AnalysisKind analysis = AnalysisKind::Bifurcation;
    std::size_t system_count = 0;
    std::size_t ok = 0;
    std::size_t failed = 0; // is_failure()
    std::size_t not_run = 0;
    std::size_t escaped = 0; // beyond solver.bound: neither ok nor failed
    RunInfo info;

    // Counts the statuses of these systems (a block of the run, or all of it).
    void add_statuses(const std::vector<SystemStatus>& status);
};

// The summary of a whole assembled result.
ResultSummary summarize(const Result& result);

} // namespace bif::study
