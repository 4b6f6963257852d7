# Compiles SOURCE and passes when the compiler rejects it with an error naming EXPECT (a
# concept of scankit/concepts.hpp) at the call site, rather than an error inside the library.
#   cmake -DCXX=... -DFLAGS="..." -DSOURCE=... -DEXPECT=... -P check.cmake
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND "${CXX}" ${flags} -fsyntax-only "${SOURCE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but must be rejected")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "the error does not name ${EXPECT}:\n${out}")
endif()
# One error, at the call: none from inside the implementation's headers.
string(REGEX MATCHALL "[^\n]*error:[^\n]*" errors "${out}")
list(LENGTH errors count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one error, got ${count}:\n${out}")
endif()
message(STATUS "rejected as expected, naming ${EXPECT}")
