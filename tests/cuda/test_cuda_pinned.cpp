// PinnedBuffer against the fake driver (fake_driver.cpp), no GPU needed: page-locked through
// cuMemHostAlloc when the driver has it, freed through cuMemFreeHost exactly once; ordinary memory
// when the driver lacks the pair or cannot pin more; other driver errors reported. A driver without
// the pair is still a usable driver. A PinnedPool hands buffers given back to the next taker of
// about their size, keeps no more than its limit and frees each buffer once.
#include "engine/cuda/driver_library.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/pinned_buffer.h"
#include "engine/cuda/pinned_pool.h"
#include "engine/cuda/shared_library.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <numeric>
#include <utility>

using namespace bif::cuda;

namespace {

std::unique_ptr<DriverLibrary> fake_driver(const char* path) {
    setenv("BIF_FAKE_DEVICE_COUNT", "1", 1);
    auto driver = DriverLibrary::load({path});
    unsetenv("BIF_FAKE_DEVICE_COUNT");
    REQUIRE(driver->available());
    return driver;
}

// The fake's count of cuMemHostAlloc allocations not yet freed.
class LiveCount {
  public:
    explicit LiveCount(const char* path) {
        std::string failure;
        library_ = SharedLibrary::open_first({path}, failure);
        REQUIRE(library_);
        REQUIRE(library_->bind(count_, "bif_fake_pinned_live"));
    }
    int operator()() const { return count_(); }

  private:
    std::optional<SharedLibrary> library_;
    int (*count_)() = nullptr;
};

// Every byte writable and read back.
bool holds_bytes(PinnedBuffer& buffer) {
    unsigned char* data = buffer.data();
    for (std::size_t i = 0; i < buffer.size(); ++i)
        data[i] = static_cast<unsigned char>(i * 7 + 3);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        if (data[i] != static_cast<unsigned char>(i * 7 + 3)) return false;
    return true;
}

} // namespace

TEST_CASE("pinned buffers come from cuMemHostAlloc and go back through cuMemFreeHost", "[cuda][pinned]") {
    auto driver = fake_driver(BIF_FAKE_DRIVER_PATH);
    const LiveCount live(BIF_FAKE_DRIVER_PATH);
    REQUIRE(driver->api().cuMemHostAlloc != nullptr);
    REQUIRE(live() == 0);
    {
        PinnedBuffer a(*driver, 4096);
        CHECK(a.pinned());
        CHECK(a.size() == 4096);
        CHECK(holds_bytes(a));
        CHECK(live() == 1);
        PinnedBuffer b(std::move(a));
        CHECK(live() == 1);
        CHECK(b.pinned());
        CHECK(b.size() == 4096);
        CHECK(a.size() == 0);
        CHECK(a.data() == nullptr);
        PinnedBuffer c(*driver, 16);
        CHECK(live() == 2);
        c = std::move(b); // frees c's own memory
        CHECK(live() == 1);
        CHECK(c.size() == 4096);
    }
    CHECK(live() == 0);
    const PinnedBuffer empty(*driver, 0);
    CHECK(empty.size() == 0);
    CHECK(live() == 0);
}

TEST_CASE("a driver that cannot pin more gives pageable memory; its other errors are reported",
          "[cuda][pinned]") {
    auto driver = fake_driver(BIF_FAKE_DRIVER_PATH);
    const LiveCount live(BIF_FAKE_DRIVER_PATH);
    SECTION("out of memory") {
        setenv("BIF_FAKE_HOST_ALLOC", "2", 1);
        PinnedBuffer buffer(*driver, 1000);
        unsetenv("BIF_FAKE_HOST_ALLOC");
        CHECK_FALSE(buffer.pinned());
        CHECK(buffer.size() == 1000);
        CHECK(holds_bytes(buffer));
        CHECK(live() == 0);
    }
    SECTION("another error") {
        setenv("BIF_FAKE_HOST_ALLOC", "999", 1);
        try {
            PinnedBuffer buffer(*driver, 1000);
            unsetenv("BIF_FAKE_HOST_ALLOC");
            FAIL("error 999 must not be taken for out of memory");
        } catch (const CudaError& error) {
            unsetenv("BIF_FAKE_HOST_ALLOC");
            CHECK(error.call() == "cuMemHostAlloc");
            CHECK(error.code() == 999);
        }
        CHECK(live() == 0);
    }
}

TEST_CASE("a driver without cuMemHostAlloc is usable and gives pageable memory", "[cuda][pinned]") {
    auto driver = fake_driver(BIF_FAKE_DRIVER_WITHOUT_PINNED_PATH);
    CHECK(driver->api().cuMemHostAlloc == nullptr);
    CHECK(driver->api().cuMemFreeHost == nullptr);
    PinnedBuffer buffer(*driver, 1 << 20);
    CHECK_FALSE(buffer.pinned());
    CHECK(buffer.size() == std::size_t(1) << 20);
    CHECK(holds_bytes(buffer));
}

TEST_CASE("a pool hands a buffer given back to the next run instead of pinning again",
          "[cuda][pinned][pool]") {
    auto driver = fake_driver(BIF_FAKE_DRIVER_PATH);
    const LiveCount live(BIF_FAKE_DRIVER_PATH);
    int pinned = 0; // cuMemHostAlloc calls through the pool's allocator
    const PinnedPool::Allocate allocate = [&](std::size_t bytes) {
        ++pinned;
        return PinnedBuffer(*driver, bytes);
    };
    {
        const auto pool = PinnedPool::make(1 << 20);
        {
            PooledPinned a = pool->take(100000, allocate);
            CHECK(a.pinned());
            CHECK(a.size() >= 100000);
            CHECK(a.size() == PinnedPool::rounded(100000));
            CHECK(a.size() < 100000 * 9 / 8 + 4096);
            for (std::size_t i = 0; i < a.size(); ++i)
                a.data()[i] = static_cast<unsigned char>(i);
            CHECK(a.data()[a.size() - 1] == static_cast<unsigned char>(a.size() - 1));
            PooledPinned b = pool->take(100000, allocate);
            CHECK(pinned == 2);
            CHECK(a.data() != b.data());
        }
        CHECK(pool->kept_buffers() == 2);
        CHECK(live() == 2);
        {
            // the next run of the same size, and one a little smaller: no new pinning
            PooledPinned a = pool->take(100000, allocate);
            PooledPinned b = pool->take(90000, allocate);
            CHECK(pinned == 2);
            CHECK(pool->kept_buffers() == 0);
            // far smaller than anything kept, or larger: pinned anew
            PooledPinned small = pool->take(1000, allocate);
            PooledPinned large = pool->take(300000, allocate);
            CHECK(pinned == 4);
            PooledPinned moved(std::move(large));
            CHECK(moved.size() >= 300000);
            CHECK(large.size() == 0);
        }
        // within the limit (1 MiB) the most recent stay: 4096 + 2 x ~100 KB + ~300 KB
        CHECK(pool->kept_buffers() == 4);
        CHECK(pool->kept_bytes() <= std::size_t(1) << 20);
        {
            // over half the limit: never kept
            PooledPinned huge = pool->take(700000, allocate);
            CHECK(pinned == 5);
        }
        CHECK(pool->kept_buffers() == 4);
        CHECK(live() == 4);
        {
            // two of 400 KB given back push out the buffers given back longest ago
            PooledPinned a = pool->take(400000, allocate), b = pool->take(400000, allocate);
        }
        CHECK(pool->kept_bytes() <= std::size_t(1) << 20);
        CHECK(live() == int(pool->kept_buffers()));
    }
    CHECK(live() == 0); // the pool gone, every buffer freed once
}

TEST_CASE("a pool reuses tiny buffers too (a lane's one-word staging)", "[cuda][pinned][pool]") {
    auto driver = fake_driver(BIF_FAKE_DRIVER_PATH);
    int pinned = 0;
    const PinnedPool::Allocate allocate = [&](std::size_t bytes) {
        ++pinned;
        return PinnedBuffer(*driver, bytes);
    };
    const auto pool = PinnedPool::make();
    for (int run = 0; run < 3; ++run) {
        PooledPinned word = pool->take(4, allocate), spare = pool->take(16, allocate);
        CHECK(word.size() == 4096);
        CHECK(word.data() != spare.data());
    }
    CHECK(pinned == 2);
}

TEST_CASE("a pool keeps no pageable fallback and no empty buffer", "[cuda][pinned][pool]") {
    setenv("BIF_FAKE_HOST_ALLOC", "2", 1); // CUDA_ERROR_OUT_OF_MEMORY: pageable memory instead
    auto driver = fake_driver(BIF_FAKE_DRIVER_PATH);
    const auto pool = PinnedPool::make();
    {
        PooledPinned a = pool->take(5000, [&](std::size_t bytes) { return PinnedBuffer(*driver, bytes); });
        CHECK_FALSE(a.pinned());
        CHECK(a.size() >= 5000);
        const PooledPinned none =
            pool->take(0, [&](std::size_t bytes) { return PinnedBuffer(*driver, bytes); });
        CHECK(none.size() == 0);
    }
    unsetenv("BIF_FAKE_HOST_ALLOC");
    CHECK(pool->kept_buffers() == 0);
}
