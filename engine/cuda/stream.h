// A CUDA stream (work queue) and events on it, for ordering and timing with the GPU's own clock.
//
//   Stream stream(context);
//   Event start(context), stop(context);
//   start.record(stream); kernel.launch(shape, stream, ...); stop.record(stream);
//   float ms = Event::elapsed_milliseconds(start, stop); // waits for stop
#pragma once

#include "engine/cuda/context.h"

namespace bif::cuda {

class Stream {
  public:
    explicit Stream(const Context& context); // a non-blocking stream (does not wait on stream 0)
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();

    void synchronize() const; // waits for the stream's work; reports errors of earlier launches
    driver::CUstream handle() const { return stream_; }
    const Context& context() const { return context_; }

  private:
    void release() noexcept;
    Context context_;
    driver::CUstream stream_ = nullptr;
};

class Event {
  public:
    explicit Event(const Context& context);
    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();

    void record(const Stream& stream);
    void synchronize() const;
    // Time between two recorded events (waits for `end`), about 0.5 microsecond resolution.
    static float elapsed_milliseconds(const Event& start, const Event& end);

  private:
    void release() noexcept;
    Context context_;
    driver::CUevent event_ = nullptr;
};

} // namespace bif::cuda
