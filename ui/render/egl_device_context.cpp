#include "ui/render/egl_device_context.h"

#define EGL_NO_PLATFORM_SPECIFIC_TYPES // no X11 headers: only the device platform is used
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <vector>

namespace bif::render {

struct EglDeviceContext::Egl {
    PFNEGLGETPROCADDRESSPROC getProcAddress = nullptr;
    PFNEGLQUERYSTRINGPROC queryString = nullptr;
    PFNEGLGETERRORPROC getError = nullptr;
    PFNEGLINITIALIZEPROC initialize = nullptr;
    PFNEGLCHOOSECONFIGPROC chooseConfig = nullptr;
    PFNEGLCREATEPBUFFERSURFACEPROC createPbufferSurface = nullptr;
    PFNEGLBINDAPIPROC bindApi = nullptr;
    PFNEGLCREATECONTEXTPROC createContext = nullptr;
    PFNEGLMAKECURRENTPROC makeCurrent = nullptr;
    PFNEGLDESTROYCONTEXTPROC destroyContext = nullptr;
    PFNEGLDESTROYSURFACEPROC destroySurface = nullptr;
    PFNEGLQUERYDEVICESEXTPROC queryDevices = nullptr;
    PFNEGLQUERYDEVICESTRINGEXTPROC queryDeviceString = nullptr;
    PFNEGLQUERYDEVICEATTRIBEXTPROC queryDeviceAttrib = nullptr;
    PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay = nullptr;

    // Opens libEGL.so.1 (kept open for the process: drivers do not like being unloaded) and
    // resolves the entry points; false with the reason.
    bool load(std::string* why);
    std::string error() const {
        char text[32];
        std::snprintf(text, sizeof text, "EGL error 0x%04x", static_cast<unsigned>(getError()));
        return text;
    }
};

namespace {

bool has_extension(const char* list, const char* name) {
    if (!list) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

bool fail(std::string* why, const std::string& reason) {
    if (why) *why = reason;
    return false;
}

template <class F>
bool resolve(void* library, PFNEGLGETPROCADDRESSPROC get, F& f, const char* name) {
    f = reinterpret_cast<F>(library ? dlsym(library, name) : nullptr);
    if (!f && get) f = reinterpret_cast<F>(get(name));
    return f != nullptr;
}

} // namespace

bool EglDeviceContext::Egl::load(std::string* why) {
    void* library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return fail(why, std::string("no libEGL.so.1: ") + dlerror());
    getProcAddress = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(library, "eglGetProcAddress"));
    if (!getProcAddress) return fail(why, "libEGL.so.1 has no eglGetProcAddress");
    const auto core = [&](auto& f, const char* name) { return resolve(library, getProcAddress, f, name); };
    if (!(core(queryString, "eglQueryString") && core(getError, "eglGetError") &&
          core(initialize, "eglInitialize") && core(chooseConfig, "eglChooseConfig") &&
          core(createPbufferSurface, "eglCreatePbufferSurface") && core(bindApi, "eglBindAPI") &&
          core(createContext, "eglCreateContext") && core(makeCurrent, "eglMakeCurrent") &&
          core(destroyContext, "eglDestroyContext") && core(destroySurface, "eglDestroySurface")))
        return fail(why, "libEGL.so.1 lacks an EGL 1.4 entry point");
    const char* client = queryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    for (const char* needed : {"EGL_EXT_device_enumeration", "EGL_EXT_platform_device"})
        if (!has_extension(client, needed) && !(std::strcmp(needed, "EGL_EXT_device_enumeration") == 0 &&
                                                has_extension(client, "EGL_EXT_device_base")))
            return fail(why, std::string("EGL has no ") + needed +
                                 " (client extensions: " + (client ? client : "none") + ")");
    const auto ext = [&](auto& f, const char* name) { return resolve(nullptr, getProcAddress, f, name); };
    if (!(ext(queryDevices, "eglQueryDevicesEXT") && ext(queryDeviceString, "eglQueryDeviceStringEXT") &&
          ext(queryDeviceAttrib, "eglQueryDeviceAttribEXT") &&
          ext(getPlatformDisplay, "eglGetPlatformDisplayEXT")))
        return fail(why, "EGL lists the device extensions but not their functions");
    return true;
}

EglDeviceContext::EglDeviceContext() = default;

EglDeviceContext::~EglDeviceContext() {
    destroy();
}

bool EglDeviceContext::create(int cuda_device, std::string* why) {
    destroy();
    if (!egl_) {
        auto egl = std::make_unique<Egl>();
        if (!egl->load(why)) return false;
        egl_ = std::move(egl);
    }
    std::vector<EGLDeviceEXT> devices(16);
    EGLint count = 0;
    if (!egl_->queryDevices(static_cast<EGLint>(devices.size()), devices.data(), &count) || count <= 0)
        return fail(why, "eglQueryDevicesEXT lists no device (" + egl_->error() + ")");
    devices.resize(static_cast<std::size_t>(count));

    // The order to try: the asked CUDA device (any, if none was asked), other CUDA devices, other
    // hardware, software (Mesa's llvmpipe) last.
    const auto rank = [&](EGLDeviceEXT d) {
        const char* extensions = egl_->queryDeviceString(d, EGL_EXTENSIONS);
        EGLAttrib ordinal = -1;
        if (has_extension(extensions, "EGL_NV_device_cuda") &&
            egl_->queryDeviceAttrib(d, EGL_CUDA_DEVICE_NV, &ordinal))
            return cuda_device < 0 || ordinal == cuda_device ? 0 : 1;
        return has_extension(extensions, "EGL_MESA_device_software") ? 3 : 2;
    };
    std::vector<std::pair<int, std::size_t>> order;
    for (std::size_t i = 0; i < devices.size(); ++i)
        order.emplace_back(rank(devices[i]), i);
    std::stable_sort(order.begin(), order.end());
    std::string reasons;
    for (const auto& [rank_of, i] : order) {
        std::string reason;
        if (tryDevice(devices[i], &reason)) {
            description_ = "EGL device " + std::to_string(i + 1) + "/" + std::to_string(devices.size()) +
                           (cuda_device_ >= 0 ? " (CUDA device " + std::to_string(cuda_device_) + ")" : "") +
                           ": " + description_;
            return true;
        }
        reasons += (reasons.empty() ? "" : "; ") + ("device " + std::to_string(i + 1) + ": " + reason);
    }
    return fail(why, "no EGL device gives an OpenGL 3.3 core context (" + reasons + ")");
}

bool EglDeviceContext::tryDevice(void* device, std::string* why) {
    EGLDisplay display = egl_->getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !egl_->initialize(display, &major, &minor))
        return fail(why, "eglInitialize failed (" + egl_->error() + ")");
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                        EGL_PBUFFER_BIT,
                                        EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT,
                                        EGL_RED_SIZE,
                                        8,
                                        EGL_GREEN_SIZE,
                                        8,
                                        EGL_BLUE_SIZE,
                                        8,
                                        EGL_ALPHA_SIZE,
                                        8,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!egl_->chooseConfig(display, config_attributes, &config, 1, &configs) || configs < 1)
        return fail(why, "no RGBA8 pbuffer config for desktop OpenGL");
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = egl_->createPbufferSurface(display, config, pbuffer_attributes);
    if (surface == EGL_NO_SURFACE) return fail(why, "no pbuffer (" + egl_->error() + ")");
    // The EGL 1.5 names; EGL_KHR_create_context gives the same values to 1.4.
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                         3,
                                         EGL_CONTEXT_MINOR_VERSION,
                                         3,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_NONE};
    EGLContext context = EGL_NO_CONTEXT;
    if (egl_->bindApi(EGL_OPENGL_API))
        context = egl_->createContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) {
        const std::string reason = "no OpenGL 3.3 core context (" + egl_->error() + ")";
        egl_->destroySurface(display, surface);
        return fail(why, reason);
    }
    display_ = display, surface_ = surface, context_ = context;
    std::string missing;
    const auto egl_proc = [this](const char* name) {
        return reinterpret_cast<GlProc>(egl_->getProcAddress(name));
    };
    if (!makeCurrent() || !gl_.load(egl_proc, &missing)) {
        destroy();
        return fail(why, missing.empty() ? "eglMakeCurrent failed" : "GL lacks " + missing);
    }
    const char* renderer = reinterpret_cast<const char*>(gl_.glGetString(GL_RENDERER));
    const char* version = reinterpret_cast<const char*>(gl_.glGetString(GL_VERSION));
    int gl_major = 0, gl_minor = 0;
    if (!version || std::sscanf(version, "%d.%d", &gl_major, &gl_minor) != 2 ||
        gl_major * 10 + gl_minor < 33) {
        const std::string reason = std::string("OpenGL ") + (version ? version : "?") + " is older than 3.3";
        destroy();
        return fail(why, reason);
    }
    EGLAttrib ordinal = -1;
    const char* extensions = egl_->queryDeviceString(static_cast<EGLDeviceEXT>(device), EGL_EXTENSIONS);
    if (has_extension(extensions, "EGL_NV_device_cuda") &&
        egl_->queryDeviceAttrib(static_cast<EGLDeviceEXT>(device), EGL_CUDA_DEVICE_NV, &ordinal))
        cuda_device_ = static_cast<int>(ordinal);
    description_ = std::string(renderer ? renderer : "?") + ", OpenGL " + version + ", EGL " +
                   std::to_string(major) + "." + std::to_string(minor);
    return true;
}

bool EglDeviceContext::makeCurrent() {
    if (!context_ || !egl_->makeCurrent(display_, surface_, surface_, context_)) return false;
    set_current_gl(&gl_);
    return true;
}

void EglDeviceContext::doneCurrent() {
    if (!context_) return;
    egl_->makeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    set_current_gl(nullptr);
}

void EglDeviceContext::destroy() {
    if (!context_) return;
    doneCurrent();
    egl_->destroyContext(display_, context_);
    egl_->destroySurface(display_, surface_);
    // No eglTerminate: a device's display is one per process, and another context may use it.
    display_ = surface_ = context_ = nullptr;
    gl_ = {};
    description_.clear();
    cuda_device_ = -1;
}

} // namespace bif::render
