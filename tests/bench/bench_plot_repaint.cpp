// Paint time of the PlotView while panning: a 10^7-point bifurcation diagram and a 4096 x 4096
// period map, both synthetic (a logistic-map-like diagram, a banded map). The goal is a repaint
// under 16 ms (60 frames per second): paintEvent only draws the figure's cached image stretched
// to the view, so the data size should not show. Also times the rebin that follows a settled
// zoom (not in paintEvent): a rebin of the diagram's points, a recolouring of the map's cells. Prints a
// table; run with QT_QPA_PLATFORM=offscreen where no display. Then the UI-thread cost of big
// results while a study runs: one progressive block into the 4096^2 map, and the longest slice of
// a quantity switch (map) and of a rebin (diagram) when refreshed in the view's 12 ms slices.
#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"
#include "ui/views/plot_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace bif;

namespace {

std::shared_ptr<const study::ResolvedStudy> resolve(study::Study s) {
    s.model.path = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models/duffing.ode";
    auto r = study::resolve_study(s, "");
    if (!r.resolved) {
        std::fprintf(stderr, "cannot resolve the benchmark study\n");
        std::exit(1);
    }
    return r.resolved;
}

study::Section strobe() {
    study::Section s;
    s.period = "2*pi/omega";
    return s;
}

// 10^5 values of r, 100 points each: the logistic map x -> r x (1 - x) after a transient.
std::shared_ptr<plot::ResultFigure> diagram() {
    study::Study s;
    s.title = "10^7 points";
    s.sweep = {{study::SweepTarget::Parameter, "k", 2.8, 4.0, 100000, study::SweepScale::Linear}};
    s.bifurcation.section = strobe();
    s.bifurcation.recorded_sections = 100;
    s.bifurcation.record = {{"y1", "", study::IntervalValue::AtSection}};
    const auto resolved = resolve(s);
    auto r = std::make_shared<study::Result>(study::allocate_result(*resolved));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const double rate = resolved->grid.value(sys, 0);
        double x = 0.3;
        for (int i = 0; i < 300; ++i)
            x = rate * x * (1 - x);
        for (std::size_t row = 0; row < 100; ++row, x = rate * x * (1 - x))
            r->points.row(sys, row)[0] = x;
        r->points.rows_filled[sys] = 100;
        r->status[sys] = study::SystemStatus::Ok;
    }
    auto f = std::make_shared<plot::ResultFigure>(resolved);
    f->setResult(r);
    return f;
}

std::shared_ptr<plot::ResultFigure> map() {
    const int n = 4096;
    study::Study s;
    s.title = "4096 x 4096 cells";
    s.analysis = study::AnalysisKind::ParameterMap;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.1, 0.4, n, study::SweepScale::Linear},
               {study::SweepTarget::Parameter, "b", 0.1, 0.5, n, study::SweepScale::Linear}};
    s.map.section = strobe();
    const auto resolved = resolve(s);
    auto r = std::make_shared<study::Result>(study::allocate_result(*resolved));
    auto& period = r->scalars.front().values;
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const double u = double(sys % n) / n, v = double(sys / n) / n;
        period[sys] = 1 + std::floor(8 * (u * u + v));
        r->status[sys] = study::SystemStatus::Ok;
    }
    auto f = std::make_shared<plot::ResultFigure>(resolved);
    f->setResult(r);
    return f;
}

struct Timing {
    double median_ms, worst_ms;
};

// Drags the view across 60 mouse positions, repainting at each; returns the paint times.
Timing pan(ui::PlotView& view) {
    const QPointF start = view.plotArea().center();
    QMouseEvent press(QEvent::MouseButtonPress, start, view.mapToGlobal(start), Qt::LeftButton,
                      Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &press);
    std::vector<double> ms;
    for (int i = 1; i <= 60; ++i) {
        const QPointF p = start + QPointF(4.0 * i, 2.0 * std::sin(i / 5.0) * 20);
        QMouseEvent move(QEvent::MouseMove, p, view.mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        QElapsedTimer t;
        t.start();
        view.repaint();
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    QMouseEvent release(QEvent::MouseButtonRelease, start, view.mapToGlobal(start), Qt::LeftButton,
                        Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &release);
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

// A block of the map's systems [first, first + count) with periods inside the map's range.
jobs::ResultBlock map_block(const study::ResolvedStudy& s, std::size_t first, std::size_t count) {
    std::vector<std::size_t> systems(count);
    for (std::size_t i = 0; i < count; ++i)
        systems[i] = first + i;
    study::ResolvedStudy part = s;
    part.grid = s.grid.subset(systems);
    auto r = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t i = 0; i < count; ++i) {
        r->scalars.front().values[i] = 1.0 + double(i % 7);
        r->status[i] = study::SystemStatus::Ok;
    }
    jobs::ResultBlock b;
    b.result = r;
    b.systems = std::move(systems);
    return b;
}

// Refreshes in the view's 12 ms slices until done; returns the longest slice and the total.
std::pair<double, double> sliced(plot::ResultFigure& figure) {
    double longest = 0.0, total = 0.0;
    for (bool done = false; !done;) {
        QElapsedTimer t;
        t.start();
        done = figure.refreshSlice(std::chrono::milliseconds(12));
        const double ms = t.nsecsElapsed() / 1e6;
        longest = std::max(longest, ms), total += ms;
    }
    return {longest, total};
}

void progressive_rows() {
    std::printf("\n%-58s %12s %12s\n", "UI-thread work", "longest ms", "total ms");
    const auto m = map();
    m->refresh();
    QElapsedTimer t;
    t.start();
    m->addBlock(map_block(m->study(), 4096 * 2000, 65536));
    m->refresh();
    const double block_ms = t.nsecsElapsed() / 1e6;
    std::printf("%-58s %12.2f %12.2f\n", "block of 65536 cells into a 4096^2 map -> image updated", block_ms,
                block_ms);
    m->setQuantity(QStringLiteral("status"));
    const auto [switch_longest, switch_total] = sliced(*m);
    std::printf("%-58s %12.2f %12.2f\n", "quantity switch on a 4096^2 map, 12 ms slices", switch_longest,
                switch_total);
    const auto d = diagram();
    d->setViewport(d->fullRange(), QSize(1920, 1200));
    d->refresh();
    plot::PlotRange zoomed = d->fullRange();
    zoomed.x.from = 3.4, zoomed.y.from = 0.3;
    d->setViewport(zoomed, QSize(1920, 1200));
    const auto [rebin_longest, rebin_total] = sliced(*d);
    std::printf("%-58s %12.2f %12.2f\n", "rebin 10^7 points at 1920x1200, 12 ms slices", rebin_longest,
                rebin_total);
    std::printf("goal: no UI-thread slice over 16-30 ms\n");
}

} // namespace

int main(int argc, char** argv) {
    if (!std::getenv("DISPLAY") && !std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    std::printf("%-26s %10s %12s %12s %14s\n", "figure", "size", "median ms", "worst ms", "settle ms");
    for (auto [name, make] :
         {std::pair{"diagram, 10^7 points", &diagram}, std::pair{"map, 4096^2 cells", &map}}) {
        const auto figure = make();
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1200)}) {
            ui::PlotView view;
            view.resize(size);
            view.setFigure(figure);
            view.show();
            QApplication::processEvents();
            // The work a settled zoom costs: rebin (diagram) or recolour (map).
            QElapsedTimer t;
            t.start();
            if (figure->kind() == plot::FigureKind::Diagram) {
                figure->setViewport(figure->fullRange(), (view.plotArea().size() * 0.5).toSize());
                figure->refresh();
                figure->setViewport(figure->fullRange(), view.plotArea().size().toSize());
            } else {
                figure->setDensityScale(plot::DensityScale::Linear);
                figure->refresh();
                figure->setDensityScale(plot::DensityScale::Log);
            }
            figure->refresh();
            const double rebin_ms = t.nsecsElapsed() / 1e6 / 2;
            const Timing timing = pan(view);
            std::printf("%-26s %5dx%-5d %12.2f %12.2f %14.1f\n", name, size.width(), size.height(),
                        timing.median_ms, timing.worst_ms, rebin_ms);
        }
    }
    std::printf("goal: repaint under 16 ms while panning\n");
    progressive_rows();
    return 0;
}
