// Shared pieces of the CUDA benchmarks (programs, not tests): studies built from JSON text, the
// Bifscope ensemble kernel of a study ready to launch, hand-written kernels compiled through the
// same NVRTC service, and timing with CUDA events (median of several runs after a warm-up).
#pragma once

#include "engine/cuda/context.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_program.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/cuda/stream.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bif::bench {

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string source_path(const std::string& relative) {
    return std::string(BIFSCOPE_SOURCE_DIR) + "/" + relative;
}

// A study from JSON text whose model path is relative to resources/studies.
inline std::shared_ptr<const study::ResolvedStudy> resolve_json(const std::string& json) {
    auto read = study::read_study_json(json);
    if (!read.study || study::has_errors(read.problems)) throw std::runtime_error("bad benchmark study");
    auto r = study::resolve_study(*read.study, source_path("resources/studies"));
    if (!r.resolved) throw std::runtime_error("benchmark study does not resolve");
    return r.resolved;
}

// Why the GPU benchmarks cannot run here (no CUDA driver, no device, no NVRTC); empty when they can.
inline std::string gpu_missing() {
    const auto& driver = cuda::DriverLibrary::instance();
    const auto& nvrtc = cuda::NvrtcLibrary::instance();
    if (!driver.available()) return driver.unavailable_reason();
    if (driver.device_count() == 0) return "no CUDA device";
    if (!nvrtc.available()) return nvrtc.unavailable_reason();
    return {};
}

// Median of `runs` timings of `launch` (each bracketed by events on `stream`), after one warm-up;
// `prepare` runs before each launch, outside the timed region.
inline double median_ms(const cuda::Context& context, const cuda::Stream& stream, int runs,
                        const std::function<void()>& prepare, const std::function<void()>& launch) {
    cuda::Event start(context), stop(context);
    prepare();
    launch();
    stream.synchronize();
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        prepare();
        start.record(stream);
        launch();
        stop.record(stream);
        ms.push_back(cuda::Event::elapsed_milliseconds(start, stop));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The Bifscope kernel of a study: the same compile, block set-up and launch as the backend, on one
// batch holding every system.
class BifscopeEnsemble {
  public:
    // min_blocks: BIF_ENSEMBLE_MIN_BLOCKS of the kernel (engine/cuda/ensemble_source.h; 0: none);
    // options: NVRTC options added to the backend's (a benchmark's -D switches)
    BifscopeEnsemble(const cuda::Context& context, std::shared_ptr<const study::ResolvedStudy> study,
                     codegen::Precision precision, int min_blocks = cuda::ensemble_min_blocks_default,
                     const std::vector<std::string>& options = {})
        : study_(std::move(study)), spec_(*study_), context_(context), stream_(context),
          unfinished_(context, 1) {
        const cuda::ModuleCompiler compiler;
        cuda::CompileRequest request =
            cuda::ensemble_request(*study_, precision, spec_.program(), min_blocks);
        request.extra_options.insert(request.extra_options.end(), options.begin(), options.end());
        // the whole-program module that every run after a study's first runs on; BENCH_FIRST_TIER=1:
        // the separately compiled one a cold study starts on (CudaBackendOptions::tiered_compile)
        const char* first_tier = std::getenv("BENCH_FIRST_TIER");
        if (!(first_tier && std::string(first_tier) == "1")) request.separate_functions = false;
        // BENCH_NVRTC_OPTIONS="-DNAME ...": tuning switches of the kernels to time (tests/bench/README.md)
        if (const char* options = std::getenv("BENCH_NVRTC_OPTIONS")) {
            std::istringstream words(options);
            for (std::string option; words >> option;)
                request.extra_options.push_back(option);
        }
        compiled_ = std::make_unique<cuda::CompiledModule>(
            compiler.compile(request, compiler.target_for(context.device())));
        real_bytes_ = precision == codegen::Precision::Float ? 4 : 8;
        program_ = std::make_unique<cuda::EnsembleProgram>(context, *compiled_, spec_.spec(), spec_.states(),
                                                           real_bytes_);
        const std::size_t n = study_->system_count();
        host_ = ensemble::make_batch(*study_, spec_, program_->carry_words(), 0, n, false);
        host_.carry.clear();
        host_.carry.shrink_to_fit();
        cuda::BatchShape shape = cuda::batch_shape(spec_, program_->carry_words(), real_bytes_);
        shape.capacity = n;
        batch_ = std::make_unique<cuda::EnsembleBatch>(context, shape, spec_.times());
    }

    // Median kernel time of one launch that finishes every system.
    double time_ms(int runs) {
        return median_ms(
            context_, stream_, runs, [&] { batch_->upload(host_, stream_); },
            [&] { program_->launch_slice(stream_, *batch_, 1LL << 40, unfinished_); });
    }
    // One launch, untimed.
    void run() {
        batch_->upload(host_, stream_);
        program_->launch_slice(stream_, *batch_, 1LL << 40, unfinished_);
        stream_.synchronize();
    }
    // The outputs of the last launch.
    const ensemble::BatchArrays& results() {
        batch_->download(host_, stream_);
        return host_;
    }
    // Words [first, first + rows) of the carry of the last launch, word first + w of system i at
    // [i + w * count]. A finished system keeps only its phase word there, unless the kernel was
    // compiled with -DBIF_ENSEMBLE_KEEP_FINISHED_CARRY (bif/study/common.h).
    std::vector<unsigned int> carry_rows(int first, int rows) const {
        const std::size_t n = host_.count;
        std::vector<unsigned int> words(n * std::size_t(rows));
        const unsigned int* device =
            real_bytes_ == 4 ? batch_->view<float>().carry : batch_->view<double>().carry;
        stream_.synchronize();
        context_.make_current();
        BIF_CU_CALL(
            context_.driver(), cuMemcpyDtoH_v2, words.data(),
            cuda::driver::CUdeviceptr(reinterpret_cast<std::uintptr_t>(device + std::size_t(first) * n)),
            words.size() * 4);
        return words;
    }
    const cuda::CompiledModule& compiled() const { return *compiled_; }
    const cuda::EnsembleProgram& program() const { return *program_; }

  private:
    std::shared_ptr<const study::ResolvedStudy> study_;
    ensemble::SpecStorage spec_;
    cuda::Context context_;
    cuda::Stream stream_;
    cuda::DeviceBuffer<unsigned int> unfinished_;
    std::unique_ptr<cuda::CompiledModule> compiled_;
    std::unique_ptr<cuda::EnsembleProgram> program_;
    std::unique_ptr<cuda::EnsembleBatch> batch_;
    ensemble::BatchArrays host_;
    int real_bytes_ = 8;
};

// Hand-written .cu files of tests/bench/handwritten, in this order one program (a kernel file after
// the support files it needs), compiled for the device and loaded.
inline cuda::Module load_handwritten(const cuda::Context& context, std::initializer_list<std::string> files) {
    cuda::CompileRequest request;
    for (const std::string& file : files)
        request.parts.push_back({file, read_text(source_path("tests/bench/handwritten/" + file))});
    const cuda::ModuleCompiler compiler;
    return cuda::Module(context, compiler.compile(request, compiler.target_for(context.device())));
}
inline cuda::Module load_handwritten(const cuda::Context& context, const std::string& file) {
    return load_handwritten(context, {file});
}

// A launch of `threads` threads in blocks of 128 whose dynamic shared memory (unused by the kernel)
// holds `kernel` to at most `blocks` resident blocks per multiprocessor: the hand-written kernel
// at the Bifscope kernel's occupancy, to tell a gap from occupancy from one in the step loop.
// Returns the plain shape when no amount under 48 KiB gets there.
inline cuda::LaunchShape shape_at_occupancy(const cuda::Kernel& kernel, std::size_t threads, int blocks) {
    cuda::LaunchShape shape = cuda::LaunchShape::linear(threads, 128);
    for (unsigned bytes = 0; bytes <= 48u * 1024u; bytes += 256u) {
        if (kernel.max_active_blocks_per_multiprocessor(128, bytes) <= blocks) {
            shape.shared_bytes = bytes;
            break;
        }
    }
    return shape;
}

inline void print_kernel(const char* what, const cuda::Kernel& k) {
    std::printf("  %-34s %3d registers, %d bytes local\n", what, k.registers(), k.local_bytes());
}

} // namespace bif::bench
