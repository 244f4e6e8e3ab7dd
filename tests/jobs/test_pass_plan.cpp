// The pass plan of progressive jobs (strides, pass membership, block sizes), subset grids and the
// merging of blocks into a whole result. No study is run here.
#include "engine/jobs/pass_plan.h"
#include "engine/jobs/result_merge.h"
#include "fake_backend.h"
#include "progressive_studies.h"

#include <catch2/catch.hpp>
#include <set>

using namespace bif;

namespace {

// Which systems each pass holds, from the definition in result_block.h: pass p (stride s) takes the
// points whose every axis index is a multiple of s, less those of coarser passes.
std::vector<std::set<std::size_t>> passes_by_definition(const study::SweepGrid& grid, int pass_count) {
    std::vector<std::set<std::size_t>> passes(static_cast<std::size_t>(pass_count));
    for (std::size_t point = 0; point < grid.system_count(); ++point) {
        for (int p = 0; p < pass_count; ++p) {
            const std::size_t stride = std::size_t(1) << (pass_count - 1 - p);
            bool on = true;
            for (std::size_t a = 0; a < grid.axis_count(); ++a)
                on = on && grid.axis_index(point, a) % stride == 0;
            if (on) {
                passes[std::size_t(p)].insert(point);
                break;
            }
        }
    }
    return passes;
}

void check_plan_covers(const jobs::PassPlan& plan, const study::ResolvedStudy& s, std::size_t width = 0) {
    const auto expected = passes_by_definition(s.grid, plan.pass_count);
    std::vector<std::set<std::size_t>> seen(static_cast<std::size_t>(plan.pass_count));
    std::vector<int> times_seen(s.system_count(), 0);
    int last_pass = 0;
    for (const auto& block : plan.blocks) {
        CHECK(block.pass >= last_pass); // coarse first
        last_pass = block.pass;
        CHECK(block.stride == 1 << (plan.pass_count - 1 - block.pass));
        CHECK(std::is_sorted(block.systems.begin(), block.systems.end()));
        CHECK(block.systems.size() <= jobs::block_limit(s.system_count(), width));
        for (std::size_t system : block.systems) {
            ++times_seen[system];
            seen[std::size_t(block.pass)].insert(system);
        }
    }
    CHECK(std::count(times_seen.begin(), times_seen.end(), 1) == long(s.system_count()));
    CHECK(seen == expected);
}

} // namespace

TEST_CASE("a 24 x 20 map runs in four passes, strides 8, 4, 2, 1", "[jobs][passes]") {
    const auto s = test::duffing_map(24, 20, 4);
    const jobs::PassPlan plan = jobs::plan_passes(*s);
    REQUIRE(plan.pass_count == 4);
    check_plan_covers(plan, *s);
    // Pass 0 holds the points at k index 0, 8, 16 and b index 0, 8, 16: 9 systems, the first (k, b)
    // grid point and (16, 16) among them.
    REQUIRE(plan.blocks[0].pass == 0);
    CHECK(plan.blocks[0].systems.size() == 9);
    CHECK(plan.blocks[0].systems.front() == 0);
    CHECK(plan.blocks[0].systems.back() == 16 + 24 * 16);
    // Pass 1 (stride 4): 6 x 5 points on stride 4, less pass 0's 9.
    std::size_t pass1 = 0;
    for (const auto& b : plan.blocks)
        if (b.pass == 1) pass1 += b.systems.size();
    CHECK(pass1 == 6 * 5 - 9);
}

TEST_CASE("short axes get fewer passes; small grids and unsplittable studies one block", "[jobs][passes]") {
    SECTION("100 values of one axis: four passes") {
        const auto s = test::duffing_bifurcation(100);
        const auto plan = jobs::plan_passes(*s);
        CHECK(plan.pass_count == 4);
        check_plan_covers(plan, *s);
        CHECK(plan.blocks[0].systems.size() == 13); // 0, 8, ..., 96
    }
    SECTION("a 64 x 5 map: the 5-point axis allows stride 2 only") {
        const auto s = test::duffing_map(64, 5, 4);
        const auto plan = jobs::plan_passes(*s);
        CHECK(plan.pass_count == 2);
        check_plan_covers(plan, *s);
    }
    SECTION("a 64 x 1 map: an axis of one point does not limit the strides") {
        const auto s = test::duffing_map(64, 1, 4);
        CHECK(jobs::plan_passes(*s).pass_count == 4);
    }
    SECTION("fewer than 64 systems") {
        const auto s = test::duffing_bifurcation(63);
        const auto plan = jobs::plan_passes(*s);
        CHECK(plan.pass_count == 1);
        REQUIRE(plan.blocks.size() == 1);
        CHECK(plan.blocks[0].systems.size() == 63);
    }
    SECTION("a continuation sweep is one chain: one block of all 2n systems") {
        const auto s = test::duffing_bifurcation(200, true);
        CHECK_FALSE(jobs::allows_passes(*s));
        const auto plan = jobs::plan_passes(*s);
        REQUIRE(plan.blocks.size() == 1);
        CHECK(plan.blocks[0].systems.size() == 400);
    }
}

TEST_CASE("basins run in one block after a provisional preview of the coarse points", "[jobs][passes]") {
    const auto s = test::duffing_basins(20);
    const auto plan = jobs::plan_passes(*s);
    CHECK(plan.pass_count == 2);
    REQUIRE(plan.blocks.size() == 2);
    CHECK(plan.blocks[0].preview);
    CHECK(plan.blocks[0].stride == 8);
    CHECK(plan.blocks[0].systems == std::vector<std::size_t>{0, 8, 16, 160, 168, 176, 320, 328, 336});
    CHECK_FALSE(plan.blocks[1].preview);
    CHECK(plan.blocks[1].systems.size() == 400);
    CHECK(plan.blocks[1].pass == 1);
    SECTION("a big grid's preview is coarser: at most 128 points") {
        const auto big = test::duffing_basins(400);
        const auto coarse = jobs::plan_passes(*big);
        REQUIRE(coarse.blocks.size() == 2);
        CHECK(coarse.blocks[0].stride == 64); // stride 32 would give 13 x 13
        CHECK(coarse.blocks[0].systems.size() == 7 * 7);
        CHECK(coarse.blocks[0].systems[1] == 64);
        CHECK(coarse.blocks[0].systems[7] == 64 * 400);
    }
    SECTION("no preview for a small grid") {
        CHECK(jobs::plan_passes(*test::duffing_basins(7)).blocks.size() == 1);
    }
}

TEST_CASE("big passes are cut into blocks of bounded size", "[jobs][passes]") {
    const auto s = test::duffing_map(300, 300, 4); // 90000 systems: blocks of at most 5625
    const auto plan = jobs::plan_passes(*s);
    CHECK(jobs::block_limit(90000) == 5625);
    CHECK(jobs::block_limit(1000) == 4096);
    CHECK(plan.pass_count == 4);
    CHECK(plan.blocks.size() > 16);
    check_plan_covers(plan, *s);
}

TEST_CASE("the passes of a part of a grid follow the definition on the part's own points", "[jobs][passes]") {
    // the plan counts axis indices along a whole or ranged grid and looks them up for a subset;
    // both must give the passes the definition gives (indices of the whole grid's points)
    const auto s = test::duffing_map(37, 29, 4);
    study::ResolvedStudy ranged = *s;
    ranged.grid = s->grid.subset_range(37 * 5 + 11, 600); // starts mid-row: the count must carry
    check_plan_covers(jobs::plan_passes(ranged), ranged);
    std::vector<std::size_t> scattered;
    for (std::size_t p = 3; p < s->system_count(); p += 7)
        scattered.push_back(p);
    study::ResolvedStudy sub = *s;
    sub.grid = s->grid.subset(scattered);
    check_plan_covers(jobs::plan_passes(sub), sub);
}

TEST_CASE("a subset grid holds the very values of the whole grid's points", "[jobs][subset]") {
    const auto s = test::duffing_map(7, 5, 4);
    const study::SweepGrid& whole = s->grid;
    const std::vector<std::size_t> points{34, 0, 8, 9, 20};
    const study::SweepGrid sub = whole.subset(points);
    REQUIRE(sub.system_count() == points.size());
    CHECK(sub.is_subset());
    for (std::size_t i = 0; i < points.size(); ++i) {
        CHECK(sub.whole_point(i) == points[i]);
        // The whole grid's values, independently: k index = point % 7, b index = point / 7.
        CHECK(test::same_bits(sub.value(i, 0), whole.values(0)[points[i] % 7]));
        CHECK(test::same_bits(sub.value(i, 1), whole.values(1)[points[i] / 7]));
    }
    // A subset of a subset still refers to the whole grid.
    const study::SweepGrid subsub = sub.subset({4, 0});
    CHECK(subsub.whole_point(0) == 20);
    CHECK(subsub.whole_point(1) == 34);
    CHECK_THROWS_AS(sub.subset({5}), std::out_of_range);

    // allocate_result of a study copy with the subset grid lays out exactly those systems.
    study::ResolvedStudy part = *s;
    part.grid = sub;
    const study::Result r = study::allocate_result(part);
    REQUIRE(r.system_count == points.size());
    CHECK(test::same_bits(r.axes[1].values[0], whole.values(1)[4]));
}

TEST_CASE("scattering gathered rows rebuilds a result; info merges without repeats", "[jobs][merge]") {
    const auto s = test::duffing_bifurcation(10);
    study::Result source = study::allocate_result(*s);
    for (std::size_t i = 0; i < source.system_count; ++i) {
        source.status[i] = i % 3 ? study::SystemStatus::Ok : study::SystemStatus::NonFinite;
        source.points.rows_filled[i] = std::uint32_t(i);
        for (std::size_t k = 0; k < source.points.rows_per_system * source.points.width(); ++k)
            source.points.values[i * source.points.rows_per_system * source.points.width() + k] =
                i * 1000.0 + k;
    }
    source.scalars.push_back({"extra", std::vector<double>(10)});
    for (std::size_t i = 0; i < 10; ++i)
        source.scalars.back().values[i] = -double(i);

    study::Result whole = study::allocate_result(*s);
    const std::vector<std::vector<std::size_t>> blocks{{0, 4, 8}, {2, 6}, {1, 3, 5, 7, 9}};
    for (const auto& systems : blocks) {
        const study::Result block = jobs::gather_rows(source, systems);
        CHECK(test::rows_equal(block, systems, source));
        jobs::scatter_block(block, systems, whole);
    }
    CHECK(test::results_equal(whole, source));

    study::RunInfo total, part;
    part.run_seconds = 1.5;
    part.notes = {"a", "b"};
    part.warnings = {"w"};
    part.code_path = study::CodePath::NativeCompiled;
    jobs::merge_info(total, part);
    jobs::merge_info(total, part);
    CHECK(total.run_seconds == 3.0);
    CHECK(total.notes == std::vector<std::string>{"a", "b"});
    CHECK(total.warnings == std::vector<std::string>{"w"});
    CHECK(total.code_path == study::CodePath::NativeCompiled);
}

TEST_CASE("blocks start small, double up to the limit and spread over the grid", "[jobs][passes]") {
    const auto s = test::duffing_map(300, 300, 4);
    const auto plan = jobs::plan_passes(*s, 16);
    REQUIRE(plan.blocks.size() > 8);
    std::size_t expected = 16;
    for (std::size_t b = 0; b + 1 < plan.blocks.size(); ++b) {
        const auto& block = plan.blocks[b];
        const bool last_of_pass = plan.blocks[b + 1].pass != block.pass;
        if (!last_of_pass) CHECK(block.systems.size() == expected);
        CHECK(block.systems.size() <= expected);
        expected = std::min(expected * 2, jobs::block_limit(90000));
    }
    // The first block samples the whole grid: its 16 points reach from the first b row to the last
    // third of the b axis (b index = system / 300), not just the first rows.
    const auto& first = plan.blocks[0].systems;
    CHECK(first.front() / 300 == 0);
    CHECK(first.back() / 300 > 200);
}

TEST_CASE("on a GPU's width, blocks hold a width of systems and a small grid runs in one pass",
          "[jobs][passes]") {
    const auto s = test::duffing_map(300, 300, 4); // 90000 systems; passes of 1444, 4181, 16875, 67500
    SECTION("a grid of up to twice the width: one pass, one block") {
        for (std::size_t width : {45000, 90000, 1000000}) {
            const auto plan = jobs::plan_passes(*s, 16, width);
            CHECK(plan.pass_count == 1);
            REQUIRE(plan.blocks.size() == 1);
            CHECK(plan.blocks[0].systems.size() == 90000);
        }
    }
    SECTION("wider than a pass: the pass in one block; the last pass in blocks of at least the width") {
        const std::size_t width = 20000;
        const auto plan = jobs::plan_passes(*s, 16, width);
        REQUIRE(plan.pass_count == 4);
        std::vector<std::size_t> sizes;
        for (const auto& block : plan.blocks)
            sizes.push_back(block.systems.size());
        CHECK(sizes == std::vector<std::size_t>{1444, 4181, 16875, 40000, 27500});
        check_plan_covers(plan, *s, width);
    }
    SECTION("narrower than a pass: no block of a pass is smaller than the width but its last") {
        const std::size_t width = 1000;
        const auto plan = jobs::plan_passes(*s, 16, width);
        for (std::size_t b = 0; b + 1 < plan.blocks.size(); ++b)
            if (plan.blocks[b + 1].pass == plan.blocks[b].pass) CHECK(plan.blocks[b].systems.size() >= width);
        CHECK(plan.blocks[0].systems.size() == width);
        check_plan_covers(plan, *s, width);
    }
    SECTION("a CPU (width 0) plans as before") {
        const auto cpu = jobs::plan_passes(*s, 16, 0);
        const auto before = jobs::plan_passes(*s, 16);
        REQUIRE(cpu.blocks.size() == before.blocks.size());
        CHECK(cpu.blocks[0].systems == before.blocks[0].systems);
        CHECK(cpu.blocks[0].systems.size() == 16);
    }
}
