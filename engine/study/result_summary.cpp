#include "engine/study/result_summary.h"

namespace bif::study {

void ResultSummary::add_statuses(const std::vector<SystemStatus>& status) {
    for (SystemStatus s : status) {
        ok += s == SystemStatus::Ok;
        not_run += s == SystemStatus::NotRun;
        failed += is_failure(s);
        escaped += s == SystemStatus::Escaped;
    }
}

ResultSummary summarize(const Result& result) {
    ResultSummary summary;
    summary.analysis = result.analysis;
    summary.system_count = result.system_count;
    summary.info = result.info;
    summary.add_statuses(result.status);
    return summary;
}

} // namespace bif::study
