// The app's exports (pictures, CSV, studies, models) written by engine/study/output_file.h's rules:
// a regular file whole or not at all (a temporary file renamed into place), an existing device or
// FIFO in place, never replaced by a plain file.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <functional>

class QPainter;

namespace bif::plot {

// An empty string when `bytes` went to `path`, else why not (with the path).
QString save_output(const QString& path, const QByteArray& bytes);

// The image encoded as `format` (PNG by default), saved as above.
QString save_image(const QString& path, const QImage& image, const char* format = "PNG");

// An SVG of `size` (96 dpi, view box 0 0 w h) drawn by `paint`, saved as above.
QString save_svg(const QString& path, QSize size, const QString& title,
                 const std::function<void(QPainter&)>& paint);

} // namespace bif::plot
