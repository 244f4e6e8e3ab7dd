// Exporting a chart at a size of the caller's choosing: the view is laid out at that size for the
// duration of the rendering, so that titles and tick labels keep their point size instead of being
// scaled with the picture.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

class QChartView;

namespace bif::ui {

QImage render_chart_image(QChartView& view, QSize size);
// An SVG file of `size` (its view box); false when the file cannot be written.
bool write_chart_svg(QChartView& view, const QString& path, QSize size, const QString& title);

} // namespace bif::ui
