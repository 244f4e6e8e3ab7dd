// How the CUDA runner sizes one lane's batches (lane_capacity, lane_smallest_batch, guided_batch),
// no GPU needed: checked against the limits they must honour over a grid of study sizes, lane
// counts, memory and max_batch, on cases worked by hand, and by dealing whole studies.
#include "engine/cuda/device_info.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_runner.h"

#include <catch2/catch.hpp>

using bif::cuda::BatchLimits;
using bif::cuda::DeviceInfo;
using bif::cuda::guided_batch;
using bif::cuda::lane_capacity;
using bif::cuda::lane_smallest_batch;

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
    // memory to spare: half an even share per lane, rounded up (the first batch dealt), so every
    // lane has work and half the study is left for the faster ones; one lane takes it all
    CHECK(lane_capacity(roomy(1000, 2, 2)) == 250);
    CHECK(lane_capacity(roomy(1001, 4, 2)) == 126);
    CHECK(lane_capacity(roomy(3, 16, 2)) == 1);
    CHECK(lane_capacity(roomy(1000, 1, 1)) == 1000);
    // MPGOS's 46080 systems on one H100 (132 SMs x 7 blocks of 128) with two lanes: less than a wave,
    // so one round, a half each, not four quarters in two rounds
    BatchLimits mpgos = roomy(46080, 2, 2);
    mpgos.device_wave = 132 * 7 * 128;
    CHECK(lane_capacity(mpgos) == 23040);
    // 2^20 systems on two of them: an eighth each, more than a lane's half wave (59136)
    BatchLimits big = roomy(std::size_t(1) << 20, 4, 2);
    big.device_wave = 132 * 7 * 128;
    CHECK(lane_capacity(big) == 131072);
    // 2^18 on two: an eighth (32768) is under the half wave; 59136 each keeps the launches full
    BatchLimits mid = roomy(std::size_t(1) << 18, 4, 2);
    mid.device_wave = 132 * 7 * 128;
    CHECK(lane_capacity(mid) == 59136);
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
    for (const std::size_t systems : {1, 2, 127, 4096, 4097, 30720, 30721, 1 << 24, (1 << 24) + 1})
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
                            // a device of unknown wave, and an H100's 132 x 7 blocks of 128
                            l.device_wave = systems % 2 == 0 ? 118272 : 0;
                            const std::size_t c = lane_capacity(l);
                            const std::size_t smallest = lane_smallest_batch(l);
                            CHECK(smallest >= 1);
                            CHECK(smallest <= c);
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
                            // where memory is plentiful, the first round of batches covers half
                            if (max_batch == 0 && free_bytes / 2 / on_device / 3000 >= systems &&
                                host_systems / l.lanes >= systems)
                                CHECK(2 * c * l.lanes >= systems);
                        }
}

TEST_CASE("the smallest batch is the lane's part of one wave of the device", "[cuda][chunks]") {
    // an H200 running 7 blocks of 128 on each of 132 multiprocessors, two lanes: 59136 = 462 blocks each
    BatchLimits h200 = roomy(std::size_t(1) << 20, 4, 2);
    h200.device_wave = 132 * 7 * 128;
    CHECK(lane_smallest_batch(h200) == 59136);
    // a wave that does not split into whole blocks is rounded up to one
    h200.device_wave = 1000;
    CHECK(lane_smallest_batch(h200) == 512);
    // never above the lane's capacity (a share of a small study), never 0
    BatchLimits small = roomy(1000, 4, 2);
    small.device_wave = 132 * 7 * 128;
    CHECK(lane_capacity(small) == 250);
    CHECK(lane_smallest_batch(small) == 250);
    CHECK(lane_smallest_batch(roomy(1000, 4, 2)) == 1);
}

TEST_CASE("guided batches: worked examples", "[cuda][chunks]") {
    // 4 lanes: an eighth of what is left, rounded up, within [smallest, largest]
    CHECK(guided_batch(1000, 4, 1, 1000) == 125);
    CHECK(guided_batch(1001, 4, 1, 1000) == 126);
    CHECK(guided_batch(1000, 4, 200, 1000) == 200);
    CHECK(guided_batch(1000, 4, 1, 100) == 100);
    CHECK(guided_batch(150, 4, 200, 1000) == 150); // the tail: what is left
    CHECK(guided_batch(0, 4, 200, 1000) == 0);
    CHECK(guided_batch(1000, 1, 1, 1000) == 1000); // one lane: all at once
    CHECK(guided_batch(1000, 4, 300, 97) == 97);   // largest wins over smallest
}

TEST_CASE("dealing a study in guided batches", "[cuda][chunks]") {
    for (const std::size_t systems : {1, 97, 4096, 30720, 1 << 20, 1 << 22})
        for (const std::size_t lanes : {1, 2, 4, 16})
            for (const std::size_t smallest : {1, 97, 59136})
                for (const std::size_t largest : {97, 4096, 1 << 20}) {
                    INFO(systems << " systems, " << lanes << " lanes, smallest " << smallest << ", largest "
                                 << largest);
                    std::size_t dealt = 0, batches = 0, previous = largest;
                    while (dealt < systems) {
                        const std::size_t count = guided_batch(systems - dealt, lanes, smallest, largest);
                        REQUIRE(count >= 1);
                        REQUIRE(count <= largest);
                        // sizes never grow, and only the last is below the smallest
                        CHECK(count <= previous);
                        if (dealt + count < systems) CHECK(count >= std::min(smallest, largest));
                        previous = count;
                        dealt += count;
                        ++batches;
                    }
                    CHECK(dealt == systems);
                    // a study big against the smallest batch gives every lane two batches or more, and
                    // hence the faster lanes something to take from the slower
                    const std::size_t parts = lanes == 1 ? 1 : 2 * lanes;
                    if (largest >= systems && smallest <= systems / parts) CHECK(batches >= parts);
                }
}

TEST_CASE("a batch stages only the outputs that come back to the host", "[cuda][chunks]") {
    // the 10^8-system Lorenz map's shape: 2 axes, one recorded section of 3 states, 2 program scalars
    bif::cuda::BatchShape shape;
    shape.axes = 2;
    shape.point_rows = 1;
    shape.point_columns = 3;
    shape.scalar_columns = 2;
    shape.states = 3;
    shape.carry_words = 40;
    for (const int real_bytes : {8, 4}) {
        shape.real_bytes = real_bytes;
        const std::size_t rb = std::size_t(real_bytes);
        // the device holds every output (and the carry) whatever comes back
        shape.downloaded = {};
        const std::size_t device = shape.bytes_per_system();
        CHECK(device == (2 + 3 + 2) * rb + 4 * 40 + 2 * sizeof(int));
        CHECK(shape.staging_bytes_per_system() == (2 + 3 + 2) * rb + 2 * sizeof(int));
        // a map without period or exponent columns: its statuses alone come back
        shape.downloaded = {false, false};
        CHECK(shape.bytes_per_system() == device);
        CHECK(shape.staging_bytes_per_system() == 2 * rb + sizeof(int));
        // with a period column: the scalars too, still no points nor their row counts
        shape.downloaded = {false, true};
        CHECK(shape.staging_bytes_per_system() == (2 + 2) * rb + sizeof(int));
    }
}

TEST_CASE("the processes of a node share its GPUs", "[cuda][multigpu]") {
    std::vector<DeviceInfo> four(4);
    for (int i = 0; i < 4; ++i)
        four[std::size_t(i)].ordinal = i;
    const auto ordinals = [](const std::vector<DeviceInfo>& devices) {
        std::vector<int> o;
        for (const DeviceInfo& d : devices)
            o.push_back(d.ordinal);
        return o;
    };
    using bif::cuda::share_of_devices;
    // one process takes all; two take every other one, between them each GPU once
    CHECK(ordinals(share_of_devices(four, 0, 1)) == std::vector{0, 1, 2, 3});
    CHECK(ordinals(share_of_devices(four, 0, 2)) == std::vector{0, 2});
    CHECK(ordinals(share_of_devices(four, 1, 2)) == std::vector{1, 3});
    CHECK(ordinals(share_of_devices(four, 2, 3)) == std::vector{2});
    // as many processes as GPUs: one each; more processes than GPUs: they double up, in turn
    for (int p = 0; p < 4; ++p)
        CHECK(ordinals(share_of_devices(four, p, 4)) == std::vector{p});
    const std::vector<DeviceInfo> two(four.begin() + 2, four.end()); // GPUs 2 and 3 chosen (--gpus 2,3)
    CHECK(ordinals(share_of_devices(two, 0, 3)) == std::vector{2});
    CHECK(ordinals(share_of_devices(two, 1, 3)) == std::vector{3});
    CHECK(ordinals(share_of_devices(two, 2, 3)) == std::vector{2});
    CHECK(share_of_devices({}, 1, 2).empty());
}
