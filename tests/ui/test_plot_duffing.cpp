// A real Duffing run through the job API (CPU backend): the period-1 branch lands in the pixel row
// that an independent RK4 integration predicts, and progressive blocks build the same picture as
// the whole result.
#include "duffing_reference.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "plot_test_studies.h"
#include "ui/plot/result_figure.h"
#include "ui/views/plot_view.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <mutex>

using namespace bif;

namespace {

struct Run {
    std::shared_ptr<const study::Result> result;
    std::vector<std::shared_ptr<const jobs::ResultBlock>> blocks;
};

Run run_on_cpu(std::shared_ptr<const study::ResolvedStudy> s) {
    Run run;
    std::mutex mutex;
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    options.progressive = true;
    options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) {
        std::lock_guard lock(mutex);
        run.blocks.push_back(std::move(b));
    };
    auto job = jobs::submit(jobs::installed_backends(), s, options);
    job->wait();
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    run.result = job->result();
    return run;
}

std::shared_ptr<const study::ResolvedStudy> duffing(double from, double to, int count, double b,
                                                    int transient, int recorded) {
    study::Study s;
    s.title = "Duffing: y1 at t = 2 pi n against k";
    s.parameters = {{"b", b}};
    s.sweep = {{study::SweepTarget::Parameter, "k", from, to, count, study::SweepScale::Linear}};
    s.bifurcation.section = test::strobe();
    s.bifurcation.transient_sections = transient;
    s.bifurcation.recorded_sections = recorded;
    s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection},
                            {"y2", "", study::IntervalValue::AtSection}};
    s.solver.rtol.all = s.solver.atol.all = 1e-9;
    return test::resolve(s);
}

} // namespace

TEST_CASE("the Duffing period-1 branch lands in the pixel row RK4 predicts", "[plot][duffing]") {
    const int count = 6, transient = 64, recorded = 8;
    const auto s = duffing(0.35, 0.40, count, 0.2, transient, recorded);
    const Run run = run_on_cpu(s);
    plot::ResultFigure f(s);
    f.setResult(run.result);
    // x: each k sits half a pixel from the pixel edges.
    const plot::PlotRange view{{0.34475, 0.40475, false}, {-1.5, 1.5, false}};
    const QSize size(120, 300);
    f.setViewport(view, size);
    f.refresh();
    for (int i = 0; i < count; ++i) {
        const double k = 0.35 + 0.01 * i;
        const double reference = test::duffing_stroboscopic_y1(k, 0.2, transient + recorded, 1000);
        INFO("k = " << k << ", RK4 y1 = " << reference);
        // Period 1: every recorded section point is the same value.
        for (int row = 0; row < recorded; ++row)
            CHECK(run.result->points.value(i, row, 0) == Approx(reference).margin(1e-5));
        const int px = static_cast<int>(std::floor((k - 0.34475) / 0.06 * size.width()));
        const int py = static_cast<int>(std::floor((1.5 - reference) / 3.0 * size.height()));
        CHECK(f.count(px, py - 1) + f.count(px, py) + f.count(px, py + 1) == recorded);
        CHECK(f.count(px, py - 20) + f.count(px, py + 20) == 0);
    }
    // The progressive blocks, fed one by one, give the very same counts.
    REQUIRE_FALSE(run.blocks.empty());
    plot::ResultFigure progressive(s);
    for (const auto& b : run.blocks)
        progressive.addBlock(*b);
    progressive.setViewport(view, size);
    progressive.refresh();
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x)
            if (progressive.count(x, y) != f.count(x, y)) FAIL("pixel " << x << ", " << y << " differs");
}

TEST_CASE("screenshot of a real Duffing bifurcation diagram", "[plot][duffing][screenshot]") {
    const auto s = duffing(0.2, 0.3, 400, 0.3, 128, 32);
    const Run run = run_on_cpu(s);
    auto f = std::make_shared<plot::ResultFigure>(s);
    ui::PlotView view;
    view.resize(900, 560);
    view.setFigure(f);
    for (const auto& b : run.blocks) {
        f->addBlock(*b);
        view.figureChanged();
    }
    REQUIRE(test::wait_until([&] { return !f->needsRefresh() && f->systemsReceived() == 400; }, 2000));
    const QImage shot = test::save_screenshot(view, "plot_diagram_duffing");
    // The period-3 window near k = 0.22 shows as three dark rows in the image, so the plot is not empty.
    std::size_t filled = 0;
    for (int y = 0; y < f->image().height(); ++y)
        for (int x = 0; x < f->image().width(); ++x)
            filled += qAlpha(f->image().pixel(x, y)) != 0;
    CHECK(filled > 2000);
}
