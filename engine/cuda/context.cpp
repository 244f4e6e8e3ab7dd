#include "engine/cuda/context.h"

#include "engine/cuda/driver_library.h"

#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>

namespace bif::cuda {

namespace detail {

namespace {

DeviceInfo device_at(const DriverLibrary& driver, int ordinal) {
    driver.api();
    if (ordinal < 0 || ordinal >= driver.device_count())
        throw std::out_of_range("no CUDA device " + std::to_string(ordinal) + " (the driver sees " +
                                std::to_string(driver.device_count()) + ")");
    return list_devices(driver).at(static_cast<std::size_t>(ordinal));
}

} // namespace

ContextState::ContextState(const DriverLibrary& driver, int ordinal)
    : driver_(driver), device_(device_at(driver, ordinal)) {
    BIF_CU_CALL(driver_, cuDeviceGet, &handle_, ordinal);
    BIF_CU_CALL(driver_, cuDevicePrimaryCtxRetain, &context_, handle_);
}

ContextState::~ContextState() {
    // Nothing can be reported from a destructor; the release fails only if the driver is shutting down.
    driver_.api().cuDevicePrimaryCtxRelease_v2(handle_);
}

void ContextState::make_current() const {
    BIF_CU_CALL(driver_, cuCtxSetCurrent, context_);
}

} // namespace detail

Context::Context(int ordinal) : Context(DriverLibrary::instance(), ordinal) {}

Context::Context(const DriverLibrary& driver, int ordinal)
    : state_(std::make_shared<const detail::ContextState>(driver, ordinal)) {}

const DeviceInfo& Context::device() const {
    return state_->device();
}

const DriverLibrary& Context::driver() const {
    return state_->driver();
}

void Context::make_current() const {
    state_->make_current();
}

void Context::synchronize() const {
    make_current();
    BIF_CU_CALL(driver(), cuCtxSynchronize);
}

std::size_t Context::free_memory() const {
    make_current();
    std::size_t free = 0;
    std::size_t total = 0;
    BIF_CU_CALL(driver(), cuMemGetInfo_v2, &free, &total);
    return free;
}

std::vector<Context> retain_contexts(const std::vector<int>& ordinals) {
    std::vector<std::optional<Context>> retained(ordinals.size());
    std::vector<std::exception_ptr> failures(ordinals.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < ordinals.size(); ++i)
            threads.emplace_back([&, i] {
                try {
                    retained[i].emplace(ordinals[i]);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
            });
    }
    std::vector<Context> contexts;
    for (std::size_t i = 0; i < ordinals.size(); ++i) {
        if (failures[i]) std::rethrow_exception(failures[i]);
        contexts.push_back(*retained[i]);
    }
    return contexts;
}

} // namespace bif::cuda
