# Compile time: CI builds everything from scratch on two cores, and most of its time is the compiler.
# What is compiled once here instead of once per target.

# Catch2 v2 compiles its whole implementation (session, reporters, matchers: ~25 s at -O3) into the
# translation unit that defines CATCH_CONFIG_MAIN or CATCH_CONFIG_RUNNER. It is compiled once here,
# and every target that links Catch2::Catch2 gets it; a test's own main calls run_catch_session
# (tests/catch_session.h), since Catch2 declares Catch::Session only beside its implementation.
# A program that still compiles the implementation itself links fine: the static library's object
# is then never pulled in.
function(bifscope_compile_catch_once source)
  add_library(bifscope_catch_session STATIC ${source})
  # catch_session.h beside the source: the mains' run_catch_session
  target_include_directories(bifscope_catch_session PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  get_target_property(catch_includes Catch2::Catch2 INTERFACE_INCLUDE_DIRECTORIES)
  if(catch_includes)
    target_include_directories(bifscope_catch_session SYSTEM PUBLIC ${catch_includes})
  endif()
  target_link_libraries(Catch2::Catch2 INTERFACE bifscope_catch_session)
endfunction()
