// A study's compiled entry kernels (kernels/bif/cuda/ensemble_kernel.cuh) loaded on one GPU, with
// the run's parameter block built there once: what the runner launches slice after slice.
//
//   EnsembleProgram program(context, compiled, spec, states, real_bytes);
//   program.launch_slice(stream, batch, budget, unfinished);   // see EnsembleBatch
#pragma once

#include "bif/study/spec.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/module.h"

#include <cstddef>
#include <optional>

namespace bif::cuda {

// A launch budget in whole slices of ensemble::slice_steps, at least one: the kernel spends it in
// calls of slice_steps, as the CPU does, so a result does not depend on the launch sizes.
long long whole_slices(long long steps);

class EnsembleBatch;
class Stream;

class EnsembleProgram {
  public:
    // Loads the module and runs bif_ensemble_setup on the spec (its arrays copied to the device;
    // `states` entries of rtol, atol and initial). Throws std::runtime_error when the module was
    // built against another ensemble ABI or for a precision other than `real_bytes`.
    EnsembleProgram(const Context& context, const CompiledModule& compiled, const ensemble::StudySpec& spec,
                    int states, int real_bytes);
    // The same on a module loaded already (module_shelf.h), which this program's run then owns alone.
    EnsembleProgram(Module module, const ensemble::StudySpec& spec, int states, int real_bytes);

    int carry_words() const { return carry_words_; }
    int real_bytes() const { return real_bytes_; }
    const Kernel& advance_kernel() const { return advance_; }
    // The map-diagram pass (bif/study/map_diagram.h), where the program has one.
    const std::optional<Kernel>& map_diagram_kernel() const { return map_diagram_; }
    const Context& context() const { return module_.context(); }
    const Module& module() const { return module_; }
    // Another kernel of the module (bif_orbit_refine of a study that refines orbits); throws where
    // the module has none of that name.
    Kernel kernel(const std::string& name) const { return module_.kernel(name); }

    // One slice of at most `budget` attempted steps for every unfinished system of the batch, after
    // the map-diagram pass where there is one; asynchronous. `unfinished` (one word, zeroed here first)
    // counts the thread blocks that still hold an unfinished system once the launch completes.
    void launch_slice(const Stream& stream, const EnsembleBatch& batch, long long budget,
                      DeviceBuffer<unsigned int>& unfinished) const;

  private:
    Module module_;
    Kernel advance_;
    std::optional<Kernel> map_diagram_;
    int carry_words_ = 0;
    int real_bytes_ = 8;
};

} // namespace bif::cuda
