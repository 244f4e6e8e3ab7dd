# Gathers the seed corpus and runs the fuzzer for a bounded time (ctest fuzz_model_parser_bounded).
file(MAKE_DIRECTORY ${CORPUS})
file(GLOB seeds ${SEEDS}/* ${MODELS}/*.ode)
foreach(seed IN LISTS seeds)
  file(COPY ${seed} DESTINATION ${CORPUS})
endforeach()
execute_process(
  COMMAND ${FUZZER} -max_total_time=60 -timeout=5 -rss_limit_mb=2048 -dict=${DICT} -print_final_stats=1 ${CORPUS}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "fuzz_model_parser found a problem (exit code ${result})")
endif()
