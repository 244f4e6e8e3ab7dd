#include "ui/render/gl_types.h"

#include <QOpenGLContext>
#include <QOpenGLVersionFunctionsFactory>

namespace bif::render {

Gl* current_gl() {
    QOpenGLContext* context = QOpenGLContext::currentContext();
    if (!context) return nullptr;
    auto* gl = QOpenGLVersionFunctionsFactory::get<Gl>(context);
    if (!gl || !gl->initializeOpenGLFunctions()) return nullptr;
    return gl;
}

} // namespace bif::render
