// Draws density and map layers into whatever framebuffer is bound, inside the current glViewport:
// the viewport shows the display-space rectangle `view`; a layer covers `extent` in the same space
// and is clipped to the viewport. Needs only a current OpenGL 3.3 core context (a QOpenGLWidget's,
// or a QOffscreenSurface's with a framebuffer object), no widget.
//
// Typical use: initialize() once per context, layers filled (host or device), then per frame
//   glViewport(plot rectangle); renderer.draw(layer, extent, view);
// and release() while the context is current before it goes away.
#pragma once

#include "ui/render/density_layer.h"
#include "ui/render/gl_types.h"
#include "ui/render/map_layer.h"

#include <QOpenGLShaderProgram>
#include <QString>
#include <memory>

namespace bif::render {

class Renderer {
  public:
    // Compiles the programs in the current context; false with the reason in `error` when the
    // context cannot give OpenGL 3.3 core or a program does not build.
    bool initialize(QString* error = nullptr);
    bool initialized() const { return gl_ != nullptr; }
    Gl* gl() const { return gl_; }
    void release();

    void draw(const DensityLayer& layer, const DataRect& extent, const DataRect& view);
    void draw(const MapLayer& layer, const DataRect& extent, const DataRect& view);

  private:
    void drawQuad(QOpenGLShaderProgram& program, const DataRect& extent, const DataRect& view);

    Gl* gl_ = nullptr;
    std::unique_ptr<QOpenGLShaderProgram> density_, map_;
    GLuint vao_ = 0;
};

} // namespace bif::render
