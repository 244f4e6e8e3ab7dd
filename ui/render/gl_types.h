// What the renderer's parts share: the OpenGL 3.3 core functions they call (resolved from whatever
// context is current, so no widget is needed) and the rectangle a layer or a view covers.
#pragma once

#include <QOpenGLFunctions_3_3_Core>

namespace bif::render {

using Gl = QOpenGLFunctions_3_3_Core;

// The current context's 3.3 core functions, initialised; null when there is no current context or
// it cannot give 3.3 core.
Gl* current_gl();

// A rectangle of display coordinates (data values, or their log10 on a log axis). left may exceed
// right (and bottom top) for a reversed axis.
struct DataRect {
    double left = 0.0, bottom = 0.0, right = 1.0, top = 1.0;
};

} // namespace bif::render
