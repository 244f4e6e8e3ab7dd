// One study on two GPUs gives bit for bit what it gives on one: the MPGOS Duffing diagram and the
// Duffing period/Lyapunov map, shortened, run through the CUDA backend on GPU 0 alone, on GPUs 0 and
// 1 (batches dealt to whichever lane asks first, so which GPU runs a system changes from run to
// run) and on GPU 1 alone through the study's "gpus" key; every status, row count, point and scalar
// must be equal. A study whose cost falls along its sweep (forcing amplitude from 0.6, large and
// irregular oscillations, down to 0, a decaying one) must give both GPUs batches, as the backend's
// RunInfo note reports them, and cover the study exactly. A GPU the driver does not list fails with
// the GPUs there are. Needs two GPUs for these; with one it runs only the runner on one GPU given
// twice (two devices' lanes dealt batches of one study; the same bits as one lane's single batch),
// then prints why the rest is skipped and exits 77, as it does without a GPU or NVRTC.
#include "catch_session.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/ensemble_runner.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

using namespace bif;

namespace {

std::string studies_dir() {
    return std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
}

// An example study with `per_axis` values on each axis and at most the given sections.
study::Study example(const std::string& file, int per_axis, int transient, int recorded) {
    auto read = study::read_study_file(studies_dir() + "/" + file);
    REQUIRE(read.study);
    study::Study s = *read.study;
    for (auto& axis : s.sweep)
        axis.count = per_axis;
    s.bifurcation.transient_sections = std::min(s.bifurcation.transient_sections, transient);
    s.bifurcation.recorded_sections = std::min(s.bifurcation.recorded_sections, recorded);
    s.map.transient_sections = std::min(s.map.transient_sections, transient);
    s.map.recorded_sections = std::min(s.map.recorded_sections, recorded);
    s.precision = study::PrecisionChoice::Double;
    return s;
}

study::Result run_on(const study::Study& s, const std::vector<int>& devices) {
    const auto resolved = study::resolve_study(s, studies_dir()).resolved;
    REQUIRE(resolved);
    cuda::CudaBackendOptions options;
    options.devices = devices;
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    study::Result r = cuda::make_cuda_backend(options)->run(*resolved, control);
    std::printf("%zu systems on GPU(s)", r.system_count);
    for (const int d : s.gpus.empty() ? devices : s.gpus)
        std::printf(" %d", d);
    std::printf(": %.3f s (run %.3f s)", r.info.total_seconds, r.info.run_seconds);
    for (const std::string& note : r.info.notes)
        std::printf("; %s", note.c_str());
    std::printf("\n");
    REQUIRE(r.info.complete);
    return r;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void check_identical(const study::Result& one, const study::Result& other) {
    REQUIRE(one.system_count == other.system_count);
    CHECK(one.status == other.status);
    CHECK(one.points.rows_filled == other.points.rows_filled);
    CHECK(same_bits(one.points.values, other.points.values));
    REQUIRE(one.scalars.size() == other.scalars.size());
    for (std::size_t c = 0; c < one.scalars.size(); ++c) {
        INFO("scalar " << one.scalars[c].name);
        CHECK(same_bits(one.scalars[c].values, other.scalars[c].values));
    }
}

struct Share {
    int ordinal = -1;
    int batches = 0;
    std::size_t systems = 0;
};

// The backend's note "cuda: batches per GPU: 0: 9 (532480 systems), 1: 7 (516096 systems)".
std::vector<Share> shares_of(const study::Result& r) {
    const std::string prefix = "cuda: batches per GPU:";
    std::vector<Share> shares;
    for (const std::string& note : r.info.notes) {
        if (note.rfind(prefix, 0) != 0) continue;
        std::istringstream in(note.substr(prefix.size()));
        for (std::string entry; std::getline(in, entry, ',');) {
            Share s;
            if (std::sscanf(entry.c_str(), " %d: %d (%zu systems)", &s.ordinal, &s.batches, &s.systems) == 3)
                shares.push_back(s);
        }
    }
    return shares;
}

// The runner alone on `devices` (each GPU 0), `lanes` lanes each; batches handed over are recorded.
study::Result run_runner(const study::ResolvedStudy& study, const cuda::CompiledModule& module, int devices,
                         int lanes, std::vector<std::size_t>& batch_sizes) {
    const ensemble::SpecStorage spec(study);
    std::vector<cuda::EnsembleDevice> chosen(std::size_t(devices),
                                             cuda::EnsembleDevice{cuda::Context(0), &module});
    study::Result result = study::allocate_result(study);
    ensemble::ResultAssembly assembly(study, result);
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    cuda::RunnerOptions options;
    options.lanes = lanes;
    cuda::EnsembleRunner runner(std::move(chosen), study, spec, 8, control, options);
    REQUIRE(runner.run([&](const ensemble::BatchArrays& batch) {
        batch_sizes.push_back(batch.count);
        assembly.store(batch);
    }));
    std::printf("%d device(s) x %d lane(s): %zu batches,", devices, lanes, batch_sizes.size());
    for (const cuda::DeviceShare& share : runner.device_shares())
        std::printf(" %d batches (%zu systems)", share.batches, share.systems);
    std::printf("\n");
    return result;
}

} // namespace

TEST_CASE("one GPU given twice: dealt batches give one batch's bits", "[cuda][multigpu][shared][gpu]") {
    const auto resolved =
        study::resolve_study(example("duffing_bifurcation.json", 1 << 19, 256, 32), studies_dir()).resolved;
    REQUIRE(resolved);
    const cuda::ModuleCompiler compiler;
    const cuda::DeviceInfo device = cuda::list_devices().at(0);
    const cuda::CompiledModule module =
        compiler.compile(cuda::ensemble_request(*resolved, codegen::Precision::Double,
                                                ensemble::SpecStorage(*resolved).program()),
                         compiler.target_for(device));
    std::vector<std::size_t> one_batch, dealt;
    const study::Result one = run_runner(*resolved, module, 1, 1, one_batch);
    CHECK(one_batch.size() == 1);
    const study::Result shared = run_runner(*resolved, module, 2, 2, dealt);
    check_identical(one, shared);
    // every lane had one batch at least; guided sizes never grow (the lanes may finish out of order,
    // but the caller gets the batches in system order, the order they were dealt)
    CHECK(dealt.size() >= 4);
    for (std::size_t i = 1; i < dealt.size(); ++i)
        CHECK(dealt[i] <= dealt[i - 1]);
}

TEST_CASE("two GPUs give bit for bit what one gives", "[cuda][multigpu][gpu]") {
    struct Case {
        const char* file;
        int per_axis, transient, recorded;
    };
    // 2^19 systems each: several batches per lane (a lane's batch is at least half a wave of its GPU,
    // 59136 systems on an H200), so both GPUs take some
    for (const Case c :
         {Case{"duffing_bifurcation.json", 1 << 19, 256, 32}, Case{"duffing_period_map.json", 724, 64, 64}}) {
        DYNAMIC_SECTION(c.file) {
            study::Study s = example(c.file, c.per_axis, c.transient, c.recorded);
            const study::Result one = run_on(s, {0});
            CHECK(one.count(study::SystemStatus::Ok) > one.system_count * 9 / 10);
            const study::Result both = run_on(s, {0, 1});
            check_identical(one, both);
            const std::vector<Share> shares = shares_of(both);
            REQUIRE(shares.size() == 2);
            CHECK(shares[0].systems + shares[1].systems == both.system_count);
            // the same study on the other GPU alone, chosen by the study's key
            s.gpus = {1};
            check_identical(one, run_on(s, {}));
        }
    }
}

TEST_CASE("a study of uneven cost keeps both GPUs busy", "[cuda][multigpu][gpu]") {
    // the MPGOS transients: about a second of one GPU, so the second GPU is set up long before the end
    study::Study s = example("duffing_bifurcation.json", 1 << 19, 1024, 32);
    // a std::string, not = "b": g++ 12.2 warns falsely there (-Wrestrict, GCC PR 105651)
    s.sweep.at(0).name = std::string("b");
    s.sweep.at(0).from = 0.6;
    s.sweep.at(0).to = 0.0;
    s.parameters = {{"k", 0.2}, {"delta", 1}, {"omega", 1}};
    const study::Result one = run_on(s, {0});
    const study::Result both = run_on(s, {0, 1});
    check_identical(one, both);
    const std::vector<Share> shares = shares_of(both);
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].ordinal == 0);
    CHECK(shares[1].ordinal == 1);
    CHECK(shares[0].batches >= 1);
    CHECK(shares[1].batches >= 1);
    CHECK(shares[0].systems + shares[1].systems == both.system_count);
    // dealt in many batches rather than one even share per lane
    CHECK(shares[0].batches + shares[1].batches > 4);
}

TEST_CASE("a GPU the driver does not list is refused by name", "[cuda][multigpu][gpu]") {
    study::Study s = example("duffing_bifurcation.json", 256, 8, 8);
    const auto resolved = study::resolve_study(s, studies_dir()).resolved;
    REQUIRE(resolved);
    cuda::CudaBackendOptions options;
    options.devices = {0, 99};
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    try {
        (void)cuda::make_cuda_backend(options)->run(*resolved, control);
        FAIL("GPU 99 was accepted");
    } catch (const study::BackendError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("no GPU 99") != std::string::npos);
        CHECK(what.find("GPUs there are: 0, 1") != std::string::npos);
    }
}

// skip_main.cpp's checks, and two GPUs.
int main(int argc, char** argv) {
    const bif::cuda::NvrtcLibrary& nvrtc = bif::cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) {
        std::printf("SKIPPED: %s\n", nvrtc.unavailable_reason().c_str());
        return 77;
    }
    const bif::cuda::DriverLibrary& driver = bif::cuda::DriverLibrary::instance();
    if (!driver.available()) {
        std::printf("SKIPPED: %s\n", driver.unavailable_reason().c_str());
        return 77;
    }
    if (driver.device_count() < 2) {
        if (const int failed = bif::test::run_catch_session(argc, argv, {"[shared]"}); failed != 0)
            return failed;
        std::printf("SKIPPED: %d GPU(s) visible; the two-GPU tests need two\n", driver.device_count());
        return 77;
    }
    return bif::test::run_catch_session(argc, argv);
}
