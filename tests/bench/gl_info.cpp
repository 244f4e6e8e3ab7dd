// Prints which OpenGL the Qt platform gives this process (vendor, renderer, version, profile), like
// glxinfo -B: `tests/device/round.sh gui` checks that the renderer is the NVIDIA GPU and not Mesa.
// Exit 1 when no OpenGL 3.3 core context can be made current.
#include "ui/render/offscreen_context.h"

#include <QGuiApplication>
#include <QOpenGLFunctions>
#include <cstdio>

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    bif::render::OffscreenContext context;
    QString why;
    if (!context.create(&why)) {
        std::printf("platform %s: %s\n", qPrintable(QGuiApplication::platformName()), qPrintable(why));
        return 1;
    }
    QOpenGLFunctions* gl = context.context().functions();
    const auto text = [gl](GLenum name) { return reinterpret_cast<const char*>(gl->glGetString(name)); };
    std::printf("platform %s\nGL_VENDOR %s\nGL_RENDERER %s\nGL_VERSION %s\n",
                qPrintable(QGuiApplication::platformName()), text(GL_VENDOR), text(GL_RENDERER),
                text(GL_VERSION));
    context.doneCurrent();
    return 0;
}
