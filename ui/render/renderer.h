// Draws density and map layers into whatever framebuffer is bound, inside the current glViewport:
// the viewport shows the display-space rectangle `view`; a layer covers `extent` in the same space
// and is clipped to the viewport. Needs only a current OpenGL 3.3 core context (a QOpenGLWidget's,
// a QOffscreenSurface's, an EGL pbuffer's) with a framebuffer bound, no widget and no Qt GL class.
//
// Typical use: initialize() once per context, layers filled (host or device), then per frame
//   glViewport(plot rectangle); renderer.draw(layer, extent, view);
// and release() while the context is current before it goes away.
#pragma once

#include "ui/render/density_layer.h"
#include "ui/render/gl_types.h"
#include "ui/render/map_layer.h"

#include <QString>

namespace bif::render {

class Renderer {
  public:
    // Compiles the programs in the current context, calling it through current_gl(); false with
    // the reason in `error` when the context cannot give OpenGL 3.3 core or a program does not build.
    bool initialize(QString* error = nullptr);
    // The same through `gl`, the table of the current context (it must outlive the renderer's use).
    bool initialize(Gl& gl, QString* error = nullptr);
    bool initialized() const { return gl_ != nullptr; }
    Gl* gl() const { return gl_; }
    void release();

    void draw(const DensityLayer& layer, const DataRect& extent, const DataRect& view);
    void draw(const MapLayer& layer, const DataRect& extent, const DataRect& view);

  private:
    void drawQuad(GLuint program, const DataRect& extent, const DataRect& view);
    GLint at(GLuint program, const char* uniform) const {
        return gl_->glGetUniformLocation(program, uniform);
    }

    Gl* gl_ = nullptr;
    GLuint density_ = 0, map_ = 0; // linked programs
    GLuint vao_ = 0;
};

} // namespace bif::render
