// How the CUDA runner sizes one lane's batches (lane_capacity), no GPU needed: checked against the
// limits it must honour over a grid of study sizes, lane counts, memory and max_batch, and on
// cases worked by hand.
#include "engine/cuda/ensemble_runner.h"

#include <catch2/catch.hpp>

using bif::cuda::BatchLimits;
using bif::cuda::lane_capacity;

namespace {

BatchLimits roomy(std::size_t systems, std::size_t lanes, std::size_t lanes_on_device) {
    BatchLimits l;
    l.systems = systems;
    l.lanes = lanes;
    l.lanes_on_device = lanes_on_device;
    l.device_free_bytes = std::size_t(80) << 30;
    l.device_bytes_per_system = 1000;
    l.host_systems = std::size_t(1) << 40;
    return l;
}

} // namespace

TEST_CASE("worked examples of batch sizes", "[cuda][chunks]") {
    // memory to spare: an even share per lane, rounded up, so every lane has work
    CHECK(lane_capacity(roomy(1000, 2, 2)) == 500);
    CHECK(lane_capacity(roomy(1001, 4, 2)) == 251);
    CHECK(lane_capacity(roomy(3, 16, 2)) == 1);
    // 1 GB free on a device of two lanes at 1000 bytes a system: a quarter of 1e9 / 1000 each
    BatchLimits device = roomy(10'000'000, 2, 2);
    device.device_free_bytes = 1'000'000'000;
    CHECK(lane_capacity(device) == 250'000);
    // the host holds 1000 systems for all 4 lanes
    BatchLimits host = roomy(10'000'000, 4, 2);
    host.host_systems = 1000;
    CHECK(lane_capacity(host) == 250);
    BatchLimits capped = roomy(4096, 2, 2);
    capped.max_batch = 97;
    CHECK(lane_capacity(capped) == 97);
    // nothing fits: one system at a time rather than none
    BatchLimits full = roomy(4096, 2, 2);
    full.device_free_bytes = 0;
    CHECK(lane_capacity(full) == 1);
}

TEST_CASE("batch sizes honour every limit", "[cuda][chunks]") {
    for (const std::size_t systems : {1, 2, 127, 4096, 30720, 1 << 24})
        for (const std::size_t on_device : {1, 2})
            for (const std::size_t devices : {1, 3, 8})
                for (const std::size_t free_bytes :
                     {std::size_t(0), std::size_t(1) << 20, std::size_t(80) << 30})
                    for (const std::size_t host_systems : {std::size_t(5), std::size_t(100'000)})
                        for (const std::size_t max_batch : {0, 97}) {
                            BatchLimits l;
                            l.systems = systems;
                            l.lanes = devices * on_device;
                            l.lanes_on_device = on_device;
                            l.device_free_bytes = free_bytes;
                            l.device_bytes_per_system = 3000;
                            l.host_systems = host_systems;
                            l.max_batch = max_batch;
                            const std::size_t c = lane_capacity(l);
                            INFO(systems << " systems, " << l.lanes << " lanes, " << free_bytes
                                         << " bytes free, " << host_systems << " host systems, max "
                                         << max_batch);
                            REQUIRE(c >= 1);
                            if (max_batch > 0) CHECK(c <= max_batch);
                            if (c > 1) {
                                // the device's lanes together within half its free memory
                                CHECK(c * on_device * l.device_bytes_per_system <= free_bytes / 2);
                                // every lane's batch together within the host budget
                                CHECK(c * l.lanes <= host_systems);
                                // no lane left without work when the study could give it some
                                CHECK((c - 1) * l.lanes < systems);
                            }
                            // where memory is plentiful, the lanes cover the study in one round
                            if (max_batch == 0 && free_bytes / 2 / on_device / 3000 >= systems &&
                                host_systems / l.lanes >= systems)
                                CHECK(c * l.lanes >= systems);
                        }
}
