// A study whose GPU code would take long to compile runs on the CPU while the GPU backend compiles in
// the background (study::Backend::compile_in_background), with the backend's note, under auto only;
// fake backends stand in for both (the CUDA backend's own rule, big models in the app, is exercised
// on a GPU by the CUDA tests).
#include "engine/jobs/job.h"
#include "fake_backend.h"

#include <catch2/catch.hpp>

using namespace bif;
using namespace std::chrono_literals;

namespace {

// A GPU stand-in whose module is not ready; it compiles in the background when asked to, and says so.
class SlowCompilingGpu : public test::FakeBackend {
  public:
    explicit SlowCompilingGpu(bool defers) : FakeBackend("cuda", true, 0us), defers_(defers) {
        compile_time = 200ms;
    }
    std::string compile_in_background(const study::ResolvedStudy&) override {
        if (!defers_) return {};
        ++background_compiles;
        return "cuda: the GPU module compiles in the background; this run is on the CPU";
    }
    std::atomic<int> background_compiles{0};

  private:
    bool defers_;
};

struct Outcome {
    jobs::JobState state;
    std::shared_ptr<const study::Result> result;
};

Outcome run(std::shared_ptr<study::Backend> gpu, std::shared_ptr<study::Backend> cpu,
            study::BackendChoice choice) {
    jobs::BackendRegistry registry;
    registry.add(std::move(cpu));
    registry.add(std::move(gpu));
    registry.set_min_gpu_systems(1);
    jobs::JobOptions options;
    options.backend = choice;
    auto job = jobs::submit(registry, test::fake_study(8), options);
    REQUIRE(job->wait_for(10s));
    return {job->state(), job->result()};
}

bool has_note(const study::Result& r, const std::string& text) {
    for (const std::string& note : r.info.notes)
        if (note.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("under auto a slow GPU compile goes to the background and the CPU runs the study",
          "[jobs][deferred-compile]") {
    auto gpu = std::make_shared<SlowCompilingGpu>(true);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    const Outcome o = run(gpu, cpu, study::BackendChoice::Auto);
    REQUIRE(o.state == jobs::JobState::Succeeded);
    CHECK(o.result->info.backend == "cpu");
    CHECK(has_note(*o.result, "compiles in the background; this run is on the CPU"));
    CHECK(gpu->background_compiles == 1);
    CHECK(gpu->runs == 0);
    CHECK(cpu->runs == 1);
    for (std::size_t i = 0; i < 8; ++i)
        CHECK(o.result->points.value(i, 1, 0) == Approx(i / 7.0 * (i / 7.0) + 1));
}

TEST_CASE("a GPU that runs the study itself keeps auto's choice", "[jobs][deferred-compile]") {
    auto gpu = std::make_shared<SlowCompilingGpu>(false);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    const Outcome o = run(gpu, cpu, study::BackendChoice::Auto);
    REQUIRE(o.state == jobs::JobState::Succeeded);
    CHECK(o.result->info.backend == "cuda");
    CHECK(gpu->runs == 1);
    CHECK(cpu->runs == 0);
}

TEST_CASE("whoever names the GPU waits for its compile", "[jobs][deferred-compile]") {
    auto gpu = std::make_shared<SlowCompilingGpu>(true);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    const Outcome o = run(gpu, cpu, study::BackendChoice::Cuda);
    REQUIRE(o.state == jobs::JobState::Succeeded);
    CHECK(o.result->info.backend == "cuda");
    CHECK(gpu->background_compiles == 0);
    CHECK(gpu->runs == 1);
}

TEST_CASE("without a CPU that can run the study, the GPU runs it and compiles nothing aside",
          "[jobs][deferred-compile]") {
    auto gpu = std::make_shared<SlowCompilingGpu>(true);
    auto cpu = std::make_shared<test::FakeBackend>("cpu", false, 0us);
    const Outcome o = run(gpu, cpu, study::BackendChoice::Auto);
    REQUIRE(o.state == jobs::JobState::Succeeded);
    CHECK(o.result->info.backend == "cuda");
    CHECK(gpu->background_compiles == 0);
}
