// The CSV writer: the study as a comment block, a header row, one row per system and point, and
// numbers that read back exactly.
#include "engine/study/result_csv.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace bif::study;

namespace {

Result small_result() {
    Result r;
    r.analysis = AnalysisKind::Bifurcation;
    r.system_count = 2;
    r.axes = {{"k", {0.2, 0.1 + 0.2}}};
    r.status = {SystemStatus::Ok, SystemStatus::NonFinite};
    r.points.columns = {"y1", "max, y1"};
    r.points.rows_per_system = 2;
    r.points.rows_filled = {2, 0};
    r.points.values = {1.0, -2.5, 1.0 / 3.0, 4.0, missing_value, missing_value, missing_value, missing_value};
    r.info.backend = "cpu";
    r.info.complete = true;
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("CSV: comment block, header, rows", "[study][csv]") {
    std::ostringstream out;
    write_result_csv(out, small_result(), "{\n  \"bifscope_study\": 1\n}\n");
    const auto lines = lines_of(out.str());
    std::vector<std::string> comments, rows;
    for (const auto& l : lines)
        (l.rfind("# ", 0) == 0 ? comments : rows).push_back(l);
    CHECK(std::find(comments.begin(), comments.end(), "#   \"bifscope_study\": 1") != comments.end());
    CHECK(std::find(comments.begin(), comments.end(), "# systems: 2, ok: 1, failed: 1, not run: 0") !=
          comments.end());
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == "k,status,point,y1,\"max, y1\"");
    CHECK(rows[1] == "0.2,ok,0,1,-2.5");
    CHECK(rows[2] == "0.2,ok,1,0.3333333333333333,4");
    // 0.1 + 0.2 is not 0.3: the shortest round-trip text keeps the difference.
    CHECK(rows[3] == "0.30000000000000004,non_finite,,,");
    CHECK(std::stod("0.3333333333333333") == 1.0 / 3.0);
}

TEST_CASE("CSV: scalar columns without points give one row per system", "[study][csv]") {
    Result r;
    r.analysis = AnalysisKind::Lyapunov;
    r.system_count = 2;
    r.axes = {{"rho", {28, 99.5}}};
    r.status = {SystemStatus::Ok, SystemStatus::NotRun};
    r.scalars = {{"lambda1", {0.9056, missing_value}}};
    std::ostringstream out;
    write_result_csv(out, r, "");
    const auto lines = lines_of(out.str());
    std::vector<std::string> rows;
    for (const auto& l : lines)
        if (l.rfind("#", 0) != 0) rows.push_back(l);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0] == "rho,status,lambda1");
    CHECK(rows[1] == "28,ok,0.9056");
    CHECK(rows[2] == "99.5,not_run,");
    CHECK(out.str().find("# complete: no (cancelled") != std::string::npos);
}
