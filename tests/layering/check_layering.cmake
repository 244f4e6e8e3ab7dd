# Checks that every #include under engine/ and kernels/ points down the layer order, and prints each
# one that does not as `file:line: ...`, failing when there is any.
#   cmake -DROOT=<source tree> -P check_layering.cmake
#
# The order, lowest first, as the tree builds it (each layer's CMake target links only those below):
#   0 kernels           kernels/bif, included as "bif/...": header-only, includes nothing of engine/
#   1 engine/symbolic   expression trees and their derivatives
#   2 engine/model      the .ode language (its expressions are symbolic trees)
#   3 engine/codegen    lowering and C++/CUDA source per model
#   4 engine/study      studies: JSON, resolution against a model, results
#   5 engine/analysis   analyses of finished trajectories (the attractor table)   } beside each
#   5 engine/continuation  equilibria, pseudo-arclength branches, special points   } other
#   6 engine/ensemble   the host side of kernels/bif/study, shared by both backends
#   7 engine/cpu        CPU backend   } beside each other: neither includes the other
#   7 engine/cuda       CUDA backend  }
#   8 engine/jobs       jobs and the choice of backend
#   9 ui, app           the clients; never included from engine/ or kernels/
# A file may include its own layer and any layer of a lower rank. Besides the order: no Qt header
# (<Q...>) anywhere in engine/ or kernels/, every quoted include names its layer ("engine/x/...",
# "bif/..."), and every folder of engine/ has a place in the order (a new stage is added here).

cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P check_layering.cmake")
endif()

set(layer_ranks
  kernels=0 engine/symbolic=1 engine/model=2 engine/codegen=3 engine/study=4 engine/analysis=5 engine/continuation=5
  engine/ensemble=6 engine/cpu=7 engine/cuda=7 engine/jobs=8 ui=9 app=9)
foreach(entry IN LISTS layer_ranks)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 layer)
  list(GET pair 1 rank)
  set(rank_of_${layer} ${rank})
endforeach()

# layer_of_include(<path> <out>): the layer an include path names; "" for one that names none.
function(layer_of_include path out)
  set(layer "")
  if(path MATCHES "^bif/")
    set(layer kernels)
  elseif(path MATCHES "^engine/([^/]+)/")
    set(layer engine/${CMAKE_MATCH_1})
  elseif(path MATCHES "^(ui|app)/")
    set(layer ${CMAKE_MATCH_1})
  endif()
  set(${out} "${layer}" PARENT_SCOPE)
endfunction()

# line_of(<file> <text> <out>): the 1-based line of the first occurrence of text in file.
function(line_of file text out)
  file(READ "${file}" content)
  string(FIND "${content}" "${text}" position)
  string(SUBSTRING "${content}" 0 ${position} before)
  string(REGEX REPLACE "[^\n]" "" newlines "${before}")
  string(LENGTH "${newlines}" count)
  math(EXPR line "${count} + 1")
  set(${out} ${line} PARENT_SCOPE)
endfunction()

set(violations 0)
# report(<file> <include line> <why>): prints one violation as file:line.
macro(report file include_line why)
  line_of("${file}" "${include_line}" line)
  file(RELATIVE_PATH shown "${ROOT}" "${file}")
  message("${shown}:${line}: ${why}: ${include_line}")
  math(EXPR violations "${violations} + 1")
endmacro()

file(GLOB_RECURSE sources LIST_DIRECTORIES false
  "${ROOT}/engine/*.h" "${ROOT}/engine/*.hpp" "${ROOT}/engine/*.cuh" "${ROOT}/engine/*.cpp"
  "${ROOT}/engine/*.cu" "${ROOT}/kernels/*.h" "${ROOT}/kernels/*.hpp" "${ROOT}/kernels/*.cuh"
  "${ROOT}/kernels/*.cpp" "${ROOT}/kernels/*.cu")
list(SORT sources)

foreach(file IN LISTS sources)
  file(RELATIVE_PATH relative "${ROOT}" "${file}")
  if(relative MATCHES "^kernels/")
    set(own kernels)
  elseif(relative MATCHES "^engine/([^/]+)/")
    set(own engine/${CMAKE_MATCH_1})
  else()
    message("${relative}:1: a file outside the stage folders of engine/")
    math(EXPR violations "${violations} + 1")
    continue()
  endif()
  set(own_rank "${rank_of_${own}}")
  if(own_rank STREQUAL "")
    message("${relative}:1: ${own} has no place in the layer order of tests/layering/check_layering.cmake")
    math(EXPR violations "${violations} + 1")
    continue()
  endif()

  file(STRINGS "${file}" include_lines REGEX "^[ \t]*#[ \t]*include")
  foreach(include_line IN LISTS include_lines)
    if(NOT include_line MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]+)[>\"]")
      continue()
    endif()
    set(bracket "${CMAKE_MATCH_1}")
    set(path "${CMAKE_MATCH_2}")
    if(bracket STREQUAL "<" AND path MATCHES "^Q[A-Za-z0-9_]*(/|$)")
      report("${file}" "${include_line}" "Qt in ${own}")
      continue()
    endif()
    layer_of_include("${path}" target)
    if(target STREQUAL "")
      if(bracket STREQUAL "\"")
        report("${file}" "${include_line}" "a quoted include that names no layer (write engine/<stage>/... or bif/...)")
      endif()
      continue()
    endif()
    if(target STREQUAL own)
      continue()
    endif()
    set(target_rank "${rank_of_${target}}")
    if(target_rank STREQUAL "")
      report("${file}" "${include_line}" "${target} has no place in the layer order")
    elseif(target_rank EQUAL own_rank)
      report("${file}" "${include_line}" "${own} includes ${target}, a layer beside it")
    elseif(target_rank GREATER own_rank)
      report("${file}" "${include_line}" "${own} includes ${target}, a layer above it")
    endif()
  endforeach()
endforeach()

list(LENGTH sources scanned)
if(violations GREATER 0)
  message(FATAL_ERROR "${violations} layering violation(s) in ${scanned} files")
endif()
message("layering: ${scanned} files, every include points down the order")
