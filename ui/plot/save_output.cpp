#include "ui/plot/save_output.h"

#include "engine/study/output_file.h"

#include <QBuffer>
#include <QFile>
#include <QPainter>
#include <QSvgGenerator>

namespace bif::plot {

QString save_output(const QString& path, const QByteArray& bytes) {
    const std::string why = study::write_output(QFile::encodeName(path).toStdString(),
                                                std::string(bytes.constData(), bytes.size()));
    if (why.empty()) return {};
    return QStringLiteral("cannot write %1: %2").arg(path, QString::fromStdString(why));
}

QString save_image(const QString& path, const QImage& image, const char* format) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, format)) return QStringLiteral("cannot encode the picture for %1").arg(path);
    return save_output(path, bytes);
}

QString save_svg(const QString& path, QSize size, const QString& title,
                 const std::function<void(QPainter&)>& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(96);
    svg.setTitle(title);
    QPainter painter;
    if (!painter.begin(&svg)) return QStringLiteral("cannot draw the SVG for %1").arg(path);
    paint(painter);
    if (!painter.end()) return QStringLiteral("cannot draw the SVG for %1").arg(path);
    return save_output(path, bytes);
}

} // namespace bif::plot
