# Compile time: headers that many translation units parse again and again are precompiled once and
# shared, and Catch2's implementation is compiled once. CI builds everything from scratch on two
# cores, and most of its time is the compiler reading Qt, Catch2 and Eigen headers.
#
# A precompiled header is reused (REUSE_FROM) only by targets compiled with the same flags as the
# target that makes it: the same language standard, optimisation, -fPIC and sanitizer flags (g++
# ignores a header made with other flags, clang refuses it). Extra or missing -D definitions are
# fine, a definition with another value is not (clang).
#
# Developers using ccache: precompiled headers need
#   CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# (README.md, "Building by hand").

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

# Does `target` link `wanted`, directly or through the project's own libraries?
function(_bifscope_links_to target wanted result)
  set(${result} FALSE PARENT_SCOPE)
  set(seen "")
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue current)
    if(current IN_LIST seen OR NOT TARGET ${current})
      continue()
    endif()
    list(APPEND seen ${current})
    get_target_property(imported ${current} IMPORTED)
    if(imported)
      get_target_property(links ${current} INTERFACE_LINK_LIBRARIES)
    else()
      get_target_property(links ${current} LINK_LIBRARIES)
    endif()
    if(NOT links)
      continue()
    endif()
    foreach(link IN LISTS links)
      if(link STREQUAL wanted)
        set(${result} TRUE PARENT_SCOPE)
        return()
      endif()
      if(TARGET ${link})
        list(APPEND queue ${link})
      endif()
    endforeach()
  endwhile()
endfunction()

# Every target defined in `dir` and the folders below it.
function(_bifscope_targets_below dir result)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _bifscope_targets_below(${subdir} below)
    list(APPEND targets ${below})
  endforeach()
  set(${result} ${targets} PARENT_SCOPE)
endfunction()

# Gives every executable and library below `dir` that links `marker` the precompiled header of
# `donor` (which must have one of its own), unless the target has its own or opted out with the
# property BIFSCOPE_NO_SHARED_PCH. Run once all targets below `dir` exist, so that a test added
# anywhere below gets the header without a line of its own.
function(bifscope_share_pch dir donor marker)
  _bifscope_targets_below(${dir} targets)
  foreach(target IN LISTS targets)
    if(target STREQUAL donor)
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(own ${target} PRECOMPILE_HEADERS)
    get_target_property(reused ${target} PRECOMPILE_HEADERS_REUSE_FROM)
    get_target_property(opted_out ${target} BIFSCOPE_NO_SHARED_PCH)
    if(own OR reused OR opted_out)
      continue()
    endif()
    _bifscope_links_to(${target} ${marker} links)
    if(links)
      target_precompile_headers(${target} REUSE_FROM ${donor})
    endif()
  endforeach()
endfunction()
