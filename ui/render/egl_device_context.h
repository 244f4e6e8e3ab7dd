// An OpenGL 3.3+ core context on an EGL device, with no display server and no Qt: what the renderer
// needs on a headless GPU server (NVIDIA's EGL) or on CI (Mesa's software device, llvmpipe).
// libEGL.so.1 is opened at run time, never linked, so that the app starts where there is no EGL.
// The path: eglQueryDevicesEXT -> eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT) -> eglInitialize
// -> a pbuffer config -> eglBindAPI(EGL_OPENGL_API) -> a 3.3 core context, made current on a small
// pbuffer; draw into a render::Framebuffer.
//
//   EglDeviceContext egl;
//   std::string why;
//   if (!egl.create(cuda_ordinal, &why)) ...;     // current on this thread from here on
//   Renderer renderer; renderer.initialize(egl.gl());
#pragma once

#include "ui/render/gl_types.h"

#include <memory>
#include <string>

namespace bif::render {

class EglDeviceContext {
  public:
    EglDeviceContext();
    EglDeviceContext(const EglDeviceContext&) = delete;
    EglDeviceContext& operator=(const EglDeviceContext&) = delete;
    ~EglDeviceContext();

    // Creates the context and makes it current on this thread; false with a one-line reason (no
    // libEGL, no device extensions, no device that gives a 3.3 core context...). `cuda_device` >= 0
    // prefers the EGL device that is that CUDA device (EGL_NV_device_cuda); otherwise, and after it,
    // hardware devices come before software ones.
    bool create(int cuda_device = -1, std::string* why = nullptr);
    bool makeCurrent();
    void doneCurrent();
    // Destroys the context (made not current first); create() may be called again.
    void destroy();

    bool valid() const { return context_ != nullptr; }
    // The context's GL 3.3 core entry points (also what current_gl() gives while it is current).
    Gl& gl() { return gl_; }
    // Which device and GL this is, e.g. "EGL device 1/2 (CUDA device 0): NVIDIA H200/PCIe/SSE2, 4.6.0".
    const std::string& description() const { return description_; }
    // The CUDA ordinal of the chosen EGL device, -1 where EGL_NV_device_cuda does not say.
    int cudaDevice() const { return cuda_device_; }

  private:
    struct Egl; // the EGL entry points, resolved from the loaded library
    bool tryDevice(void* device, std::string* why);

    std::unique_ptr<Egl> egl_;
    void *display_ = nullptr, *surface_ = nullptr, *context_ = nullptr;
    Gl gl_;
    std::string description_;
    int cuda_device_ = -1;
};

} // namespace bif::render
