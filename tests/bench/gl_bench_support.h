// The start of a GL benchmark: an offscreen OpenGL 3.3 context and the renderer in it, with the GL
// renderer's name printed (which GPU, or Mesa's llvmpipe, the figures come from).
#pragma once

#include "ui/render/offscreen_context.h"
#include "ui/render/renderer.h"

#include <cstdio>

namespace bif::bench {

inline bool start_renderer(const char* program, render::OffscreenContext& context,
                           render::Renderer& renderer) {
    QString error;
    if (!context.create(&error) || !renderer.initialize(&error)) {
        std::printf("%s: %s (run under xvfb-run -a)\n", program, qPrintable(error));
        return false;
    }
    render::Gl& gl = *renderer.gl();
    std::printf("renderer: %s, %s\n", reinterpret_cast<const char*>(gl.glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(gl.glGetString(GL_VERSION)));
    return true;
}

} // namespace bif::bench
