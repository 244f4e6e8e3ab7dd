// On a GPU: the launch helpers run the contract kernel for a hand-written Lorenz model on many
// parameter sets, in double and float, and the results match the host (the same model compiled by
// the host compiler) and the Lorenz formulas written out here. Compile times (cold, cached) and
// the kernel time are printed for the round's log.
#include "contract_kernel.cuh"
#include "cuda_test_support.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/module.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/stream.h"
#include "hand_lorenz.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace bif::cuda;
using bif::cuda::testing::contract_request;
using bif::cuda::testing::fresh_directory;
using bif::cuda::testing::test_file;

namespace {

template <class Real>
struct Inputs {
    int n = 0;
    std::vector<Real> y, p, t; // structure of arrays: y[i + k*n]
};

template <class Real>
Inputs<Real> random_inputs(int n) {
    std::mt19937_64 random(20240611);
    std::uniform_real_distribution<double> state(-20.0, 20.0), sigma(1.0, 20.0), rho(0.0, 250.0),
        beta(0.5, 4.0);
    Inputs<Real> in;
    in.n = n;
    in.y.resize(3 * static_cast<std::size_t>(n));
    in.p.resize(3 * static_cast<std::size_t>(n));
    in.t.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k)
            in.y[i + k * n] = static_cast<Real>(state(random));
        in.p[i] = static_cast<Real>(sigma(random));
        in.p[i + n] = static_cast<Real>(rho(random));
        in.p[i + 2 * n] = static_cast<Real>(beta(random));
        in.t[i] = static_cast<Real>(i) * Real(0.001);
    }
    return in;
}

// |a - b| <= tolerance * max(1, |b|)
template <class Real>
bool close(Real a, Real b, double tolerance) {
    return std::abs(double(a) - double(b)) <= tolerance * std::max(1.0, std::abs(double(b)));
}

struct RunResult {
    double cold_seconds = 0;
    double cached_seconds = 0;
    float kernel_ms = 0;
    double module_load_seconds = 0;
    int registers = 0;
    int local_bytes = 0;
};

template <class Real>
RunResult run_and_compare(const Context& context, const std::string& real_name, int n, double tolerance) {
    using Model = HandLorenz<Real>;
    using Layout = ContractLayout<Model>;
    const std::filesystem::path cache_dir = fresh_directory("gpu-" + real_name);
    const ModuleCompiler compiler{ModuleCache(cache_dir)};
    const Target target = compiler.target_for(context.device());
    const std::string type = "HandLorenz<" + real_name + ">";
    const CompileRequest request = contract_request(test_file("hand_lorenz.h"), type);
    RunResult result;
    const CompiledModule cold = compiler.compile(request, target);
    const CompiledModule cached = compiler.compile(request, target);
    REQUIRE_FALSE(cold.from_cache());
    REQUIRE(cached.from_cache());
    result.cold_seconds = cold.seconds();
    result.cached_seconds = cached.seconds();

    const auto load_start = std::chrono::steady_clock::now();
    const Module module(context, cached);
    result.module_load_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    const Kernel kernel = module.kernel("contract_kernel<" + type + ">");
    result.registers = kernel.registers();
    result.local_bytes = kernel.local_bytes();

    const Inputs<Real> in = random_inputs<Real>(n);
    DeviceBuffer<Real> y(context, in.y.size()), p(context, in.p.size()), t(context, in.t.size());
    DeviceBuffer<Real> out(context, static_cast<std::size_t>(n) * Layout::width);
    y.upload(in.y);
    p.upload(in.p);
    t.upload(in.t);
    Stream stream(context);
    out.fill_zero_async(stream);
    const LaunchShape shape = LaunchShape::linear(static_cast<std::size_t>(n), 128);
    kernel.launch(shape, stream, y, p, t, n, out); // warm-up
    Event start(context), stop(context);
    start.record(stream);
    kernel.launch(shape, stream, y, p, t, n, out);
    stop.record(stream);
    result.kernel_ms = Event::elapsed_milliseconds(start, stop);
    std::vector<Real> gpu(out.size());
    out.download_async(gpu, stream);
    stream.synchronize();

    std::vector<Real> host(Layout::width);
    int mismatches = 0;
    for (int i = 0; i < n; ++i) {
        exercise_contract<Model>(in.y.data(), in.p.data(), in.t[i], i, n, host.data());
        const Real* row = gpu.data() + static_cast<std::size_t>(i) * Layout::width;
        for (int w = 0; w < Layout::width; ++w)
            if (!close(row[w], host[w], tolerance) && ++mismatches <= 5)
                UNSCOPED_INFO("system " << i << " value " << w << ": GPU " << row[w] << " host " << host[w]);
        // Independent reference: the Lorenz equations written out (row layout: 4 slots, then f).
        const double x = in.y[i], yy = in.y[i + n], z = in.y[i + 2 * n];
        const double sigma = in.p[i], rho = in.p[i + n], beta = in.p[i + 2 * n];
        const double f[3] = {sigma * (yy - x), x * (rho - z) - yy, x * yy - beta * z};
        for (int k = 0; k < 3; ++k)
            if (!close(double(row[4 + k]), f[k], 100 * tolerance) && ++mismatches <= 5)
                UNSCOPED_INFO("system " << i << " f" << k << ": GPU " << row[4 + k] << " formula " << f[k]);
    }
    CHECK(mismatches == 0);
    std::filesystem::remove_all(cache_dir);
    return result;
}

} // namespace

TEST_CASE("every visible device is described", "[cuda][gpu][device]") {
    const std::vector<DeviceInfo> devices = list_devices();
    REQUIRE_FALSE(devices.empty());
    for (const DeviceInfo& device : devices) {
        std::printf("device %d: %s; default precision %s\n", device.ordinal, device.summary().c_str(),
                    device.default_precision() == bif::codegen::Precision::Double ? "double" : "float");
        CHECK_FALSE(device.name.empty());
        CHECK(device.capability.major >= 3);
        CHECK(device.multiprocessors > 0);
        CHECK(device.total_memory > (std::size_t(1) << 28));
        CHECK(device.warp_size == 32);
        CHECK(device.fp32_to_fp64_ratio > 0);
        // The driver's reported ratio agrees with the table where the table knows the part.
        CHECK(device.fp32_to_fp64_ratio == fp32_to_fp64_ratio_for(device.capability));
    }
    std::printf("driver CUDA %d\n", DriverLibrary::instance().version());
}

TEST_CASE("the contract kernel matches the host for many parameter sets", "[cuda][gpu][launch]") {
    const auto context_start = std::chrono::steady_clock::now();
    const Context context(0);
    std::printf("context creation %.3f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - context_start).count());
    // A size that fills the GPU; the device round lowers it under compute-sanitizer.
    const char* systems = std::getenv("BIFSCOPE_GPU_TEST_SYSTEMS");
    const int n = systems ? std::max(1, std::atoi(systems)) : 1 << 20;
    // FMA contraction on the GPU rounds differently from the host: a few ulps.
    const RunResult d = run_and_compare<double>(context, "double", n, 1e-12);
    const RunResult f = run_and_compare<float>(context, "float", n, 2e-5);
    for (const auto& [name, r] : {std::pair{"double", d}, std::pair{"float", f}})
        std::printf(
            "contract kernel (%s), %d systems on %s: compile cold %.3f s, cached %.4f s; module load %.4f s; "
            "kernel %.3f ms; %d registers, %d bytes local\n",
            name, n, context.device().name.c_str(), r.cold_seconds, r.cached_seconds, r.module_load_seconds,
            r.kernel_ms, r.registers, r.local_bytes);
    CHECK(d.cached_seconds < d.cold_seconds);
}

TEST_CASE("buffers copy exactly and refuse overlong copies", "[cuda][gpu][memory]") {
    const Context context(0);
    std::vector<double> values(1000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::sin(double(i)) * 1e300;
    DeviceBuffer<double> buffer(context, values.size());
    buffer.upload(values);
    CHECK(buffer.to_vector() == values);
    std::vector<double> longer(1001);
    CHECK_THROWS_AS(buffer.upload(longer), std::length_error);
    DeviceBuffer<double> empty(context, 0);
    CHECK(empty.to_vector().empty());
    DeviceBuffer<double> moved = std::move(buffer);
    CHECK(moved.to_vector() == values);
}

TEST_CASE("driver failures are typed: out of memory, missing kernel, wrong arguments",
          "[cuda][gpu][errors]") {
    const Context context(0);
    try {
        DeviceBuffer<char> huge(context, std::size_t(1) << 52); // 4 PiB
        FAIL("a 4 PiB allocation cannot succeed");
    } catch (const CudaError& error) {
        CHECK(error.call() == "cuMemAlloc_v2");
        CHECK(error.error_name() == "CUDA_ERROR_OUT_OF_MEMORY");
    }
    const ModuleCompiler compiler(ModuleCache::disabled());
    CompileRequest request;
    request.parts.push_back({"kernel", "extern \"C\" __global__ void scale(double* v, double a, int n) {\n"
                                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                       "    if (i < n) v[i] *= a;\n}\n"});
    const Module module(context, compiler.compile(request, compiler.target_for(context.device())));
    CHECK_THROWS_AS(module.kernel("no_such_kernel"), CudaError);
    const Kernel scale = module.kernel("scale");
    DeviceBuffer<double> v(context, 256);
    std::vector<double> ones(256, 1.0);
    v.upload(ones);
    Stream stream(context);
    scale.launch(LaunchShape::linear(256, 64), stream, v, 3.0, 256);
    stream.synchronize();
    CHECK(v.to_vector() == std::vector<double>(256, 3.0));
    if (context.driver().api().cuFuncGetParamInfo) {
        CHECK_THROWS_AS(scale.launch(LaunchShape::linear(256, 64), stream, v, 3.0f, 256),
                        std::invalid_argument);
        CHECK_THROWS_AS(scale.launch(LaunchShape::linear(256, 64), stream, v, 3.0, 256, 1),
                        std::invalid_argument);
    } else {
        WARN("this driver does not report kernel parameter sizes (cuFuncGetParamInfo, 12.4+)");
    }
    stream.synchronize();
    CHECK(v.to_vector() == std::vector<double>(256, 3.0)); // refused launches never reached the GPU
}
