// On a GPU: a map study run with its result kept there (engine/cuda/device_map.h) leaves in its cells
// exactly what the CUDA backend's host result holds, cell for cell: the float of each value of the
// chosen column, each status as its byte. The reference is the backend's ordinary run, which
// test_cuda_backend holds against the CPU backend; which batch a system runs in does not change its
// bits, so the kept runs use small batches (many scatters, each at its own offset). The cells'
// summary, made on the GPU, equals the one restated here from the host result: the range of the
// finite values of Ok or StoppedByModel systems, their categories, the statuses present.
#include "bif/render/map_summary.h"
#include "engine/cuda/context.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/cuda/device_map.h"
#include "engine/cuda/device_points.h"
#include "engine/cuda/render_kernels.h"
#include "engine/jobs/job.h"
#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"
#include "tests/jobs/host_kept_map.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace bif;

namespace {

const std::string studies_dir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";

std::shared_ptr<const study::ResolvedStudy> duffing_map(int nx, int ny, study::PrecisionChoice precision) {
    auto read = study::read_study_file(studies_dir + "/duffing_period_map.json");
    REQUIRE(read.study);
    read.study->sweep.at(0).count = nx;
    read.study->sweep.at(1).count = ny;
    read.study->map.transient_sections = 64;
    read.study->map.recorded_sections = 32;
    read.study->precision = precision;
    auto resolved = study::resolve_study(*read.study, studies_dir).resolved;
    REQUIRE(resolved);
    return resolved;
}

// The summary's rule (tests/jobs/host_kept_map.h), over the host result's column (null: no values)
// and statuses as the cells hold them.
render::MapSummary reference_summary(const std::vector<double>* values,
                                     const std::vector<study::SystemStatus>& status) {
    std::vector<float> cells(status.size(), NAN);
    std::vector<std::uint8_t> bytes(status.size());
    for (std::size_t i = 0; i < status.size(); ++i) {
        if (values) cells[i] = float((*values)[i]);
        bytes[i] = static_cast<std::uint8_t>(status[i]);
    }
    return test::summarise_on_host(cells, bytes);
}

// Basins of the Henon map over 16 x 8 initial values.
std::shared_ptr<const study::ResolvedStudy> small_henon_basins() {
    auto read = study::read_study_file(studies_dir + "/henon_basins.json");
    REQUIRE(read.study);
    read.study->sweep.at(0).count = 16;
    read.study->sweep.at(1).count = 8;
    auto basins = study::resolve_study(*read.study, studies_dir).resolved;
    REQUIRE(basins);
    return basins;
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

void check_kept(const study::ResolvedStudy& resolved, const study::Result& host, const std::string& column) {
    const cuda::Context context = cuda::Context(0);
    const cuda::RenderKernels kernels(context);
    const std::size_t nx = resolved.grid.values(0).size(), ny = resolved.grid.values(1).size();
    cuda::DeviceMap map(context, nx, ny);
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    cuda::CudaBackendOptions options;
    options.max_batch = 384; // many batches, none aligned to a row
    const cuda::DeviceMapRun run = cuda::run_map_on_device(resolved, column, map, kernels, control, options);
    CHECK(run.info.complete);
    CHECK(run.integration_seconds > 0.0);
    CHECK(run.integration_seconds <= run.info.run_seconds);

    std::vector<float> values;
    std::vector<std::uint8_t> statuses;
    map.download(values, statuses);
    const study::NumberColumn* reference = column.empty() ? nullptr : host.scalar(column);
    REQUIRE((column.empty() || reference));
    std::size_t status_differs = 0, value_differs = 0;
    for (std::size_t s = 0; s < host.system_count; ++s) {
        status_differs += statuses[s] != static_cast<std::uint8_t>(host.status[s]);
        const float expected = reference ? float(reference->values[s]) : NAN;
        if (!same_bits(values[s], expected)) {
            if (value_differs < 5) UNSCOPED_INFO("cell " << s << ": " << values[s] << ", host " << expected);
            ++value_differs;
        }
    }
    CHECK(status_differs == 0);
    CHECK(value_differs == 0);

    const render::MapSummary got = map.summary(kernels),
                             want = reference_summary(reference ? &reference->values : nullptr, host.status);
    CHECK(got.lo_key == want.lo_key);
    CHECK(got.hi_key == want.hi_key);
    CHECK(std::equal(std::begin(got.statuses), std::end(got.statuses), std::begin(want.statuses)));
    CHECK(std::equal(std::begin(got.categories), std::end(got.categories), std::begin(want.categories)));
}

} // namespace

TEST_CASE("a map kept on the GPU holds the host result's values and statuses", "[cuda][device_map][gpu]") {
    for (const auto precision : {study::PrecisionChoice::Double, study::PrecisionChoice::Float}) {
        const auto resolved = duffing_map(53, 41, precision);
        std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {});
        const study::Result host = cuda::make_cuda_backend()->run(*resolved, control);
        REQUIRE(host.info.complete);
        // the study has periods 1 and more, failures are possible but the map must not be empty
        REQUIRE(host.count(study::SystemStatus::Ok) > host.system_count / 2);
        for (const std::string column : {"period", "lambda_max", "max y1", ""}) {
            INFO((precision == study::PrecisionChoice::Float ? "float " : "double ")
                 << "column '" << column << "'");
            check_kept(*resolved, host, column);
        }
    }
}

TEST_CASE("a kept map refuses what it cannot hold", "[cuda][device_map][gpu]") {
    const auto resolved = duffing_map(16, 8, study::PrecisionChoice::Double);
    const cuda::Context context = cuda::Context(0);
    const cuda::RenderKernels kernels(context);
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    cuda::DeviceMap right(context, 16, 8), wrong(context, 16, 9);
    CHECK_THROWS_WITH(cuda::run_map_on_device(*resolved, "period", wrong, kernels, control),
                      Catch::Contains("128 systems for a map of 144 cells"));
    CHECK_THROWS_WITH(cuda::run_map_on_device(*resolved, "nonsense", right, kernels, control),
                      Catch::Contains("no column \"nonsense\""));

    const auto basins = small_henon_basins();
    // a basin's label comes from the host's attractor table; its period is the program's own
    CHECK_THROWS_WITH(cuda::run_map_on_device(*basins, "label", right, kernels, control),
                      Catch::Contains("no column \"label\""));
    CHECK(cuda::run_map_on_device(*basins, "period", right, kernels, control).info.complete);
}

TEST_CASE("a job keeps a map's columns on the GPU and previews its sample lattice",
          "[cuda][device_map][gpu]") {
    // 600 values of k: the preview takes every second one
    const auto resolved = duffing_map(600, 5, study::PrecisionChoice::Double);
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    std::shared_ptr<study::Backend> backend = cuda::make_cuda_backend();
    const study::Result host = backend->run(*resolved, control);
    REQUIRE(host.info.complete);

    jobs::BackendRegistry registry;
    registry.add(backend);
    std::vector<std::shared_ptr<const jobs::ResultBlock>> blocks;
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cuda;
    options.progressive = true;
    options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) { blocks.push_back(std::move(b)); };
    options.keep = study::KeepRequest{0, {"period", "lambda_max", "max y1"}};
    auto job = jobs::submit(registry, resolved, options);
    REQUIRE(job->wait_for(std::chrono::seconds(120)));
    INFO(job->failure());
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const auto kept = job->result();
    REQUIRE(kept->kept);
    CHECK(kept->status.empty());
    CHECK(kept->kept->width() == 600);
    CHECK(kept->kept->height() == 5);
    CHECK_THAT(kept->kept->where(), Catch::Contains("GPU 0"));

    REQUIRE(blocks.size() == 1);
    CHECK(blocks.front()->provisional);
    CHECK(blocks.front()->stride == 2);
    CHECK(blocks.front()->systems == study::kept_sample_systems(600, 5, 2));
    const study::Result& preview = *blocks.front()->result;
    for (std::size_t row = 0; row < preview.system_count; ++row) {
        const std::size_t s = blocks.front()->systems[row];
        CHECK(preview.status[row] == host.status[s]);
        CHECK(
            same_bits(float(preview.scalar("period")->values[row]), float(host.scalar("period")->values[s])));
    }

    const study::Result back = study::download_kept(*resolved, *kept->kept);
    CHECK(back.status == host.status);
    for (std::size_t c = 0; c < kept->kept->columns().size(); ++c) {
        const std::string& name = kept->kept->columns()[c];
        INFO(name);
        std::size_t differ = 0;
        for (std::size_t s = 0; s < host.system_count; ++s)
            differ += !same_bits(float(back.scalar(name)->values[s]), float(host.scalar(name)->values[s]));
        CHECK(differ == 0);
        const render::MapSummary got = kept->kept->summary(c),
                                 want = reference_summary(&host.scalar(name)->values, host.status);
        CHECK(got.lo_key == want.lo_key);
        CHECK(got.hi_key == want.hi_key);
        // one cell and the sample read back as the whole download has them
        const auto [value, status] = kept->kept->cell(c, 1234);
        CHECK(same_bits(value, float(host.scalar(name)->values[1234])));
        CHECK(status == host.status[1234]);
        std::vector<float> values;
        std::vector<std::uint8_t> statuses;
        kept->kept->sample(c, 3, values, statuses);
        const auto lattice = study::kept_sample_systems(600, 5, 3);
        REQUIRE(values.size() == lattice.size());
        std::size_t sample_differ = 0;
        for (std::size_t i = 0; i < lattice.size(); ++i)
            sample_differ += !same_bits(values[i], float(host.scalar(name)->values[lattice[i]])) ||
                             statuses[i] != std::uint8_t(host.status[lattice[i]]);
        CHECK(sample_differ == 0);
    }

    // a basin's label is the host's: the job runs it the ordinary way and says why
    options.keep = study::KeepRequest{0, {"label"}};
    options.progressive = false;
    options.on_block = {};
    const auto basins = small_henon_basins();
    auto refused = jobs::submit(registry, basins, options);
    REQUIRE(refused->wait_for(std::chrono::seconds(120)));
    REQUIRE(refused->state() == jobs::JobState::Succeeded);
    CHECK_FALSE(refused->result()->kept);
    CHECK(refused->result()->status.size() == 128);
    const auto& notes = refused->result()->info.notes;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
        return n.find("the result is in host memory: the GPU does not compute \"label\"") !=
               std::string::npos;
    }));
}

// A diagram whose points stay on the GPU (engine/cuda/device_points.h): every point, row count,
// status and axis value as the backend's ordinary run has them, in double and in float (whose points
// the scatter widens to doubles exactly); the range and a density image as the host restates them
// from that run's points with binning.h's rule.
TEST_CASE("a diagram's points kept on the GPU are the host result's points", "[cuda][device_points][gpu]") {
    for (const auto precision : {study::PrecisionChoice::Double, study::PrecisionChoice::Float}) {
        auto read = study::read_study_file(studies_dir + "/duffing_bifurcation_quick.json");
        REQUIRE(read.study);
        read.study->sweep.at(0).count = 3001;
        read.study->precision = precision;
        const auto resolved = study::resolve_study(*read.study, studies_dir).resolved;
        REQUIRE(resolved);
        std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {});
        const study::Result host = cuda::make_cuda_backend()->run(*resolved, control);
        REQUIRE(host.info.complete);
        cuda::CudaBackendOptions small;
        small.max_batch = 700; // five batches, each scattered at its own offset
        const study::Result kept =
            cuda::make_cuda_backend(small)->run_kept(*resolved, study::KeepRequest{0, {}}, control);
        INFO((precision == study::PrecisionChoice::Float ? "float" : "double"));
        REQUIRE(kept.kept_points);
        CHECK(kept.info.complete);
        CHECK(kept.points.values.empty());
        CHECK(kept.status == host.status);
        CHECK(kept.axes.at(0).values == host.axes.at(0).values);
        CHECK_THAT(kept.kept_points->where(), Catch::Contains("GPU 0"));

        const study::Result back = study::download_kept_points(kept);
        CHECK(back.points.rows_filled == host.points.rows_filled);
        REQUIRE(back.points.values.size() == host.points.values.size());
        std::size_t differ = 0;
        for (std::size_t k = 0; k < host.points.values.size(); ++k)
            differ += std::memcmp(&back.points.values[k], &host.points.values[k], sizeof(double)) != 0 &&
                      !(std::isnan(back.points.values[k]) && std::isnan(host.points.values[k]));
        CHECK(differ == 0);

        const test::HostKeptPoints reference(host);
        for (std::size_t c = 0; c < host.points.width(); ++c) {
            INFO(host.points.columns[c]);
            const auto range = kept.kept_points->range(c), want = reference.range(c);
            REQUIRE(range);
            REQUIRE(want);
            CHECK(range->first == want->first);
            CHECK(range->second == want->second);
            const auto& k = host.axes[0].values;
            const render::DensityBinning binning = render::make_density_binning(
                k.front(), k.back(), false, want->first, want->second, false, 700, 400);
            std::vector<std::uint32_t> got, expected;
            kept.kept_points->density(c, binning, got);
            reference.density(c, binning, expected);
            CHECK(got == expected);
            CHECK(std::accumulate(got.begin(), got.end(), std::uint64_t{0}) > 3001u * 16u);
        }
    }
}
