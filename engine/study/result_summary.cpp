#include "engine/study/result_summary.h"

#include <array>
#include <cstdint>

namespace bif::study {

void ResultSummary::add_statuses(const std::vector<SystemStatus>& status) {
    // counted per code first: a streamed 10^8-system run spent a quarter of its writer thread's
    // time here with a failure test per system
    std::array<std::size_t, 256> count{};
    for (SystemStatus s : status)
        ++count[static_cast<std::uint8_t>(s)];
    for (std::size_t code = 0; code < count.size(); ++code) {
        if (count[code] == 0) continue;
        const auto s = static_cast<SystemStatus>(code);
        ok += s == SystemStatus::Ok ? count[code] : 0;
        not_run += s == SystemStatus::NotRun ? count[code] : 0;
        failed += is_failure(s) ? count[code] : 0;
        escaped += s == SystemStatus::Escaped ? count[code] : 0;
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
