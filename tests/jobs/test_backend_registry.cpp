// The registry's choice of backend: only `auto` may fall back to the CPU; an explicit request that
// cannot be honoured is a failure with the one-line reason, never a quiet run elsewhere.
#include "engine/jobs/backend_registry.h"
#include "fake_backend.h"

#include <catch2/catch.hpp>

using namespace bif;
using namespace std::chrono_literals;

namespace {

// A GPU stand-in that is present but refuses this study.
class PickyBackend : public test::FakeBackend {
  public:
    PickyBackend() : FakeBackend("cuda", true, 0us) {}
    study::Availability supports(const study::ResolvedStudy&) const override {
        return {false, "rk4 is not offered on the GPU"};
    }
};

jobs::BackendRegistry registry_of(std::vector<std::shared_ptr<study::Backend>> backends) {
    jobs::BackendRegistry registry;
    for (auto& b : backends)
        registry.add(std::move(b));
    return registry;
}

} // namespace

TEST_CASE("an explicit cuda request that cannot be honoured fails with the reason", "[jobs][select]") {
    const auto study = test::fake_study(3);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);

    SECTION("cuda present but unavailable") {
        auto cuda = std::make_shared<test::FakeBackend>("cuda", false, 0us);
        const auto s = registry_of({cpu, cuda}).select(study::BackendChoice::Cuda, *study);
        CHECK(s.backend == nullptr);
        CHECK(s.failure == "cuda: no device in this test");
        CHECK(s.notes.empty());
    }
    SECTION("cuda present but does not support the study") {
        const auto s =
            registry_of({cpu, std::make_shared<PickyBackend>()}).select(study::BackendChoice::Cuda, *study);
        CHECK(s.backend == nullptr);
        CHECK(s.failure == "cuda: rk4 is not offered on the GPU");
    }
    SECTION("no cuda backend in this build") {
        const auto s = registry_of({cpu}).select(study::BackendChoice::Cuda, *study);
        CHECK(s.backend == nullptr);
        CHECK(s.failure == "cuda: this build has no CUDA backend");
    }
    SECTION("cuda available: it is chosen") {
        auto cuda = std::make_shared<test::FakeBackend>("cuda", true, 0us);
        const auto s = registry_of({cpu, cuda}).select(study::BackendChoice::Cuda, *study);
        CHECK(s.backend == cuda);
        CHECK(s.failure.empty());
        CHECK(s.notes.empty());
    }
}

TEST_CASE("auto falls back to the CPU and says why", "[jobs][select]") {
    const auto study = test::fake_study(3);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);

    SECTION("cuda unavailable") {
        auto cuda = std::make_shared<test::FakeBackend>("cuda", false, 0us);
        const auto s = registry_of({cpu, cuda}).select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == cpu);
        REQUIRE(s.notes.size() == 1);
        CHECK(s.notes[0] == "cuda: no device in this test; running on the CPU");
    }
    SECTION("cuda refuses the study") {
        const auto s =
            registry_of({cpu, std::make_shared<PickyBackend>()}).select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == cpu);
        REQUIRE(s.notes.size() == 1);
        CHECK(s.notes[0] == "cuda: rk4 is not offered on the GPU; running on the CPU");
    }
    SECTION("a build without cuda runs on the CPU without a note") {
        const auto s = registry_of({cpu}).select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == cpu);
        CHECK(s.notes.empty());
    }
    SECTION("cuda available: it wins") {
        auto cuda = std::make_shared<test::FakeBackend>("cuda", true, 0us);
        CHECK(registry_of({cpu, cuda}).select(study::BackendChoice::Auto, *study).backend == cuda);
    }
}

TEST_CASE("cpu is never replaced, and its own failure is reported", "[jobs][select]") {
    const auto study = test::fake_study(3);
    auto cuda = std::make_shared<test::FakeBackend>("cuda", true, 0us);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    CHECK(registry_of({cpu, cuda}).select(study::BackendChoice::Cpu, *study).backend == cpu);

    auto broken_cpu = std::make_shared<test::FakeBackend>("cpu", false, 0us);
    const auto s = registry_of({broken_cpu, cuda}).select(study::BackendChoice::Cpu, *study);
    CHECK(s.backend == nullptr);
    CHECK(s.failure == "cpu: no device in this test");
}
