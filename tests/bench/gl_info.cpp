// Prints which OpenGL the Qt platform gives this process (vendor, renderer, version, profile), like
// glxinfo -B: tests/device/gui-round.sh checks that the renderer is the NVIDIA GPU and not Mesa.
// Exit 1 when no context can be made current.
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <cstdio>

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    QOpenGLContext context;
    context.setFormat(format);
    QOffscreenSurface surface;
    surface.setFormat(format);
    surface.create();
    if (!context.create() || !context.makeCurrent(&surface)) {
        std::printf("platform %s: no OpenGL context\n", qPrintable(QGuiApplication::platformName()));
        return 1;
    }
    QOpenGLFunctions* gl = context.functions();
    const auto text = [gl](GLenum name) { return reinterpret_cast<const char*>(gl->glGetString(name)); };
    std::printf("platform %s\nGL_VENDOR %s\nGL_RENDERER %s\nGL_VERSION %s\n",
                qPrintable(QGuiApplication::platformName()), text(GL_VENDOR), text(GL_RENDERER),
                text(GL_VERSION));
    context.doneCurrent();
    return 0;
}
