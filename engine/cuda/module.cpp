#include "engine/cuda/module.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/stream.h"

#include <limits>
#include <stdexcept>

namespace bif::cuda {

namespace detail {

class ModuleState {
  public:
    ModuleState(const Context& context, const CompiledModule& compiled)
        : context_(context), lowered_names_(compiled.lowered_names()) {
        load(compiled);
    }
    ModuleState(const ModuleState&) = delete;
    ModuleState& operator=(const ModuleState&) = delete;
    ~ModuleState() {
        try {
            context_.make_current();
            context_.driver().api().cuModuleUnload(module_);
        } catch (...) {
        }
    }

    const Context& context() const { return context_; }
    driver::CUmodule handle() const { return module_; }
    const std::string& symbol_for(const std::string& name) const {
        for (const auto& [expression, lowered] : lowered_names_)
            if (expression == name) return lowered;
        return name;
    }

  private:
    void load(const CompiledModule& compiled) {
        context_.make_current();
        const DriverLibrary& driver = context_.driver();
        // The JIT error log says why PTX did not assemble (e.g. a PTX version newer than the driver).
        std::string error_log(8192, '\0');
        driver::CUjit_option options[] = {driver::CU_JIT_ERROR_LOG_BUFFER,
                                          driver::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* values[] = {error_log.data(), reinterpret_cast<void*>(error_log.size())};
        const driver::CUresult result =
            driver.api().cuModuleLoadDataEx(&module_, compiled.image().data(), 2, options, values);
        if (result == driver::CUDA_SUCCESS) return;
        error_log.resize(error_log.find('\0'));
        const std::string what = driver.error_name(result);
        throw CudaError(result, what,
                        driver.error_text(result) + (error_log.empty() ? "" : "; JIT log: " + error_log) +
                            " (driver CUDA " + std::to_string(driver.version()) + ", module for " +
                            (compiled.kind() == CodeKind::Cubin ? "sm_" : "compute_") +
                            std::to_string(compiled.architecture()) + ")",
                        "cuModuleLoadDataEx", std::string(__FILE__) + ":" + std::to_string(__LINE__));
    }

    Context context_;
    std::vector<std::pair<std::string, std::string>> lowered_names_;
    driver::CUmodule module_ = nullptr;
};

} // namespace detail

LaunchShape LaunchShape::linear(std::size_t threads, unsigned block_size) {
    if (block_size == 0) throw std::invalid_argument("LaunchShape::linear: block size 0");
    const std::size_t blocks = (threads + block_size - 1) / block_size;
    if (blocks > std::numeric_limits<unsigned>::max() / 2) // grid x is limited to 2^31 - 1
        throw std::invalid_argument("LaunchShape::linear: " + std::to_string(threads) +
                                    " threads need too many blocks");
    LaunchShape shape;
    shape.grid.x = static_cast<unsigned>(blocks == 0 ? 1 : blocks);
    shape.block.x = block_size;
    return shape;
}

Module::Module(const Context& context, const CompiledModule& compiled)
    : state_(std::make_shared<const detail::ModuleState>(context, compiled)) {}

const Context& Module::context() const {
    return state_->context();
}

Kernel Module::kernel(const std::string& name) const {
    const Context& context = state_->context();
    context.make_current();
    driver::CUfunction function = nullptr;
    BIF_CU_CALL(context.driver(), cuModuleGetFunction, &function, state_->handle(),
                state_->symbol_for(name).c_str());
    return Kernel(state_, name, function);
}

void Module::set_global(const std::string& name, const void* data, std::size_t bytes) const {
    const Context& context = state_->context();
    context.make_current();
    driver::CUdeviceptr pointer = 0;
    std::size_t size = 0;
    BIF_CU_CALL(context.driver(), cuModuleGetGlobal_v2, &pointer, &size, state_->handle(),
                state_->symbol_for(name).c_str());
    if (size < bytes)
        throw std::length_error("module variable " + name + " holds " + std::to_string(size) +
                                " bytes, not " + std::to_string(bytes));
    BIF_CU_CALL(context.driver(), cuMemcpyHtoD_v2, pointer, data, bytes);
}

Kernel::Kernel(std::shared_ptr<const detail::ModuleState> module, std::string name,
               driver::CUfunction function)
    : module_(std::move(module)), name_(std::move(name)), function_(function) {}

void Kernel::check_arguments(const std::size_t* sizes, std::size_t count) const {
    const auto& api = module_->context().driver().api();
    if (!api.cuFuncGetParamInfo) return; // a driver before 12.4 cannot tell
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t offset = 0;
        std::size_t size = 0;
        const driver::CUresult result = api.cuFuncGetParamInfo(function_, i, &offset, &size);
        if (result == driver::CUDA_ERROR_INVALID_VALUE)
            throw std::invalid_argument("kernel " + name_ + " takes " + std::to_string(i) + " arguments, " +
                                        std::to_string(count) + " given");
        if (result != driver::CUDA_SUCCESS) return;
        if (size != sizes[i])
            throw std::invalid_argument("kernel " + name_ + ": argument " + std::to_string(i) + " has " +
                                        std::to_string(sizes[i]) + " bytes, the parameter " +
                                        std::to_string(size));
    }
}

int Kernel::attribute(int which) const {
    const Context& context = module_->context();
    context.make_current();
    int value = 0;
    BIF_CU_CALL(context.driver(), cuFuncGetAttribute, &value, which, function_);
    return value;
}

int Kernel::registers() const {
    return attribute(driver::CU_FUNC_ATTRIBUTE_NUM_REGS);
}
int Kernel::local_bytes() const {
    return attribute(driver::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
}
int Kernel::static_shared_bytes() const {
    return attribute(driver::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
}
int Kernel::max_threads_per_block() const {
    return attribute(driver::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
}

int Kernel::max_active_blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes) const {
    const Context& context = module_->context();
    context.make_current();
    int blocks = 0;
    BIF_CU_CALL(context.driver(), cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, function_, block_size,
                dynamic_shared_bytes);
    return blocks;
}

void Kernel::launch_raw(const LaunchShape& shape, const Stream& stream, void** arguments,
                        const std::size_t* sizes, std::size_t count) const {
    check_arguments(sizes, count);
    const Context& context = module_->context();
    // Each device has one primary context, whichever Context object retained it.
    if (stream.context().device().ordinal != context.device().ordinal)
        throw std::invalid_argument("kernel " + name_ + " launched on a stream of another context");
    context.make_current();
    BIF_CU_CALL(context.driver(), cuLaunchKernel, function_, shape.grid.x, shape.grid.y, shape.grid.z,
                shape.block.x, shape.block.y, shape.block.z, shape.shared_bytes, stream.handle(),
                count ? arguments : nullptr, nullptr);
}

} // namespace bif::cuda
