// Every bundled example study reads, checks and resolves against its bundled model without a single
// problem, and writing it back gives a file that reads to the same study.
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;
using namespace bif::study;

namespace {

std::vector<fs::path> example_studies() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(BIFSCOPE_STUDIES_DIR))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string all_problems(const Problems& problems) {
    std::string text;
    for (const auto& p : problems)
        text += p.format() + "\n";
    return text;
}

} // namespace

TEST_CASE("every example study resolves without problems", "[study][examples]") {
    const auto files = example_studies();
    REQUIRE(files.size() >= 5);
    std::set<AnalysisKind> kinds;
    for (const auto& file : files) {
        INFO(file.filename().string());
        const ResolveResult r = load_study_file(file.string());
        INFO(all_problems(r.problems));
        CHECK(r.problems.empty());
        REQUIRE(r.resolved);
        kinds.insert(r.resolved->study.analysis);
        CHECK(r.resolved->system_count() >= 1);
    }
    // One example per analysis at least.
    CHECK(kinds.size() == 5);
}

TEST_CASE("writing an example study back reads to the same file", "[study][examples]") {
    for (const auto& file : example_studies()) {
        INFO(file.filename().string());
        const StudyReadResult first = read_study_file(file.string());
        REQUIRE(first.study);
        const std::string written = write_study_json(*first.study);
        const StudyReadResult second = read_study_json(written);
        INFO(all_problems(second.problems));
        REQUIRE(second.study);
        CHECK(second.problems.empty());
        CHECK(write_study_json(*second.study) == written);
    }
}

TEST_CASE("the MPGOS Duffing example has the paper's set-up", "[study][examples]") {
    const ResolveResult r = load_study_file(std::string(BIFSCOPE_STUDIES_DIR) + "/duffing_bifurcation.json");
    REQUIRE(r.resolved);
    const ResolvedStudy& s = *r.resolved;
    CHECK(s.system_count() == 30720);
    CHECK(s.grid.value(0, 0) == 0.2);
    CHECK(s.grid.value(30719, 0) == 0.3);
    CHECK(s.study.bifurcation.transient_sections == 1024);
    CHECK(s.study.bifurcation.recorded_sections == 32);
    CHECK(s.study.solver.method == Method::Rkck45);
    CHECK(s.rtol == std::vector<double>{1e-9, 1e-9});
    // The period formula 2*pi/omega at omega = 1.
    const auto p = s.parameter_slots(0);
    CHECK(s.model->pool.evaluate(s.formulas.period, s.initial_state.data(), p.data(), 0.0) ==
          Approx(2 * 3.141592653589793).epsilon(1e-15));
}
