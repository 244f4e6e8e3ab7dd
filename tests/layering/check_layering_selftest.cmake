# The layering check on two small trees written here: one that follows the order (it must pass) and
# one with a violation of each kind (it must fail, naming each offending file and line).
#   cmake -DCHECK=<check_layering.cmake> -DWORK=<scratch folder> -P check_layering_selftest.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT CHECK OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DCHECK=<check_layering.cmake> -DWORK=<folder> -P check_layering_selftest.cmake")
endif()
file(REMOVE_RECURSE "${WORK}")

# run_check(<root> <exit code out> <output out>)
function(run_check root code_out text_out)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${root} -P ${CHECK}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${code_out} "${code}" PARENT_SCOPE)
  set(${text_out} "${out}" PARENT_SCOPE)
endfunction()

# Every layer including one below it, a kernel header, and a system header.
set(clean "${WORK}/clean")
file(WRITE "${clean}/kernels/bif/config.h" "#pragma once\n#include <cmath>\n")
file(WRITE "${clean}/engine/model/model.h" "#include \"engine/symbolic/expr.h\"\n")
file(WRITE "${clean}/engine/codegen/codegen.cpp" "#include \"bif/config.h\"\n#include \"engine/model/model.h\"\n")
file(WRITE "${clean}/engine/ensemble/study_spec.h" "#include \"engine/study/resolved_study.h\"\n")
file(WRITE "${clean}/engine/cuda/runner.cpp" "#include \"engine/ensemble/study_spec.h\"\n#include <vector>\n")
file(WRITE "${clean}/engine/jobs/registry.cpp" "#include \"engine/cpu/cpu_backend.h\"\n#include \"engine/cuda/cuda_backend.h\"\n")
run_check("${clean}" code out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the check refused a tree that follows the order:\n${out}")
endif()

# One violation of each kind, at known lines; the lines before them hold what a naive line count or
# a CMake list would trip on (semicolons, brackets, an include in a comment and in a string).
set(bad "${WORK}/bad")
set(noise "int a[2] = {1, 2}; // [x;\nconst char* s = \"#include \\\"engine/jobs/job.h\\\"\";\n// #include \"engine/jobs/job.h\"\n")
file(WRITE "${bad}/engine/cuda/runner.cpp" "${noise}#include \"engine/cpu/batch_arrays.h\"\n")
file(WRITE "${bad}/engine/symbolic/expr.h" "#pragma once\n#include \"engine/model/model.h\"\n")
file(WRITE "${bad}/engine/study/result.cpp" "#include \"engine/study/result.h\"\n\n#include <QString>\n")
file(WRITE "${bad}/kernels/bif/integrate.h" "#include \"bif/config.h\"\n  #  include \"engine/study/study.h\"\n")
file(WRITE "${bad}/engine/jobs/job.cpp" "#include \"engine/cuda/cuda_backend.h\"\n#include \"ui/window/main_window.h\"\n")
file(WRITE "${bad}/engine/model/lexer.cpp" "#include \"lexer.h\"\n")
file(WRITE "${bad}/engine/newstage/thing.h" "#pragma once\n")
run_check("${bad}" code out)
if(code EQUAL 0)
  message(FATAL_ERROR "the check passed a tree with violations:\n${out}")
endif()
foreach(expected
    "engine/cuda/runner.cpp:4: engine/cuda includes engine/cpu, a layer beside it"
    "engine/symbolic/expr.h:2: engine/symbolic includes engine/model, a layer above it"
    "engine/study/result.cpp:3: Qt in engine/study"
    "kernels/bif/integrate.h:2: kernels includes engine/study, a layer above it"
    "engine/jobs/job.cpp:2: engine/jobs includes ui, a layer above it"
    "engine/model/lexer.cpp:1: a quoted include that names no layer"
    "engine/newstage/thing.h:1: engine/newstage has no place in the layer order"
    "7 layering violation(s) in 7 files")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected in the check's output: ${expected}\nthe output:\n${out}")
  endif()
endforeach()
message("layering self-test: a clean tree passes, each kind of violation is reported at its line")
