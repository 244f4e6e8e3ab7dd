// Runs Catch2's session from a test program's own main(). Catch2 v2 declares Catch::Session only
// where its implementation is compiled, which is catch_session.cpp alone (compiled once for every
// test program, cmake/compile_time.cmake); mains call these instead.
#pragma once

#include <string>
#include <vector>

namespace bif::test {

// Catch::Session().run(argc, argv): the exit status, the number of failed assertions.
int run_catch_session(int argc, char** argv);

// The same, limited to the tests that match one of `tests_or_tags` (e.g. "[shared]").
int run_catch_session(int argc, char** argv, const std::vector<std::string>& tests_or_tags);

} // namespace bif::test
