// Catch2's implementation (session, reporters, matchers), compiled once for every test program: it
// costs about 25 s of compiler time per copy at -O3, and each program's main used to compile its own.
// The mains (test_main.cpp, cuda/skip_main.cpp, ui/gui_test_main.cpp, ...) call run_catch_session.
#define CATCH_CONFIG_RUNNER
#include "catch_session.h"

#include <catch2/catch.hpp>

namespace bif::test {

int run_catch_session(int argc, char** argv) {
    return Catch::Session().run(argc, argv);
}

int run_catch_session(int argc, char** argv, const std::vector<std::string>& tests_or_tags) {
    Catch::Session session;
    session.configData().testsOrTags = tests_or_tags;
    return session.run(argc, argv);
}

} // namespace bif::test
