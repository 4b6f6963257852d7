# Runs COMMAND with the ;-separated ARGS and fails unless it exits with status EXPECTED.
#   cmake -DCOMMAND=<exe> "-DARGS=a;b" -DEXPECTED=2 -P expect_exit_code.cmake
execute_process(COMMAND "${COMMAND}" ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "${COMMAND} ${ARGS}: exit status ${rc}, expected ${EXPECTED}\n${out}${err}")
endif()
if(NOT err MATCHES "error:")
  message(FATAL_ERROR "${COMMAND} ${ARGS}: no error message on stderr\n${err}")
endif()
message(STATUS "${COMMAND} ${ARGS}: exit status ${rc} as expected")
