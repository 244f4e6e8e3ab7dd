# Gathers a seed corpus and runs a fuzzer for a bounded time (ctest fuzz_*_bounded).
# -DEXAMPLES is a glob of the project's example inputs, copied in at test time so that examples added
# later are included.
file(MAKE_DIRECTORY ${CORPUS})
file(GLOB seeds ${SEEDS}/* ${EXAMPLES})
foreach(seed IN LISTS seeds)
  file(COPY ${seed} DESTINATION ${CORPUS})
endforeach()
get_filename_component(name ${FUZZER} NAME)
execute_process(
  COMMAND ${FUZZER} -max_total_time=60 -timeout=5 -rss_limit_mb=2048 -dict=${DICT} -print_final_stats=1 ${CORPUS}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${name} found a problem (exit code ${result})")
endif()
