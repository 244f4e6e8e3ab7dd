#include "engine/cuda/ensemble_program.h"

#include "bif/study/entry.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>
#include <vector>

namespace bif::cuda {

long long whole_slices(long long steps) {
    return std::max(1LL, (steps + ensemble::slice_steps / 2) / ensemble::slice_steps) * ensemble::slice_steps;
}

namespace {

// The spec's arrays in device memory and a copy of the spec pointing at them; lives until the
// setup kernel has run (synchronous).
class DeviceSpec {
  public:
    DeviceSpec(const Context& context, const ensemble::StudySpec& spec, int states)
        : reals_(context, std::max<std::size_t>(1, reals_needed(spec, states))),
          ints_(context, std::max<std::size_t>(1, ints_needed(spec))), spec_(spec) {
        std::vector<double> reals;
        const auto reals_at = [&](const double* values, std::size_t count) -> const double* {
            if (!values || count == 0) return nullptr;
            const std::size_t offset = reals.size();
            reals.insert(reals.end(), values, values + count);
            return reals_.device_pointer() + offset;
        };
        std::vector<int> ints;
        const auto ints_at = [&](const int* values, int count) -> const int* {
            if (!values || count <= 0) return nullptr;
            const std::size_t offset = ints.size();
            ints.insert(ints.end(), values, values + count);
            return ints_.device_pointer() + offset;
        };
        const std::size_t n = std::size_t(states);
        spec_.rtol = reals_at(spec.rtol, n);
        spec_.atol = reals_at(spec.atol, n);
        spec_.initial = reals_at(spec.initial, n);
        spec_.parameters = reals_at(spec.parameters, std::size_t(std::max(spec.parameter_count, 0)));
        spec_.record_observable = ints_at(spec.record_observable, spec.record_count);
        spec_.record_mode = ints_at(spec.record_mode, spec.record_count);
        spec_.accessory_observable = ints_at(spec.accessory_observable, spec.accessory_count);
        spec_.accessory_reduce = ints_at(spec.accessory_reduce, spec.accessory_count);
        spec_.accessory_over = ints_at(spec.accessory_over, spec.accessory_count);
        if (!reals.empty()) reals_.upload(reals);
        if (!ints.empty()) ints_.upload(ints);
    }
    const ensemble::StudySpec& spec() const { return spec_; }

  private:
    static std::size_t reals_needed(const ensemble::StudySpec& s, int states) {
        return 3 * std::size_t(states) + std::size_t(std::max(s.parameter_count, 0));
    }
    static std::size_t ints_needed(const ensemble::StudySpec& s) {
        return 2 * std::size_t(std::max(s.record_count, 0)) + 3 * std::size_t(std::max(s.accessory_count, 0));
    }
    DeviceBuffer<double> reals_;
    DeviceBuffer<int> ints_;
    ensemble::StudySpec spec_;
};

} // namespace

EnsembleProgram::EnsembleProgram(const Context& context, const CompiledModule& compiled,
                                 const ensemble::StudySpec& spec, int states, int real_bytes)
    : EnsembleProgram(Module(context, compiled), spec, states, real_bytes) {}

EnsembleProgram::EnsembleProgram(Module module, const ensemble::StudySpec& spec, int states, int real_bytes)
    : module_(std::move(module)), advance_(module_.kernel("bif_ensemble_advance")), real_bytes_(real_bytes) {
    const Context& context = module_.context();
    const Stream stream(context);
    const LaunchShape one = LaunchShape::linear(1, 1);
    DeviceBuffer<int> sizes(context, 5);
    module_.kernel("bif_ensemble_sizes").launch(one, stream, sizes);
    stream.synchronize();
    const std::vector<int> s = sizes.to_vector();
    if (s[2] != ensemble::abi_version)
        throw std::runtime_error("the compiled ensemble module was built for another version of the kernels");
    const int view_bytes =
        real_bytes == 4 ? int(sizeof(ensemble::View<float>)) : int(sizeof(ensemble::View<double>));
    if (s[3] != view_bytes)
        throw std::runtime_error("the compiled ensemble module was built for another precision");
    carry_words_ = s[1];
    if (s[4] != 0) map_diagram_ = module_.kernel("bif_map_diagram");
    const DeviceSpec device_spec(context, spec, states);
    DeviceBuffer<unsigned char> block(context, std::size_t(s[0]));
    module_.kernel("bif_ensemble_setup").launch(one, stream, device_spec.spec(), block);
    stream.synchronize();
    // into constant memory, where the step loops read the solver settings as instruction operands
    const std::vector<unsigned char> bytes = block.to_vector();
    module_.set_global("bif_ensemble_block", bytes.data(), bytes.size());
}

void EnsembleProgram::launch_slice(const Stream& stream, const EnsembleBatch& batch, long long budget,
                                   DeviceBuffer<unsigned int>& unfinished) const {
    unfinished.fill_zero_async(stream);
    const LaunchShape shape = LaunchShape::linear(batch.count(), ensemble_threads);
    const ensemble::index_t count = batch.count();
    // the pass takes the new systems it can finish; the advance kernel skips those (status written)
    if (map_diagram_) {
        if (real_bytes_ == 4)
            map_diagram_->launch(shape, stream, batch.view<float>(), count, budget);
        else
            map_diagram_->launch(shape, stream, batch.view<double>(), count, budget);
    }
    if (real_bytes_ == 4)
        advance_.launch(shape, stream, batch.view<float>(), count, budget, unfinished);
    else
        advance_.launch(shape, stream, batch.view<double>(), count, budget, unfinished);
}

} // namespace bif::cuda
