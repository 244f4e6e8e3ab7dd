#include "engine/cuda/orbit_refiner.h"

#include "engine/cuda/device_buffer.h"
#include "engine/cuda/ensemble_program.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module.h"
#include "engine/cuda/stream.h"
#include "engine/ensemble/orbit_refinement.h"

#include <chrono>

namespace bif::cuda {

namespace {

template <class Real>
std::vector<Real> converted(const std::vector<double>& values) {
    return std::vector<Real>(values.begin(), values.end());
}

template <class Real>
void into(const std::vector<Real>& values, std::vector<double>& out) {
    out.assign(values.begin(), values.end());
}

// The batch's systems through the kernel in precision Real; returns the kernel's milliseconds.
template <class Real>
float run_batch(const Context& context, const Kernel& kernel, const ensemble::OrbitSettings& settings,
                ensemble::OrbitBatch& b) {
    const std::size_t n = b.count, states = std::size_t(b.states);
    DeviceBuffer<Real> axis_values(context, std::max<std::size_t>(1, b.axis_values.size()));
    DeviceBuffer<Real> guess(context, states * n), point(context, states * n);
    DeviceBuffer<Real> multipliers(context, 2 * states * n), max_modulus(context, n);
    DeviceBuffer<int> period(context, n), iterations(context, n), status(context, n);
    if (!b.axis_values.empty()) axis_values.upload(converted<Real>(b.axis_values));
    guess.upload(converted<Real>(b.guess));
    period.upload(b.period);
    ensemble::OrbitView<Real> view;
    view.stride = n;
    view.axis_values = axis_values.device_pointer();
    view.guess = guess.device_pointer();
    view.period = period.device_pointer();
    view.point = point.device_pointer();
    view.multipliers = multipliers.device_pointer();
    view.max_modulus = max_modulus.device_pointer();
    view.iterations = iterations.device_pointer();
    view.status = status.device_pointer();
    const Stream stream(context);
    Event start(context), end(context);
    start.record(stream);
    kernel.launch(LaunchShape::linear(n, orbit_threads), stream, view, settings, ensemble::index_t(n));
    end.record(stream);
    stream.synchronize();
    const float milliseconds = Event::elapsed_milliseconds(start, end);
    into(point.to_vector(), b.point);
    into(multipliers.to_vector(), b.multipliers);
    into(max_modulus.to_vector(), b.max_modulus);
    b.iterations = iterations.to_vector();
    b.status = status.to_vector();
    return milliseconds;
}

} // namespace

OrbitRefinementTimes refine_orbits_on_gpu(const Context& context, const CompiledModule& module,
                                          const study::ResolvedStudy& study,
                                          const ensemble::SpecStorage& spec, int real_bytes,
                                          study::Result& result) {
    const auto start = std::chrono::steady_clock::now();
    OrbitRefinementTimes times;
    ensemble::OrbitBatch batch = ensemble::make_orbit_batch(study, result);
    times.systems = batch.count;
    if (batch.count > 0) {
        const EnsembleProgram program(context, module, spec.spec(), spec.states(), real_bytes);
        const Kernel kernel = program.kernel("bif_orbit_refine");
        const ensemble::OrbitSettings settings = ensemble::orbit_settings(study);
        const float ms = real_bytes == 4 ? run_batch<float>(context, kernel, settings, batch)
                                         : run_batch<double>(context, kernel, settings, batch);
        times.kernel_seconds = double(ms) / 1000.0;
        ensemble::store_orbits(batch, result);
    }
    times.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return times;
}

} // namespace bif::cuda
