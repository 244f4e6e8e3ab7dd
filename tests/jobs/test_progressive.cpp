// Progressive jobs on the real CPU backend: the merged result equals a one-pass run bit for bit,
// blocks cover the grid once, progress names the passes, cancels leave consistent partial results,
// and a stand-in previews the first passes while the model compiles into a cold cache.
#include "block_collector.h"
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/result_merge.h"
#include "progressive_studies.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <stdlib.h>

using namespace bif;
using namespace std::chrono_literals;

namespace {

using test::Blocks;

jobs::BackendRegistry registry_of(std::shared_ptr<study::Backend> cpu) {
    jobs::BackendRegistry registry;
    registry.add(std::move(cpu));
    return registry;
}

std::shared_ptr<study::Backend> shared_cpu() {
    static std::shared_ptr<study::Backend> cpu = cpu::make_cpu_backend();
    return cpu;
}

std::shared_ptr<const study::Result> run_one_pass(std::shared_ptr<const study::ResolvedStudy> s,
                                                  std::shared_ptr<study::Backend> backend = shared_cpu()) {
    auto job = jobs::submit(registry_of(std::move(backend)), std::move(s));
    REQUIRE(job->wait_for(60s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    return job->result();
}

// Every system in exactly one non-provisional block, each block's rows equal to `reference`.
void check_blocks(Blocks& blocks, const study::Result& reference) {
    std::lock_guard lock(blocks.mutex);
    std::vector<int> seen(reference.system_count, 0);
    for (const auto& b : blocks.list) {
        REQUIRE(b->result);
        if (b->provisional) continue;
        for (std::size_t s : b->systems)
            ++seen[s];
        CHECK(test::rows_equal(*b->result, b->systems, reference));
    }
    CHECK(std::count(seen.begin(), seen.end(), 1) == long(reference.system_count));
}

std::filesystem::path fresh_cache_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "bifscope-progressive-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()));
    return pattern;
}

} // namespace

TEST_CASE("progressive results equal a one-pass run bit for bit", "[jobs][progressive]") {
    struct Case {
        const char* name;
        std::shared_ptr<const study::ResolvedStudy> study;
        int passes;
    };
    const Case c = GENERATE(values<Case>({{"map 24 x 20", test::duffing_map(24, 20, 16), 4},
                                          {"bifurcation of 100 values", test::duffing_bifurcation(100), 4},
                                          {"lyapunov over 80 values", test::duffing_lyapunov(80), 4}}));
    INFO(c.name);
    const auto reference = run_one_pass(c.study);
    Blocks blocks;
    std::mutex m;
    std::vector<study::Progress> progress;
    jobs::JobOptions options;
    options.progressive = true;
    options.on_block = blocks.sink();
    options.progress_interval = 1ms;
    options.on_progress = [&](const study::Progress& p) {
        std::lock_guard lock(m);
        progress.push_back(p);
    };
    auto job = jobs::submit(registry_of(shared_cpu()), c.study, options);
    REQUIRE(job->wait_for(60s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const auto merged = job->result();
    CHECK(merged->info.complete);
    CHECK(test::results_equal(*merged, *reference));
    CHECK(merged->info.code_path == reference->info.code_path);
    check_blocks(blocks, *reference);
    REQUIRE(blocks.size() >= std::size_t(c.passes));
    CHECK(blocks.list.front()->pass == 0);
    CHECK(blocks.list.front()->pass_count == c.passes);
    CHECK(blocks.list.back()->pass == c.passes - 1);
    CHECK(blocks.list.back()->stride == 1);

    std::lock_guard lock(m);
    REQUIRE(progress.size() >= 2);
    bool named_last_pass = false;
    for (std::size_t i = 1; i < progress.size(); ++i)
        CHECK(progress[i].fraction >= progress[i - 1].fraction);
    for (const auto& p : progress)
        named_last_pass = named_last_pass || p.phase.rfind("pass 4/4: ", 0) == 0;
    CHECK(named_last_pass);
    CHECK(progress.back().fraction == 1.0);
}

TEST_CASE("a job that is not progressive publishes its whole result as one block", "[jobs][progressive]") {
    const auto s = test::duffing_bifurcation(70, true); // a continuation: never cut
    Blocks blocks;
    jobs::JobOptions options;
    options.progressive = true; // asked, but a chain runs in one pass
    options.on_block = blocks.sink();
    auto job = jobs::submit(registry_of(shared_cpu()), s, options);
    REQUIRE(job->wait_for(60s));
    REQUIRE(blocks.size() == 1);
    const auto& only = *blocks.list[0];
    CHECK(only.pass_count == 1);
    CHECK(only.systems.size() == 140);
    CHECK_FALSE(only.provisional);
    CHECK(test::results_equal(*only.result, *job->result()));
    CHECK(test::results_equal(*job->result(), *run_one_pass(s)));
}

TEST_CASE("basins show a provisional preview, then the whole grid in one block", "[jobs][progressive]") {
    const auto s = test::duffing_basins(16);
    const auto reference = run_one_pass(s);
    Blocks blocks;
    jobs::JobOptions options;
    options.progressive = true;
    options.on_block = blocks.sink();
    auto job = jobs::submit(registry_of(shared_cpu()), s, options);
    REQUIRE(job->wait_for(60s));
    CHECK(test::results_equal(*job->result(), *reference));
    check_blocks(blocks, *reference);
    REQUIRE(blocks.size() == 2);
    const auto& preview = *blocks.list[0];
    CHECK(preview.provisional);
    CHECK(preview.systems == std::vector<std::size_t>{0, 8, 128, 136});
    // Its labels are its own (numbered over the preview), its other values those of the whole run.
    for (std::size_t i = 0; i < preview.systems.size(); ++i)
        CHECK(test::same_bits(preview.result->scalar("period")->values[i],
                              reference->scalar("period")->values[preview.systems[i]]));
    CHECK_FALSE(blocks.list[1]->provisional);
}

TEST_CASE("a cancelled progressive job keeps its finished systems and ends quickly",
          "[jobs][progressive][cancel]") {
    const auto s = test::duffing_map(24, 20, 200);
    const auto reference = run_one_pass(s);
    Blocks blocks;
    jobs::JobOptions options;
    options.progressive = true;
    options.threads = 1;
    options.on_block = blocks.sink();
    auto job = jobs::submit(registry_of(shared_cpu()), s, options);
    // Cancel once the coarse pass is in, well before the end.
    const auto start = std::chrono::steady_clock::now();
    while (blocks.size() < 1 && std::chrono::steady_clock::now() - start < 30s)
        std::this_thread::sleep_for(1ms);
    REQUIRE(blocks.size() >= 1);
    const auto asked = std::chrono::steady_clock::now();
    job->cancel();
    REQUIRE(job->wait_for(5s));
    CHECK(std::chrono::steady_clock::now() - asked < 100ms);
    CHECK(job->state() == jobs::JobState::Cancelled);
    const auto partial = job->result();
    REQUIRE(partial);
    CHECK_FALSE(partial->info.complete);
    std::vector<std::size_t> finished;
    for (std::size_t i = 0; i < partial->system_count; ++i)
        if (partial->status[i] != study::SystemStatus::NotRun) finished.push_back(i);
    CHECK(finished.size() >= blocks.list[0]->systems.size());
    CHECK(finished.size() < partial->system_count);
    // The finished systems hold the one-pass values; the others hold nothing.
    CHECK(test::rows_equal(jobs::gather_rows(*partial, finished), finished, *reference));
    for (std::size_t i = 0; i < partial->system_count; ++i)
        if (partial->status[i] == study::SystemStatus::NotRun)
            CHECK(std::isnan(partial->scalar("max y1")->values[i]));
    std::size_t published = 0;
    {
        std::lock_guard lock(blocks.mutex);
        for (const auto& b : blocks.list) {
            CHECK(test::rows_equal(*b->result, b->systems, *reference));
            CHECK(test::rows_equal(*b->result, b->systems, *partial));
            published += b->systems.size();
        }
    }
    CHECK(published == finished.size());
}

TEST_CASE("a stand-in previews the first passes while the model compiles", "[jobs][progressive][stand-in]") {
    const std::filesystem::path cache = fresh_cache_dir();
    cpu::CpuBackendOptions cold;
    cold.compile.cache_dir = cache;
    std::shared_ptr<study::Backend> backend = cpu::make_cpu_backend(cold);
    const auto s = test::duffing_bifurcation(100);
    CHECK_FALSE(backend->ready(*s));

    Blocks blocks;
    jobs::JobOptions options;
    options.progressive = true;
    options.stand_in = jobs::evaluator_stand_in();
    options.on_block = blocks.sink();
    const auto start = std::chrono::steady_clock::now();
    auto job = jobs::submit(registry_of(backend), s, options);
    REQUIRE(job->wait_for(120s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    CHECK(backend->ready(*s)); // compiled and cached now
    const auto merged = job->result();
    CHECK(merged->info.code_path == study::CodePath::NativeCompiled);

    // The same backend, now warm, in one pass: the reference.
    const auto reference = run_one_pass(s, backend);
    CHECK(reference->info.code_note == "cache hit");
    CHECK(test::results_equal(*merged, *reference));
    check_blocks(blocks, *reference);

    std::lock_guard lock(blocks.mutex);
    REQUIRE_FALSE(blocks.list.empty());
    CHECK(blocks.list.front()->provisional);
    CHECK(blocks.list.front()->pass == 0);
    CHECK_FALSE(blocks.list.back()->provisional);
    // Provisional blocks all come before the compiled ones.
    const auto first_final =
        std::find_if(blocks.list.begin(), blocks.list.end(), [](const auto& b) { return !b->provisional; });
    CHECK(std::none_of(first_final, blocks.list.end(), [](const auto& b) { return b->provisional; }));
    // The preview came long before the compile ended (seconds): well within a second of the submit.
    CHECK(blocks.first_at - start < 1s);
    CHECK(std::find_if(merged->info.notes.begin(), merged->info.notes.end(), [](const std::string& n) {
              return n.find("stand-in") != std::string::npos;
          }) != merged->info.notes.end());
    std::filesystem::remove_all(cache);
}
