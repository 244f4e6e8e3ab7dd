// Results with a known picture, for the tests of the plot view's canvases (test_gl_renderer's view
// on Qt's context, test_plot_egl_canvas's on an EGL device): a period map whose cells follow a
// pattern, checked cell by cell against the colours its categories must have, and a logistic-map
// diagram.
#pragma once

#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "ui/plot/color_map.h"
#include "ui/plot/result_figure.h"
#include "ui/views/plot_view.h"

#include <QImage>
#include <QRectF>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace bif::test {

// The map study's result with periods 0 (none found) to 4 in blocks of 3 x 2 cells along the first
// axis of `n0` values, and every 17th system from the 5th failed.
inline std::shared_ptr<study::Result> patterned_period_map(const study::ResolvedStudy& s, int n0) {
    auto r = std::make_shared<study::Result>(study::allocate_result(s));
    auto& period = column(*r, "period").values;
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        r->status[sys] = (sys % 17 == 5) ? study::SystemStatus::NonFinite : study::SystemStatus::Ok;
        period[sys] = static_cast<double>((sys % n0 / 3 + sys / n0 / 2) % 5);
    }
    return r;
}

// Two colours within one level per channel.
inline bool near_colour(QRgb x, QRgb y) {
    return std::abs(qRed(x) - qRed(y)) <= 1 && std::abs(qGreen(x) - qGreen(y)) <= 1 &&
           std::abs(qBlue(x) - qBlue(y)) <= 1;
}

// `view` (640 x 420) showing the figure of `result` over `s`, drawn: REQUIREs it within 5 s.
inline std::shared_ptr<plot::ResultFigure> show_result(ui::PlotView& view,
                                                       std::shared_ptr<const study::ResolvedStudy> s,
                                                       std::shared_ptr<study::Result> result) {
    auto figure = std::make_shared<plot::ResultFigure>(std::move(s));
    figure->setResult(std::move(result));
    view.resize(640, 420);
    view.setFigure(figure);
    figure->refresh();
    view.figureChanged();
    REQUIRE(wait_until([&] { return !figure->needsRefresh(); }, 5000));
    return figure;
}

// The cells of an n0 x n1 period map drawn over `area` of `shot` whose centre lacks its colour
// (within one level per channel): its category's, "none found" or failed.
inline int wrong_period_cells(const QImage& shot, const QRectF& area, study::Result& r, int n0, int n1) {
    const auto& period = column(r, "period").values;
    int wrong = 0;
    for (std::size_t sys = 0; sys < r.system_count; ++sys) {
        const int i = static_cast<int>(sys % n0), j = static_cast<int>(sys / n0);
        const QPoint centre(static_cast<int>(area.left() + (i + 0.5) / n0 * area.width()),
                            static_cast<int>(area.bottom() - (j + 0.5) / n1 * area.height()));
        const int v = static_cast<int>(period[sys]);
        const QRgb expected = study::is_failure(r.status[sys]) ? plot::failed_color
                              : v <= 0                         ? plot::none_found_color
                                                               : plot::categorical_color(v - 1);
        if (!near_colour(shot.pixel(centre), expected)) {
            if (wrong < 5) UNSCOPED_INFO("cell " << i << "," << j << ": " << std::hex << shot.pixel(centre));
            ++wrong;
        }
    }
    return wrong;
}

// The diagram study's result filled with the logistic map's iterates for r from 2.8 to 4 across
// the systems (after 300 unrecorded ones), in its first recorded column.
inline std::shared_ptr<study::Result> logistic_points(const study::ResolvedStudy& d) {
    auto points = std::make_shared<study::Result>(study::allocate_result(d));
    for (std::size_t sys = 0; sys < points->system_count; ++sys) {
        const double rr = 2.8 + 1.2 * static_cast<double>(sys) / (points->system_count - 1);
        double x = 0.3;
        for (int n = 0; n < 300; ++n)
            x = rr * x * (1 - x);
        points->status[sys] = study::SystemStatus::Ok;
        points->points.rows_filled[sys] = static_cast<std::uint32_t>(points->points.rows_per_system);
        for (std::size_t row = 0; row < points->points.rows_per_system; ++row)
            points->points.row(sys, row)[0] = x = rr * x * (1 - x);
    }
    return points;
}

} // namespace bif::test
