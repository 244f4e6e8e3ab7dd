// Tiled zooms of a parameter map (ui/tiles, ui/window/tiled_zoom): the lattice's keys under a pan
// and a zoom, the LRU cache, the scheduler's jobs (none for cached tiles, a cancel for a tile the view
// left) and the assembled picture against a whole-view run of the same study (an independent job
// through the engine's job API, compared cell by cell).
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/result_merge.h"
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/zoomed_study.h"
#include "ui/run/study_runner.h"
#include "ui/tiles/tile_batch.h"
#include "ui/tiles/tile_cache.h"
#include "ui/tiles/tile_grid.h"
#include "ui/tiles/tile_mosaic.h"
#include "ui/tiles/tile_scheduler.h"
#include "ui/views/plot_view.h"
#include "ui/window/figure_result_view.h"
#include "ui/window/result_tab.h"
#include "ui/window/tiled_zoom.h"

#include <QSignalSpy>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

using namespace bif;
using tiles::TileKey;

namespace {

// A Duffing period map on k in [0.1, 0.4] x b in [0.1, 0.5], cheap per system (fixed-step RK4).
std::shared_ptr<const study::ResolvedStudy> quick_map(int n0, int n1) {
    study::Study s;
    s.title = "tiled period map";
    s.analysis = study::AnalysisKind::ParameterMap;
    s.parameters = {{"delta", 1}, {"omega", 1}};
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.1, 0.4, n0, study::SweepScale::Linear},
               {study::SweepTarget::Parameter, "b", 0.1, 0.5, n1, study::SweepScale::Linear}};
    s.map.section = test::strobe();
    s.map.transient_sections = 24;
    s.map.recorded_sections = 8;
    s.map.period.tolerance = 1e-4;
    s.map.period.max_period = 8;
    s.solver.method = study::Method::Rk4;
    s.solver.initial_step = 0.1;
    s.precision = study::PrecisionChoice::Double;
    s.backend = study::BackendChoice::Cpu;
    return test::resolve(s);
}

plot::PlotRange range_of(double x0, double x1, double y0, double y1) {
    return {{x0, x1, false}, {y0, y1, false}};
}

std::set<TileKey> as_set(const std::vector<TileKey>& keys) {
    return {keys.begin(), keys.end()};
}

std::shared_ptr<study::Result> result_of_size(std::size_t systems) {
    auto r = std::make_shared<study::Result>();
    r->system_count = systems;
    r->status.assign(systems, study::SystemStatus::Ok);
    r->scalars.push_back({"period", std::vector<double>(systems, 1.0)});
    return r;
}

} // namespace

// The first study spaces k by 0.01 and b by 0.01: lattice point i of level 0 is 0.1 + 0.01 i.
TEST_CASE("a pan by one tile width reuses every tile but one column", "[tiles][grid]") {
    const auto first = quick_map(31, 41);
    const tiles::TileGrid grid(*first, 16);
    // 40 x 30 pixels over 40 x 30 lattice steps: level 0; edges inside tiles, not on their borders.
    const double x0 = 0.1 + 0.01 * 5.3, y0 = 0.1 + 0.01 * 3.2;
    const auto before = grid.keys(range_of(x0, x0 + 0.40, y0, y0 + 0.30), QSize(40, 30));
    const auto after = grid.keys(range_of(x0 + 0.16, x0 + 0.56, y0, y0 + 0.30), QSize(40, 30));
    // Lattice points 5..45 along x: tiles 0..2; after the pan 1..3. Along y points 3..33: tiles 0..2.
    std::set<TileKey> expected_before, expected_after;
    for (std::int64_t iy = 0; iy <= 2; ++iy)
        for (std::int64_t ix = 0; ix <= 3; ++ix) {
            const TileKey key{grid.identity(), 0, 0, ix, iy, 16};
            if (ix <= 2) expected_before.insert(key);
            if (ix >= 1) expected_after.insert(key);
        }
    CHECK(as_set(before) == expected_before);
    CHECK(as_set(after) == expected_after);
    std::vector<TileKey> kept;
    std::set_intersection(expected_before.begin(), expected_before.end(), expected_after.begin(),
                          expected_after.end(), std::back_inserter(kept));
    CHECK(kept.size() == before.size() - 3); // all but one column of three tiles

    // Centre first: the view's centre (lattice point 25.3, 18.2) lies in tile (1, 1).
    CHECK(before.front().ix == 1);
    CHECK(before.front().iy == 1);

    // Zoom in twice as fine: level 1 along both axes; zooming back gives the first keys again.
    const auto zoomed = grid.keys(range_of(x0, x0 + 0.40, y0, y0 + 0.30), QSize(80, 60));
    CHECK(zoomed.front().level_x == 1);
    CHECK(zoomed.front().level_y == 1);
    CHECK(as_set(grid.keys(range_of(x0, x0 + 0.40, y0, y0 + 0.30), QSize(40, 30))) == expected_before);

    // A tile's sub-study sweeps the first study's own grid values at level 0.
    const auto tile = grid.tileStudy({grid.identity(), 0, 0, 1, 0, 16});
    REQUIRE(tile->grid.system_count() == 256);
    const auto& xs = tile->grid.values(0);
    for (int i = 0; i < 15; ++i) // points 16..30; point 31 lies past the first study's end
        CHECK(xs[i] == Approx(first->grid.values(0)[16 + i]).epsilon(1e-12));
    CHECK(tile->grid.values(1).back() == Approx(first->grid.values(1)[15]).epsilon(1e-12));

    // A rectangle of tiles holds each tile's own values, bit for bit (the lattice's, not an
    // interpolation between the rectangle's ends).
    const auto rect = grid.rectStudy({3, 2, -1, 4, 3, 2});
    REQUIRE(rect->grid.system_count() == 48 * 32);
    for (std::int64_t t = 0; t < 3; ++t) {
        const auto one = grid.tileStudy({grid.identity(), 3, 2, t - 1, 5, 16});
        for (std::size_t i = 0; i < 16; ++i) {
            CHECK(rect->grid.values(0)[std::size_t(t) * 16 + i] == one->grid.values(0)[i]);
            CHECK(rect->grid.values(1)[16 + i] == one->grid.values(1)[i]);
        }
    }
    CHECK(rect->study.sweep[0].from == rect->grid.values(0).front());
    CHECK(rect->study.sweep[1].to == rect->grid.values(1).back());
    CHECK(rect->study.sweep[0].count == 48);
}

TEST_CASE("a batch grows to the rectangle of queued tiles around its seed", "[tiles][batch]") {
    const auto key = [](std::int64_t ix, std::int64_t iy) { return TileKey{"s", 1, 1, ix, iy, 16}; };
    std::deque<TileKey> queued;
    for (std::int64_t iy = 0; iy < 3; ++iy)
        for (std::int64_t ix = 0; ix < 4; ++ix)
            queued.push_back(key(ix, iy));
    // Nothing cached: the whole view is one rectangle, whichever tile seeds it.
    const auto all = tiles::TileBatch::grow(key(1, 1), queued, 100);
    CHECK(all.rect() == tiles::TileRect{1, 1, 0, 0, 4, 3});
    CHECK(all.keys().size() == 12);
    CHECK(all.keys().front() == queued.front()); // the queue's order
    // A bound of 6 tiles: a rectangle of at most 6, all of them queued, holding the seed.
    const auto bounded = tiles::TileBatch::grow(key(2, 1), queued, 6);
    CHECK(bounded.rect().tiles() <= 6);
    CHECK(bounded.rect().tiles() >= 4);
    CHECK(bounded.holds(key(2, 1)));
    CHECK(bounded.keys().size() == bounded.rect().tiles());
    // The two middle tiles cached: no rectangle holds a cached tile, so the seed's strip runs alone.
    std::erase_if(queued, [&](const TileKey& k) { return k == key(1, 1) || k == key(2, 1); });
    const auto strip = tiles::TileBatch::grow(key(0, 1), queued, 100);
    CHECK(strip.rect() == tiles::TileRect{1, 1, 0, 0, 1, 3});
    for (const TileKey& k : strip.keys())
        CHECK(std::find(queued.begin(), queued.end(), k) != queued.end());
    // Another study's or another size's tile is never in a batch.
    CHECK_FALSE(all.holds(TileKey{"t", 1, 1, 0, 0, 16}));
    CHECK_FALSE(all.holds(TileKey{"s", 1, 1, 0, 0, 32}));
    CHECK_FALSE(all.holds(TileKey{"s", 2, 1, 0, 0, 16}));
}

TEST_CASE("a batch's result split into tiles equals each tile run alone, bit for bit", "[tiles][batch]") {
    const auto first = quick_map(31, 41);
    const tiles::TileGrid grid(*first, 8);
    std::deque<TileKey> queued;
    for (std::int64_t iy = 2; iy < 4; ++iy)
        for (std::int64_t ix = 1; ix < 4; ++ix)
            queued.push_back({grid.identity(), 2, 1, ix, iy, 8});
    const auto batch = tiles::TileBatch::grow(queued.front(), queued, 100);
    REQUIRE(batch.rect().tiles() == 6);
    const auto installed = jobs::installed_backends();
    const auto run = [&](std::shared_ptr<const study::ResolvedStudy> s) {
        auto job = jobs::submit(installed, std::move(s));
        job->wait();
        REQUIRE(job->state() == jobs::JobState::Succeeded);
        return job->result();
    };
    const auto whole = run(grid.rectStudy(batch.rect()));
    const auto tiles = batch.split(*whole);
    REQUIRE(tiles.size() == 6);
    std::size_t periodic = 0;
    for (const auto& [key, tile] : tiles) {
        REQUIRE(batch.holds(key));
        const auto alone = run(grid.tileStudy(key));
        REQUIRE(tile->system_count == alone->system_count);
        CHECK(tile->status == alone->status);
        for (std::size_t a = 0; a < 2; ++a)
            CHECK(tile->axes[a].values == alone->axes[a].values);
        const auto* want = alone->scalar("period");
        const auto* got = tile->scalar("period");
        REQUIRE(want);
        REQUIRE(got);
        for (std::size_t s = 0; s < want->values.size(); ++s) {
            if (want->values[s] > 0) ++periodic;
            CHECK((got->values[s] == want->values[s] ||
                   (std::isnan(got->values[s]) && std::isnan(want->values[s]))));
        }
    }
    CHECK(periodic > 6 * 64 / 4);

    // A block of the batch: each of its systems lands in its own tile, at its index there.
    jobs::ResultBlock block;
    std::vector<std::size_t> rows;
    for (std::size_t s = 0; s < whole->system_count; s += 5)
        rows.push_back(s);
    block.result = std::make_shared<const study::Result>(jobs::gather_rows(*whole, rows));
    block.systems = rows;
    block.pass = 1;
    block.stride = 2;
    std::size_t placed = 0;
    for (const auto& [key, part] : batch.split(block)) {
        CHECK(part->pass == 1);
        CHECK(part->stride == 2);
        CHECK(std::is_sorted(part->systems.begin(), part->systems.end()));
        const auto& tile =
            *std::find_if(tiles.begin(), tiles.end(), [&](const auto& t) { return t.first == key; })->second;
        for (std::size_t i = 0; i < part->systems.size(); ++i) {
            CHECK(part->result->axes[0].values[i] == tile.axes[0].values[part->systems[i]]);
            CHECK(part->result->axes[1].values[i] == tile.axes[1].values[part->systems[i]]);
        }
        placed += part->systems.size();
    }
    CHECK(placed == rows.size());
}

TEST_CASE("the tile cache evicts the least recently used tile past its memory bound", "[tiles][cache]") {
    const auto r = result_of_size(1000);
    const std::size_t one = tiles::TileCache::bytes_of(*r);
    tiles::TileCache cache(one * 5 / 2); // room for two
    const TileKey a{"s", 0, 0, 0, 0, 16}, b{"s", 0, 0, 1, 0, 16}, c{"s", 0, 0, 2, 0, 16};
    cache.insert(a, r);
    cache.insert(b, result_of_size(1000));
    REQUIRE(cache.size() == 2);
    CHECK(cache.find(a) == r); // a is now the most recent: b goes first
    cache.insert(c, result_of_size(1000));
    CHECK(cache.contains(a));
    CHECK_FALSE(cache.contains(b));
    CHECK(cache.contains(c));
    CHECK(cache.evictions() == 1);
    CHECK(cache.bytes() == 2 * one);
    CHECK(cache.find(b) == nullptr);
}

TEST_CASE("tiles run once: a pan back is served from the cache, a batch the view left is cancelled",
          "[tiles][scheduler]") {
    const auto first = quick_map(31, 41);
    const tiles::TileGrid grid(*first, 16);
    ui::StudyRunner runner;
    tiles::TileCache cache;
    tiles::TileScheduler scheduler(runner, cache);
    const auto study_of = [&grid](const tiles::TileRect& rect) { return grid.rectStudy(rect); };
    std::vector<std::pair<TileKey, bool>> done; // key, from the cache
    QObject::connect(&scheduler, &tiles::TileScheduler::tileDone,
                     [&](const TileKey& key, std::shared_ptr<const study::Result> r, bool cached) {
                         CHECK(r->info.complete);
                         CHECK(r->system_count == 256);
                         done.emplace_back(key, cached);
                     });

    const double x0 = 0.1 + 0.01 * 5.3, y0 = 0.1 + 0.01 * 3.2;
    const auto home = grid.keys(range_of(x0, x0 + 0.24, y0, y0 + 0.10), QSize(24, 10)); // 2 x 1 tiles
    const auto panned = grid.keys(range_of(x0 + 0.16, x0 + 0.40, y0, y0 + 0.10), QSize(24, 10));
    REQUIRE(home.size() == 2);
    scheduler.request(home, study_of); // both tiles in one batch
    CHECK(scheduler.tilesInFlight().size() == 2);
    REQUIRE(test::wait_until([&] { return scheduler.idle(); }, 120000));
    CHECK(scheduler.submitted() == 1);
    CHECK(cache.size() == 2);
    CHECK(done.size() == 2);

    scheduler.request(panned, study_of); // one new column of one tile
    REQUIRE(test::wait_until([&] { return scheduler.idle(); }, 120000));
    CHECK(scheduler.submitted() == 2);
    CHECK(cache.size() == 3);

    // Back home: both tiles delivered before request() returns, from the cache, with no job.
    done.clear();
    scheduler.request(home, study_of);
    CHECK(scheduler.idle());
    CHECK(scheduler.submitted() == 2);
    REQUIRE(done.size() == 2);
    CHECK(done[0].second);
    CHECK(done[1].second);
    CHECK(as_set({done[0].first, done[1].first}) == as_set(home));

    // Far away at a finer level: its tiles start as one batch. A view that still wants most of them
    // keeps that batch running; one that wants none of them cancels it, and none of its tiles is
    // delivered or cached.
    QSignalSpy finished(&runner, &ui::StudyRunner::finished);
    const auto far = grid.keys(range_of(0.3, 0.34, 0.4, 0.44), QSize(64, 64));
    REQUIRE(far.size() > 4);
    scheduler.request(far, study_of);
    REQUIRE(scheduler.runInFlight());
    const quint64 left_run = *scheduler.runInFlight();
    const std::vector<TileKey> left_tiles = scheduler.tilesInFlight();
    CHECK(as_set(left_tiles) == as_set(far));
    scheduler.request({far.begin(), far.end() - 1}, study_of);
    CHECK(scheduler.runInFlight() == left_run);
    CHECK(scheduler.queued() == 0);
    done.clear();
    scheduler.request(home, study_of);
    CHECK(scheduler.tilesInFlight().empty());
    REQUIRE(test::wait_until(
        [&] {
            for (const auto& args : finished)
                if (args.at(0).value<quint64>() == left_run) return true;
            return false;
        },
        30000));
    for (const auto& args : finished)
        if (args.at(0).value<quint64>() == left_run)
            CHECK(args.at(1).value<jobs::JobState>() == jobs::JobState::Cancelled);
    for (const TileKey& left : left_tiles) {
        CHECK_FALSE(cache.contains(left));
        for (const auto& [key, cached] : done)
            CHECK(key != left);
    }
    CHECK(scheduler.submitted() == 3);
}

TEST_CASE("a tiled map, once complete, equals a whole-view run of the same study",
          "[tiles][picture][screenshot]") {
    const auto first = quick_map(31, 41);
    ui::StudyRunner runner;
    ui::TiledZoom tiled(runner, nullptr, 32);
    ui::ResultTab tab(first);
    tab.resize(720, 520);
    tab.show();
    bool finished = false;
    QObject::connect(&tiled, &ui::TiledZoom::tilesFinished, [&] { finished = true; });
    // A view of 88 x 64 cells of 0.00125 (level 3) over k in [0.15, 0.26], b in [0.15, 0.23]: lattice
    // points 40..128 and 40..104, so tiles 1..4 along k and 1..3 along b, of 32 x 32 points each.
    const plot::PlotRange view = range_of(0.15, 0.26, 0.15, 0.23);
    const QSize pixels(88, 64);
    // The view shows that range (its own zoom request goes nowhere: the tiles are asked for below, at
    // a resolution small enough for a test).
    auto* figure_view = dynamic_cast<ui::FigureResultView*>(&tab.view());
    REQUIRE(figure_view);
    figure_view->plotView().setRange(view);
    tiled.show(&tab, plot::zoomed_study(first->study, view, pixels));
    REQUIRE(tiled.mosaic());
    REQUIRE(tiled.mosaic()->keys().size() == 12);
    const auto cover = tiled.mosaic()->cover();
    CHECK(tab.study() == cover);
    // Mid-way: some tiles done, the bottom left one (where the map has structure) in its second pass
    // (coarse cells of 4 x 4 and 8 x 8), the rest still empty. The screenshot runs the event loop, so
    // the picture is from a little later. The cells this block placed are kept to be compared with
    // the reference: they check the placing of progressive blocks, not only of finished tiles.
    bool midway = false;
    std::vector<std::pair<std::size_t, double>> placed; // cover system, value shown
    QObject::connect(&tiled.scheduler(), &tiles::TileScheduler::tileBlock,
                     [&](const TileKey& key, std::shared_ptr<const jobs::ResultBlock> block) {
                         if (midway || key.ix != 1 || key.iy != 1 || block->pass != 1) return;
                         midway = true;
                         CHECK(tiled.mosaic()->doneCount() < 12);
                         const std::size_t nx = tiled.mosaic()->cover()->study.sweep[0].count;
                         const auto in_cover = tiled.mosaic()->place(key, *block);
                         for (std::size_t s : in_cover->systems)
                             placed.emplace_back(s, tab.figure()->mapCell(s % nx, s / nx)->first);
                         tab.figure()->refresh();
                         test::save_screenshot(tab, "tiles_map_midway");
                     });
    REQUIRE(test::wait_until([&] { return finished; }, 240000));
    CHECK(midway);
    tab.figure()->refresh();
    test::save_screenshot(tab, "tiles_map_complete");
    const auto tiled_result = tab.result();
    REQUIRE(tiled_result);
    CHECK(tiled_result->info.complete);

    // The reference: the cover study run whole, in one job.
    const auto job = jobs::submit(jobs::installed_backends(), cover);
    job->wait();
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const auto& reference = *job->result();
    REQUIRE(reference.system_count == tiled_result->system_count);
    const auto* period = reference.scalar("period");
    REQUIRE(period);
    REQUIRE(tab.figure()->quantities().value(tab.figure()->quantity()) == "period");
    const std::size_t nx = cover->study.sweep[0].count, ny = cover->study.sweep[1].count;
    std::size_t differ = 0, periodic = 0;
    for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t i = 0; i < nx; ++i) {
            const std::size_t s = j * nx + i;
            const auto cell = tab.figure()->mapCell(i, j);
            REQUIRE(cell);
            const double want = period->values[s];
            if (want > 0) ++periodic;
            if (cell->second != reference.status[s] ||
                !(cell->first == want || (std::isnan(want) && std::isnan(cell->first)))) {
                if (differ < 5)
                    UNSCOPED_INFO("cell " << i << "," << j << ": " << cell->first << " vs " << want);
                ++differ;
            }
        }
    CHECK(periodic > nx * ny / 4); // the comparison sees real periods, not only failures
    CHECK(differ == 0);
    REQUIRE(placed.size() >= 16);
    for (const auto& [system, value] : placed)
        CHECK((value == period->values[system] || (std::isnan(value) && std::isnan(period->values[system]))));
}
