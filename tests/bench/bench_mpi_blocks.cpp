// What a distributed run (bifscope-cli under mpirun) moves per block: for blocks of the Duffing
// diagram (resources/studies/duffing_bifurcation_quick.json: 256 transient + 32 recorded forcing
// periods per system, RKCK45 at 1e-8) on the CPU backend, the seconds to run a block, the bytes of
// its message (encode_block) and the seconds to encode and decode it. The scaling model in README.md
// ("Many nodes") starts from these figures.
//
//   bench_mpi_blocks [threads]
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/result_bytes.h"
#include "engine/model/input_file.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    using namespace bif;
    const unsigned threads = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 0;
    const std::string path =
        std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/duffing_bifurcation_quick.json";
    const auto file = model::read_input_file(path);
    const auto read = study::read_study_json(*file.text);
    const auto resolved =
        study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies").resolved;
    if (!resolved) return std::fprintf(stderr, "cannot resolve %s\n", path.c_str()), 1;
    auto backend = cpu::make_cpu_backend();
    std::atomic<bool> cancel{false};
    std::printf("systems  run_s    per_system_ms  bytes     bytes/system  encode+decode_ms\n");
    for (std::size_t count : {16, 64, 256, 1024}) {
        study::ResolvedStudy part = *resolved;
        std::vector<std::size_t> systems(count);
        std::iota(systems.begin(), systems.end(), std::size_t{0});
        part.grid = resolved->grid.subset(systems);
        part.run_system_count = resolved->system_count();
        study::RunControl control(cancel, {}, threads);
        backend->run(part, control); // compiled and cached before the timed run
        auto start = std::chrono::steady_clock::now();
        jobs::ResultBlock block;
        block.result = std::make_shared<const study::Result>(backend->run(part, control));
        block.systems = systems;
        const double run_s = seconds_since(start);
        start = std::chrono::steady_clock::now();
        const auto bytes = jobs::encode_block(block);
        const auto back = jobs::decode_block(bytes);
        const double codec_ms = 1e3 * seconds_since(start);
        std::printf("%-8zu %-8.3f %-14.3f %-9zu %-13.1f %.3f\n", count, run_s, 1e3 * run_s / double(count),
                    bytes.size(), double(bytes.size()) / double(count), codec_ms);
        if (back.result->points.values.size() != block.result->points.values.size()) return 1;
    }
    return 0;
}
