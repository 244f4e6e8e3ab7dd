#include "ui/render/offscreen_context.h"

#include <QGuiApplication>
#include <QSurfaceFormat>

namespace bif::render {

bool OffscreenContext::create(QString* why) {
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    context_.setFormat(format);
    surface_.setFormat(format);
    surface_.create();
    if (!context_.create() || !context_.makeCurrent(&surface_)) {
        if (why)
            *why =
                QStringLiteral("no OpenGL context on the %1 platform").arg(QGuiApplication::platformName());
        return false;
    }
    const auto version = context_.format().version();
    if (version < qMakePair(3, 3)) {
        if (why)
            *why = QStringLiteral("OpenGL %1.%2 is older than 3.3").arg(version.first).arg(version.second);
        context_.doneCurrent();
        return false;
    }
    return true;
}

} // namespace bif::render
