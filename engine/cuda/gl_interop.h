// OpenGL buffers shared with CUDA through the driver API (cuGraphicsGLRegisterBuffer and friends,
// loaded at run time as optional entry points): a kernel writes into a GL buffer object's storage,
// and the GL then draws from it without the data leaving the GPU. No GL header is needed: a buffer
// is its GLuint name. Every call needs the GL context that owns the buffer current on the thread.
//
//   GlContextDevice where = gl_context_device();              // which CUDA device runs the GL context
//   Context context(where.ordinal);
//   GlBufferRegistration counts(context, gl_buffer_name);      // once per buffer storage
//   { MappedGlBuffers mapped({&counts}, stream);              // GL must not use it while mapped
//     kernels.bin_density(points, binning, mapped.pointer(0), ...); } // unmapped, ordered on stream
#pragma once

#include "engine/cuda/context.h"
#include "engine/cuda/driver_api.h"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace bif::cuda {

class DriverLibrary;
class Stream;

// The CUDA device that runs the current GL context, or why there is none (one line).
struct GlContextDevice {
    int ordinal = -1; // for Context(ordinal); -1 when none
    std::string reason;
    bool found() const { return ordinal >= 0; }
};

// Asks the driver (cuGLGetDevices) which CUDA devices run the GL context current on this thread.
// Never throws: no driver, a driver without GL interop, and a GL context on another vendor's device
// (Mesa, say) are all reasons.
GlContextDevice gl_context_device(const DriverLibrary& driver) noexcept;
GlContextDevice gl_context_device() noexcept; // the process-wide driver

// One GL buffer object registered with CUDA; unregistered on destruction (with the GL context
// current). Re-register when the buffer's storage is re-specified (glBufferData).
class GlBufferRegistration {
  public:
    // `write_discard`: CUDA overwrites the whole buffer each time it is mapped (the GL's old
    // contents need not be kept). Throws CudaUnavailable when the driver lacks GL interop, CudaError
    // when registration fails (a name that is no buffer, a GL context on another device).
    GlBufferRegistration(const Context& context, unsigned gl_buffer, bool write_discard);
    GlBufferRegistration(GlBufferRegistration&& other) noexcept;
    GlBufferRegistration& operator=(GlBufferRegistration&& other) noexcept;
    GlBufferRegistration(const GlBufferRegistration&) = delete;
    GlBufferRegistration& operator=(const GlBufferRegistration&) = delete;
    ~GlBufferRegistration();

    unsigned gl_buffer() const { return gl_buffer_; }
    driver::CUgraphicsResource resource() const { return resource_; }
    const Context& context() const { return context_; }

  private:
    void release() noexcept;
    Context context_;
    unsigned gl_buffer_ = 0;
    driver::CUgraphicsResource resource_ = nullptr;
};

// Registered buffers mapped for CUDA on a stream for the object's lifetime: their device addresses
// are valid until it is destroyed, which unmaps them (ordered after the work queued on the stream,
// and before any GL command issued afterwards).
class MappedGlBuffers {
  public:
    MappedGlBuffers(std::initializer_list<const GlBufferRegistration*> buffers, const Stream& stream);
    MappedGlBuffers(const MappedGlBuffers&) = delete;
    MappedGlBuffers& operator=(const MappedGlBuffers&) = delete;
    ~MappedGlBuffers();

    // Device address and size in bytes of the i-th buffer, in the order given.
    driver::CUdeviceptr pointer(std::size_t i) const { return pointers_.at(i); }
    std::size_t bytes(std::size_t i) const { return bytes_.at(i); }

  private:
    const Stream& stream_;
    std::vector<driver::CUgraphicsResource> resources_;
    std::vector<driver::CUdeviceptr> pointers_;
    std::vector<std::size_t> bytes_;
};

} // namespace bif::cuda
