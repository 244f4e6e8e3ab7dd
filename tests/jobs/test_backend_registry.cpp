// The registry's choice of backend: only `auto` may fall back to the CPU; an explicit request that
// cannot be honoured is a failure with the one-line reason, never a quiet run elsewhere. Under
// `auto` the work decides: few systems run on the CPU, big ensembles on an available GPU.
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

// An available GPU stand-in that counts how often it was asked whether it can run.
class CountingBackend : public test::FakeBackend {
  public:
    CountingBackend() : FakeBackend("cuda", true, 0us) {}
    study::Availability availability() const override {
        ++asked;
        return FakeBackend::availability();
    }
    mutable int asked = 0;
};

// A CPU stand-in that cannot run the study (no compiler, and the evaluator lacks something).
class UnsupportingCpu : public test::FakeBackend {
  public:
    UnsupportingCpu() : FakeBackend("cpu", true, 0us) {}
    study::Availability supports(const study::ResolvedStudy&) const override {
        return {false, "no C++ compiler"};
    }
};

jobs::BackendRegistry registry_of(std::vector<std::shared_ptr<study::Backend>> backends) {
    jobs::BackendRegistry registry;
    for (auto& b : backends)
        registry.add(std::move(b));
    return registry;
}

// Big enough for auto to consider the GPU.
int big() {
    return static_cast<int>(jobs::default_min_gpu_systems);
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
    SECTION("cuda available: it is chosen, however small the study") {
        auto cuda = std::make_shared<test::FakeBackend>("cuda", true, 0us);
        const auto s = registry_of({cpu, cuda}).select(study::BackendChoice::Cuda, *study);
        CHECK(s.backend == cuda);
        CHECK(s.failure.empty());
        CHECK(s.notes.empty());
    }
}

TEST_CASE("auto falls back to the CPU and says why", "[jobs][select]") {
    const auto study = test::fake_study(big());
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
}

TEST_CASE("auto sends big ensembles to the GPU and small studies to the CPU", "[jobs][select]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    auto cuda = std::make_shared<CountingBackend>();
    const auto registry = registry_of({cpu, cuda});
    const std::size_t threshold = registry.min_gpu_systems();
    REQUIRE(threshold == jobs::default_min_gpu_systems);

    SECTION("as many systems as the threshold: the GPU") {
        const auto study = test::fake_study(static_cast<int>(threshold));
        REQUIRE(study->system_count() == threshold);
        const auto s = registry.select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == cuda);
        REQUIRE(s.notes.size() == 1);
        CHECK(s.notes[0] == "auto: " + std::to_string(threshold) + " systems fill the GPU; running on cuda");
    }
    SECTION("one system fewer: the CPU, without asking the GPU driver") {
        const auto study = test::fake_study(static_cast<int>(threshold) - 1);
        const auto s = registry.select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == cpu);
        REQUIRE(s.notes.size() == 1);
        CHECK(s.notes[0] ==
              "auto: " + std::to_string(threshold - 1) + " systems; the CPU is faster for so few");
        CHECK(cuda->asked == 0);
    }
    SECTION("a single system says so in the singular") {
        const auto s = registry.select(study::BackendChoice::Auto, *test::fake_study(1));
        CHECK(s.backend == cpu);
        REQUIRE(s.notes.size() == 1);
        CHECK(s.notes[0] == "auto: 1 system; the CPU is faster for so few");
    }
    SECTION("a trajectory is one system: the CPU") {
        study::Study t;
        t.model.text = "x'=-x\ndone\n";
        t.analysis = study::AnalysisKind::Trajectory;
        const auto resolved = study::resolve_study(t, "").resolved;
        REQUIRE(resolved);
        CHECK(registry.select(study::BackendChoice::Auto, *resolved).backend == cpu);
    }
    SECTION("a small study the CPU cannot run still goes to the GPU") {
        auto unable = std::make_shared<UnsupportingCpu>();
        const auto s = registry_of({unable, cuda}).select(study::BackendChoice::Auto, *test::fake_study(3));
        CHECK(s.backend == cuda);
    }
    SECTION("a continuation counts its chains, not its systems") {
        const auto chains_of = [](int first_axis, int rows) {
            study::Study c = test::fake_study(1)->study;
            c.sweep = {{study::SweepTarget::Parameter, "k", 0.0, 1.0, first_axis, study::SweepScale::Linear}};
            if (rows > 1)
                c.sweep.push_back(
                    {study::SweepTarget::Parameter, "b", 0.1, 0.5, rows, study::SweepScale::Linear});
            c.bifurcation.continuation = true;
            const auto r = study::resolve_study(c, "").resolved;
            REQUIRE(r);
            return r;
        };
        const auto one_chain = chains_of(static_cast<int>(threshold), 1);
        REQUIRE(one_chain->system_count() == 2 * threshold);
        const auto single = registry.select(study::BackendChoice::Auto, *one_chain);
        CHECK(single.backend == cpu);
        REQUIRE(single.notes.size() == 1);
        CHECK(single.notes[0] == "auto: 1 continuation chain; the CPU is faster for so few");
        const auto many =
            registry.select(study::BackendChoice::Auto, *chains_of(2, static_cast<int>(threshold)));
        CHECK(many.backend == cuda);
        REQUIRE(many.notes.size() == 1);
        CHECK(many.notes[0] ==
              "auto: " + std::to_string(threshold) + " continuation chains fill the GPU; running on cuda");
    }
    SECTION("the threshold can be moved") {
        auto lowered = registry_of({cpu, cuda});
        lowered.set_min_gpu_systems(10);
        CHECK(lowered.select(study::BackendChoice::Auto, *test::fake_study(10)).backend == cuda);
        CHECK(lowered.select(study::BackendChoice::Auto, *test::fake_study(9)).backend == cpu);
    }
}

TEST_CASE("cpu is never replaced, and its own failure is reported", "[jobs][select]") {
    const auto study = test::fake_study(big());
    auto cuda = std::make_shared<test::FakeBackend>("cuda", true, 0us);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    CHECK(registry_of({cpu, cuda}).select(study::BackendChoice::Cpu, *study).backend == cpu);

    auto broken_cpu = std::make_shared<test::FakeBackend>("cpu", false, 0us);
    const auto s = registry_of({broken_cpu, cuda}).select(study::BackendChoice::Cpu, *study);
    CHECK(s.backend == nullptr);
    CHECK(s.failure == "cpu: no device in this test");
}
