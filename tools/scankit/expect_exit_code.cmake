# Runs COMMAND with the ;-separated ARGS and fails unless it exits with status EXPECTED (and,
# with MATCH, unless its stdout and stderr together match the regular expression MATCH).
# A non-zero EXPECTED also needs an error message on stderr.
#   cmake -DCOMMAND=<exe> "-DARGS=a;b" -DEXPECTED=2 [-DMATCH=regex] -P expect_exit_code.cmake
execute_process(COMMAND "${COMMAND}" ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "${COMMAND} ${ARGS}: exit status ${rc}, expected ${EXPECTED}\n${out}${err}")
endif()
if(NOT EXPECTED STREQUAL "0" AND NOT err MATCHES "error:")
  message(FATAL_ERROR "${COMMAND} ${ARGS}: no error message on stderr\n${err}")
endif()
if(DEFINED MATCH AND NOT MATCH STREQUAL "" AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "${COMMAND} ${ARGS}: the output does not match '${MATCH}'\n${out}${err}")
endif()
message(STATUS "${COMMAND} ${ARGS}: exit status ${rc} as expected")
