// On a GPU: the generated Lorenz model (resources/models/lorenz.ode through the code generator)
// evaluated by the contract kernel for many parameter sets matches the Lorenz equations written out.
#include "cuda_test_support.h"
#include "engine/codegen/codegen.h"
#include "engine/codegen/host_model.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/module.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/stream.h"
#include "engine/model/parse.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>

using namespace bif::cuda;
using bif::cuda::testing::contract_request;

TEST_CASE("the generated Lorenz right-hand side on the GPU matches the equations", "[cuda][gpu][models]") {
    const auto parsed = bif::model::load_model_file(std::string(BIFSCOPE_MODELS_DIR) + "/lorenz.ode");
    REQUIRE(parsed.model.has_value());
    const bif::model::Model& model = *parsed.model;
    const int x = model.state_index("x"), y = model.state_index("y"), z = model.state_index("z");
    const int sigma = model.parameter_index("sigma"), rho = model.parameter_index("rho"),
              beta = model.parameter_index("beta");
    REQUIRE(std::min({x, y, z, sigma, rho, beta}) >= 0);
    const int N = static_cast<int>(model.num_states()), P = static_cast<int>(model.num_parameters());
    const int S = static_cast<int>(model.num_param_slots());

    const Context context(0);
    const ModuleCompiler compiler;
    bif::codegen::Request request;
    request.model = &model;
    request.precision = context.device().default_precision();
    request.type_name = "BifModel";
    const bool is_double = request.precision == bif::codegen::Precision::Double;
    REQUIRE(is_double); // the round runs on data-centre GPUs; float runs are covered by the hand model
    const CompiledModule compiled =
        compiler.compile(contract_request(bif::codegen::generate_source(request), "BifModel"),
                         compiler.target_for(context.device()));
    std::printf("generated Lorenz (double): %s in %.3f s\n", compiled.from_cache() ? "cache hit" : "compiled",
                compiled.seconds());
    const Module module(context, compiled);
    const Kernel kernel = module.kernel("contract_kernel<BifModel>");

    const int n = 100000;
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(-30.0, 30.0);
    std::vector<double> yv(static_cast<std::size_t>(N) * n), pv(static_cast<std::size_t>(P) * n), t(n, 0.0);
    for (double& v : yv)
        v = uniform(random);
    for (double& v : pv)
        v = uniform(random);
    DeviceBuffer<double> y_d(context, yv.size()), p_d(context, pv.size()), t_d(context, t.size());
    y_d.upload(yv);
    p_d.upload(pv);
    t_d.upload(t);
    // Row width of contract_kernel.cuh: S + N + N*N + N + E + A + O (+ 1 + N + S with events); Lorenz has
    // neither events, aux nor observables in this request.
    const int width = S + N + N * N + N;
    REQUIRE(model.events.empty());
    REQUIRE(model.aux.empty());
    DeviceBuffer<double> out(context, static_cast<std::size_t>(n) * width);
    Stream stream(context);
    kernel.launch(LaunchShape::linear(n, 128), stream, y_d, p_d, t_d, n, out);
    stream.synchronize();
    const std::vector<double> rows = out.to_vector();
    int mismatches = 0;
    for (int i = 0; i < n; ++i) {
        const double X = yv[i + x * n], Y = yv[i + y * n], Z = yv[i + z * n];
        const double s = pv[i + sigma * n], r = pv[i + rho * n], b = pv[i + beta * n];
        const double f[3] = {s * (Y - X), X * (r - Z) - Y, X * Y - b * Z};
        const int index[3] = {x, y, z};
        for (int k = 0; k < 3; ++k) {
            const double gpu = rows[static_cast<std::size_t>(i) * width + S + index[k]];
            if (std::abs(gpu - f[k]) > 1e-12 * std::max(1.0, std::abs(f[k])) && ++mismatches <= 5)
                UNSCOPED_INFO("system " << i << " f" << k << ": GPU " << gpu << " equation " << f[k]);
        }
    }
    CHECK(mismatches == 0);
}

// Tables, networks, sums and the Bessel and lgamma functions: every contract function on the GPU
// against the host evaluator (engine/codegen/host_model.h) at random states.
TEST_CASE("tables, networks and special functions on the GPU match the host evaluator",
          "[cuda][gpu][models]") {
    const Context context(0);
    const ModuleCompiler compiler;
    for (const char* name : {"tables_sums_networks.ode", "special_functions.ode"}) {
        INFO(name);
        const auto parsed =
            bif::model::load_model_file(std::string(BIFSCOPE_SOURCE_DIR) + "/tests/codegen/models/" + name);
        REQUIRE(parsed.model.has_value());
        const bif::model::Model& model = *parsed.model;
        bif::codegen::Request request;
        request.model = &model;
        request.precision = bif::codegen::Precision::Double;
        request.type_name = "BifModel";
        const bif::codegen::HostModel host(request);
        const CompiledModule compiled =
            compiler.compile(contract_request(bif::codegen::generate_source(request), "BifModel"),
                             compiler.target_for(context.device()));
        const Module module(context, compiled);
        const Kernel kernel = module.kernel("contract_kernel<BifModel>");
        const int N = host.dimension(), P = host.param_count(), S = host.param_slot_count(),
                  A = host.aux_count();
        REQUIRE(host.event_count() == 0);
        const int n = 4096;
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> uniform(-2.5, 2.5);
        std::vector<double> yv(std::size_t(N) * n), pv(std::size_t(P) * n), t(n, 0.0);
        for (double& v : yv)
            v = uniform(random);
        for (std::size_t k = 0; k < pv.size(); ++k)
            pv[k] = model.parameters[k / n].value * (1.0 + 0.1 * uniform(random));
        DeviceBuffer<double> y_d(context, yv.size()), p_d(context, pv.size()), t_d(context, t.size());
        y_d.upload(yv);
        p_d.upload(pv);
        t_d.upload(t);
        const int width = S + N + N * N + N + A;
        DeviceBuffer<double> out(context, std::size_t(n) * width);
        Stream stream(context);
        kernel.launch(LaunchShape::linear(n, 128), stream, y_d, p_d, t_d, n, out);
        stream.synchronize();
        const std::vector<double> rows = out.to_vector();
        int mismatches = 0;
        for (int i = 0; i < n; ++i) {
            std::vector<double> y(N), p(S + 1), expected(static_cast<std::size_t>(width));
            for (int k = 0; k < N; ++k)
                y[k] = yv[i + k * n];
            for (int k = 0; k < P; ++k)
                p[k] = pv[i + k * n];
            host.complete_parameters(p.data());
            std::copy(p.begin(), p.begin() + S, expected.begin());
            host.rhs(0.0, y.data(), p.data(), expected.data() + S);
            host.jacobian(0.0, y.data(), p.data(), expected.data() + S + N);
            host.time_derivative(0.0, y.data(), p.data(), expected.data() + S + N + N * N);
            host.aux(0.0, y.data(), p.data(), expected.data() + S + N + N * N + N);
            for (int k = 0; k < width; ++k) {
                const double gpu = rows[std::size_t(i) * width + k], cpu = expected[k];
                if (std::abs(gpu - cpu) > 1e-12 * std::max(1.0, std::abs(cpu)) && ++mismatches <= 5)
                    UNSCOPED_INFO("system " << i << " entry " << k << ": GPU " << gpu << " host " << cpu);
            }
        }
        CHECK(mismatches == 0);
    }
}
