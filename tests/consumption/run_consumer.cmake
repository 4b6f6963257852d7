# Driver for one consumption test: cmake -DMODE=find_package|add_subdirectory ... -P run_consumer.cmake
#
#   MODE             find_package: install SCANKIT_BINARY_DIR into WORK_DIR/prefix, then build
#                    the consumer against it; add_subdirectory: build the consumer with the
#                    scankit source tree as a subdirectory
#   SCANKIT_SOURCE_DIR, SCANKIT_BINARY_DIR, CONSUMER_DIR, WORK_DIR
#   GENERATOR, MAKE_PROGRAM, CXX_COMPILER, BUILD_TYPE, CXX_FLAGS, EXE_LINKER_FLAGS, TBB_DIR,
#   EXPECT_CLI       find_package: the install must hold the scankit CLI and its plot scripts
#   CUDA_ROOT, CUDA_COMPILER, CUDA_ARCHITECTURES
#                    passed through to the consumer's configure step (empty ones are left out);
#                    with CUDA_COMPILER set (find_package only), the consumer also builds and
#                    runs consumer_cuda, a .cu file scanning with its own monoid
cmake_minimum_required(VERSION 3.25)

foreach(var MODE SCANKIT_SOURCE_DIR CONSUMER_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is required")
  endif()
endforeach()

function(run)
  string(JOIN " " pretty ${ARGN})
  message(STATUS "run: ${pretty}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${pretty}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(configure_args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
foreach(pair MAKE_PROGRAM:CMAKE_MAKE_PROGRAM CXX_COMPILER:CMAKE_CXX_COMPILER
             BUILD_TYPE:CMAKE_BUILD_TYPE CXX_FLAGS:CMAKE_CXX_FLAGS
             EXE_LINKER_FLAGS:CMAKE_EXE_LINKER_FLAGS TBB_DIR:TBB_DIR CUDA_ROOT:CUDAToolkit_ROOT
             CUDA_COMPILER:CMAKE_CUDA_COMPILER CUDA_ARCHITECTURES:CMAKE_CUDA_ARCHITECTURES)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 in)
  list(GET pair 1 out)
  if(DEFINED ${in} AND NOT "${${in}}" STREQUAL "")
    list(APPEND configure_args "-D${out}=${${in}}")
  endif()
endforeach()

if(MODE STREQUAL "find_package")
  if(NOT SCANKIT_BINARY_DIR)
    message(FATAL_ERROR "run_consumer.cmake: SCANKIT_BINARY_DIR is required for find_package")
  endif()
  set(prefix "${WORK_DIR}/prefix")
  set(install_args --install "${SCANKIT_BINARY_DIR}" --prefix "${prefix}")
  if(BUILD_TYPE)
    list(APPEND install_args --config "${BUILD_TYPE}")
  endif()
  run("${CMAKE_COMMAND}" ${install_args})
  if(NOT EXISTS "${prefix}/include/scankit/scan.hpp")
    message(FATAL_ERROR "the install did not put the headers under ${prefix}/include")
  endif()
  if(EXPECT_CLI)
    # The CLI and its plot scripts are installed beside the library, and the CLI runs from there.
    foreach(f bin/scankit share/scankit/plot_sweep.py share/scankit/plot_sort.py share/scankit/plot_histogram.py)
      if(NOT EXISTS "${prefix}/${f}")
        message(FATAL_ERROR "the install did not produce ${prefix}/${f}")
      endif()
    endforeach()
    run("${prefix}/bin/scankit" --version)
  endif()
  file(GLOB_RECURSE configs "${prefix}/*/scankitConfig.cmake")
  if(NOT configs)
    message(FATAL_ERROR "the install did not produce scankitConfig.cmake under ${prefix}")
  endif()
  # A CPU-only consumer must configure where the CUDA toolkit is absent: it is hidden here.
  run("${CMAKE_COMMAND}" ${configure_args} -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON
      "-DCMAKE_PREFIX_PATH=${prefix}")
  # The package must come from the fresh prefix, not from anywhere else on the machine.
  file(STRINGS "${WORK_DIR}/build/CMakeCache.txt" found REGEX "^scankit_DIR:")
  string(FIND "${found}" "${prefix}/" at)
  if(NOT at GREATER -1)
    message(FATAL_ERROR "scankit was not found in ${prefix}: ${found}")
  endif()
  if(CUDA_COMPILER)
    # And a consumer of the CUDA backend, with its own monoid in a .cu file.
    list(TRANSFORM configure_args REPLACE "^${WORK_DIR}/build$" "${WORK_DIR}/build-cuda")
    run("${CMAKE_COMMAND}" ${configure_args} -DCONSUMER_CUDA=ON "-DCMAKE_PREFIX_PATH=${prefix}")
    run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build-cuda")
    run("${WORK_DIR}/build-cuda/consumer")
    run("${WORK_DIR}/build-cuda/consumer_cuda")
  endif()
elseif(MODE STREQUAL "add_subdirectory")
  run("${CMAKE_COMMAND}" ${configure_args} "-DSCANKIT_SOURCE_DIR=${SCANKIT_SOURCE_DIR}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
