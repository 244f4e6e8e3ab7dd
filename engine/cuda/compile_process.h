// NVRTC and nvJitLink cannot be interrupted, and a 200-state model keeps NVRTC busy for minutes. A
// compile therefore runs in a child process (fork, no exec: the child has the libraries loaded and
// the program in memory) that a cancel kills within a poll interval; its result comes back through
// a pipe. The child dies with its parent, so a compile never outlives the program that wanted it.
//
// fork() copies one thread: a lock another thread held at that moment stays locked in the child.
// Every in-process NVRTC call therefore holds in_process_nvrtc_mutex(), as run_in_child() does
// around the fork, so no thread is inside NVRTC when the child is made.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

namespace bif::cuda {

// The compile was cancelled and its process killed.
class CompileCancelled : public std::runtime_error {
  public:
    CompileCancelled() : std::runtime_error("the compile was cancelled") {}
};

std::mutex& in_process_nvrtc_mutex();

// What the child's work ended with: bytes on success, or the kind and text of what it threw.
struct ChildOutcome {
    enum class Kind : char { Value = 'V', Failure = 'F', Crashed = 'C' };
    Kind kind = Kind::Crashed;
    std::string bytes; // the value, or the failure's serialised form (the caller's to decode)
};

// Runs `work` in a child process and returns what it returned (Value) or what its `on_failure`
// made of the exception it threw (Failure). Crashed when the child died otherwise (its signal in
// `bytes`). Throws CompileCancelled once `cancel` (may be null) is set, after killing the child,
// within `poll_ms`; std::runtime_error when no process can be made.
ChildOutcome run_in_child(const std::function<std::string()>& work,
                          const std::function<std::string(std::exception_ptr)>& on_failure,
                          const std::atomic<bool>* cancel, int poll_ms = 10);

} // namespace bif::cuda
