// A compile's own process: its value or its failure comes back through the pipe, a crash is told
// apart from a failure, and a cancel kills it within moments however long its work would take.
#include "engine/cuda/compile_process.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>
#include <unistd.h>

using namespace bif::cuda;

namespace {

std::string what_of(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        return e.what();
    }
}

} // namespace

TEST_CASE("the child's value comes back whole, however large", "[compile_process]") {
    const std::string big(3 << 20, 'm'); // more than a pipe holds at once
    const ChildOutcome outcome =
        run_in_child([&] { return big + std::to_string(::getpid()); }, what_of, nullptr);
    REQUIRE(outcome.kind == ChildOutcome::Kind::Value);
    CHECK(outcome.bytes.substr(0, big.size()) == big);
    CHECK(outcome.bytes.substr(big.size()) != std::to_string(::getpid())); // it ran in another process
}

TEST_CASE("what the child's work throws comes back as a failure", "[compile_process]") {
    const ChildOutcome outcome =
        run_in_child([]() -> std::string { throw std::runtime_error("no such option"); }, what_of, nullptr);
    CHECK(outcome.kind == ChildOutcome::Kind::Failure);
    CHECK(outcome.bytes == "no such option");
}

TEST_CASE("a child that dies is a crash with its signal, not a result", "[compile_process]") {
    const ChildOutcome outcome = run_in_child(
        []() -> std::string {
            ::raise(SIGKILL);
            return "never";
        },
        what_of, nullptr);
    CHECK(outcome.kind == ChildOutcome::Kind::Crashed);
    CHECK(outcome.bytes == "its process was killed by signal " + std::to_string(SIGKILL));
}

TEST_CASE("a cancel kills the child's work within moments", "[compile_process]") {
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel.store(true);
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(run_in_child(
                        [] {
                            ::sleep(60); // a compile that would take a minute
                            return std::string("done");
                        },
                        what_of, &cancel),
                    CompileCancelled);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    canceller.join();
    CHECK(seconds < 10); // not the minute: killed, not waited for (generous for a loaded machine)
}
