#include "engine/cuda/stream.h"

#include "engine/cuda/driver_library.h"

#include <utility>

namespace bif::cuda {

Stream::Stream(const Context& context) : context_(context) {
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuStreamCreate, &stream_, driver::CU_STREAM_NON_BLOCKING);
}

Stream::Stream(Stream&& other) noexcept
    : context_(other.context_), stream_(std::exchange(other.stream_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
    if (this != &other) {
        release();
        context_ = other.context_;
        stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
}

Stream::~Stream() {
    release();
}

void Stream::release() noexcept {
    // Destroying a stream does not wait for its work; the driver finishes it. Errors cannot be reported here.
    if (stream_) context_.driver().api().cuStreamDestroy_v2(stream_);
    stream_ = nullptr;
}

void Stream::synchronize() const {
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuStreamSynchronize, stream_);
}

Event::Event(const Context& context) : context_(context) {
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuEventCreate, &event_, driver::CU_EVENT_DEFAULT);
}

Event::Event(Event&& other) noexcept
    : context_(other.context_), event_(std::exchange(other.event_, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept {
    if (this != &other) {
        release();
        context_ = other.context_;
        event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
}

Event::~Event() {
    release();
}

void Event::release() noexcept {
    if (event_) context_.driver().api().cuEventDestroy_v2(event_);
    event_ = nullptr;
}

void Event::record(const Stream& stream) {
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuEventRecord, event_, stream.handle());
}

void Event::synchronize() const {
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuEventSynchronize, event_);
}

float Event::elapsed_milliseconds(const Event& start, const Event& end) {
    end.synchronize();
    float milliseconds = 0.0f;
    BIF_CU_CALL(end.context_.driver(), cuEventElapsedTime, &milliseconds, start.event_, end.event_);
    return milliseconds;
}

} // namespace bif::cuda
