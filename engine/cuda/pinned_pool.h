// Page-locked staging kept from one run for the next. Pinning host memory costs the driver tens of
// milliseconds for a big lane's staging (ensemble_batch.h), which every run paid again, and every
// block of a progressive run: a backend's runs take their staging from a pool instead, and give it
// back when their lanes end (all of a lane's copies are waited for by then).
//
//   PinnedPool pool;                                    // one per backend
//   PooledPinned staging = pool.take(bytes, [&](std::size_t n) { return PinnedBuffer(context, n); });
//   ... staging.data() ...                               // back to the pool when staging goes
//
// take() hands out the smallest kept buffer of at least `bytes` and at most four times what it would
// allocate, else a new one of `bytes` rounded up to an eighth of its power of two, 4 KiB at least (so
// that runs of almost the same size share buffers). The pool keeps at most `limit` bytes, dropping the
// buffers given back longest ago first; buffers over half the limit and pageable fallbacks are not kept.
// Thread-safe.
#pragma once

#include "engine/cuda/pinned_buffer.h"

#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>

namespace bif::cuda {

class PinnedPool;

// A buffer from a pool (or none); goes back to its pool when it goes.
class PooledPinned {
  public:
    PooledPinned() = default;
    PooledPinned(PooledPinned&& other) noexcept;
    PooledPinned& operator=(PooledPinned&& other) noexcept;
    PooledPinned(const PooledPinned&) = delete;
    PooledPinned& operator=(const PooledPinned&) = delete;
    ~PooledPinned();

    unsigned char* data() { return buffer_.data(); }
    const unsigned char* data() const { return buffer_.data(); }
    std::size_t size() const { return buffer_.size(); } // at least what was asked for
    bool pinned() const { return buffer_.pinned(); }

  private:
    friend class PinnedPool;
    PooledPinned(std::shared_ptr<PinnedPool> pool, PinnedBuffer buffer);
    void give_back() noexcept;

    std::shared_ptr<PinnedPool> pool_; // null: freed when it goes
    PinnedBuffer buffer_;
};

class PinnedPool : public std::enable_shared_from_this<PinnedPool> {
  public:
    using Allocate = std::function<PinnedBuffer(std::size_t bytes)>;
    static constexpr std::size_t default_limit = std::size_t(256) << 20;

    // Pools are shared: a buffer handed out keeps its pool alive.
    static std::shared_ptr<PinnedPool> make(std::size_t limit = default_limit);

    // At least `bytes` bytes (none for 0); `allocate` makes a new buffer where none kept fits.
    PooledPinned take(std::size_t bytes, const Allocate& allocate);
    std::size_t kept_bytes() const;
    std::size_t kept_buffers() const;
    // The size take() allocates for a request of `bytes`.
    static std::size_t rounded(std::size_t bytes);

  private:
    explicit PinnedPool(std::size_t limit) : limit_(limit) {}
    friend class PooledPinned;
    void keep(PinnedBuffer buffer) noexcept;

    std::size_t limit_;
    mutable std::mutex mutex_;
    std::list<PinnedBuffer> kept_; // given back most recently first
    std::size_t kept_bytes_ = 0;
};

} // namespace bif::cuda
