#include "engine/cuda/gl_interop.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/stream.h"

#include <utility>

namespace bif::cuda {

namespace {

bool has_gl_interop(const driver::EntryPoints& api) {
    return api.cuGLGetDevices_v2 && api.cuGraphicsGLRegisterBuffer && api.cuGraphicsUnregisterResource &&
           api.cuGraphicsMapResources && api.cuGraphicsUnmapResources &&
           api.cuGraphicsResourceGetMappedPointer_v2;
}

const driver::EntryPoints& interop_api(const DriverLibrary& driver) {
    const driver::EntryPoints& api = driver.api();
    if (!has_gl_interop(api)) throw CudaUnavailable("the NVIDIA driver has no OpenGL interoperability");
    return api;
}

} // namespace

GlContextDevice gl_context_device(const DriverLibrary& driver) noexcept {
    GlContextDevice found;
    try {
        if (!driver.available()) {
            found.reason = driver.unavailable_reason();
            return found;
        }
        const driver::EntryPoints& api = driver.api();
        if (!has_gl_interop(api)) {
            found.reason = "the NVIDIA driver has no OpenGL interoperability";
            return found;
        }
        unsigned count = 0;
        driver::CUdevice devices[8] = {};
        const driver::CUresult asked =
            api.cuGLGetDevices_v2(&count, devices, 8, driver::CU_GL_DEVICE_LIST_ALL);
        if (asked != driver::CUDA_SUCCESS || count == 0) {
            found.reason = "the OpenGL context does not run on a CUDA device (cuGLGetDevices: " +
                           (asked == driver::CUDA_SUCCESS ? std::string("none") : driver.error_name(asked)) +
                           ")";
            return found;
        }
        for (int ordinal = 0; ordinal < driver.device_count(); ++ordinal) {
            driver::CUdevice handle = 0;
            if (api.cuDeviceGet(&handle, ordinal) == driver::CUDA_SUCCESS && handle == devices[0]) {
                found.ordinal = ordinal;
                return found;
            }
        }
        found.reason = "the OpenGL context's CUDA device is not among the driver's devices";
    } catch (...) {
        found.reason = "CUDA device query failed: out of memory";
    }
    return found;
}

GlContextDevice gl_context_device() noexcept {
    return gl_context_device(DriverLibrary::instance());
}

GlBufferRegistration::GlBufferRegistration(const Context& context, unsigned gl_buffer, bool write_discard)
    : context_(context), gl_buffer_(gl_buffer) {
    const DriverLibrary& driver = context_.driver();
    interop_api(driver);
    context_.make_current();
    const unsigned flags = write_discard ? driver::CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD
                                         : driver::CU_GRAPHICS_REGISTER_FLAGS_NONE;
    BIF_CU_CALL(driver, cuGraphicsGLRegisterBuffer, &resource_, gl_buffer, flags);
}

GlBufferRegistration::GlBufferRegistration(GlBufferRegistration&& other) noexcept
    : context_(other.context_), gl_buffer_(std::exchange(other.gl_buffer_, 0)),
      resource_(std::exchange(other.resource_, nullptr)) {}

GlBufferRegistration& GlBufferRegistration::operator=(GlBufferRegistration&& other) noexcept {
    if (this != &other) {
        release();
        context_ = other.context_;
        gl_buffer_ = std::exchange(other.gl_buffer_, 0);
        resource_ = std::exchange(other.resource_, nullptr);
    }
    return *this;
}

GlBufferRegistration::~GlBufferRegistration() {
    release();
}

void GlBufferRegistration::release() noexcept {
    if (!resource_) return;
    try {
        context_.make_current();
        context_.driver().api().cuGraphicsUnregisterResource(resource_);
    } catch (...) {
        // A destructor cannot report; the driver frees the registration with the context.
    }
    resource_ = nullptr;
}

MappedGlBuffers::MappedGlBuffers(std::initializer_list<const GlBufferRegistration*> buffers,
                                 const Stream& stream)
    : stream_(stream) {
    for (const GlBufferRegistration* b : buffers)
        resources_.push_back(b->resource());
    const DriverLibrary& driver = stream.context().driver();
    interop_api(driver);
    stream.context().make_current();
    BIF_CU_CALL(driver, cuGraphicsMapResources, static_cast<unsigned>(resources_.size()), resources_.data(),
                stream.handle());
    try {
        for (driver::CUgraphicsResource r : resources_) {
            driver::CUdeviceptr pointer = 0;
            std::size_t bytes = 0;
            BIF_CU_CALL(driver, cuGraphicsResourceGetMappedPointer_v2, &pointer, &bytes, r);
            pointers_.push_back(pointer);
            bytes_.push_back(bytes);
        }
    } catch (...) {
        driver.api().cuGraphicsUnmapResources(static_cast<unsigned>(resources_.size()), resources_.data(),
                                              stream.handle());
        throw;
    }
}

MappedGlBuffers::~MappedGlBuffers() {
    try {
        stream_.context().make_current();
        stream_.context().driver().api().cuGraphicsUnmapResources(static_cast<unsigned>(resources_.size()),
                                                                  resources_.data(), stream_.handle());
    } catch (...) {
        // Unmapping fails only with a broken context, which the next call on it reports.
    }
}

} // namespace bif::cuda
