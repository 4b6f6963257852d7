# The distributed primitives (include/scankit/dist), header-only:
#   scankit::dist_mpi   over MPI on CPU ranks: the headers, scankit::cpu and MPI (when found)
#   scankit::dist_nccl  over NCCL on GPU ranks: the headers, scankit::cuda and NCCL (when the
#                       CUDA backend is built and NCCL is found, e.g. in the CUDA toolkit);
#                       defines SCANKIT_HAS_NCCL
# Sets SCANKIT_HAS_MPI and SCANKIT_HAS_NCCL.

set(SCANKIT_HAS_MPI OFF)
if(SCANKIT_ENABLE_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(SCANKIT_HAS_MPI ON)
    add_library(scankit_dist_mpi INTERFACE)
    add_library(scankit::dist_mpi ALIAS scankit_dist_mpi)
    target_link_libraries(scankit_dist_mpi INTERFACE scankit_cpu MPI::MPI_CXX)
    message(STATUS "scankit: distributed primitives over MPI (MPI ${MPI_CXX_VERSION})")
    # How the tests start processes (SCANKIT_MPIEXEC_FLAGS after -n N): Open MPI refuses more
    # processes than cores without --oversubscribe, and refuses to run as root without
    # --allow-run-as-root (CI containers run as root).
    set(SCANKIT_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
    execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _scankit_mpiexec_version
                    ERROR_VARIABLE _scankit_mpiexec_version RESULT_VARIABLE _scankit_rc)
    if(_scankit_mpiexec_version MATCHES "Open MPI|OpenRTE")
      list(APPEND SCANKIT_MPIEXEC_FLAGS --oversubscribe)
      execute_process(COMMAND id -u OUTPUT_VARIABLE _scankit_uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(_scankit_uid STREQUAL "0")
        list(APPEND SCANKIT_MPIEXEC_FLAGS --allow-run-as-root)
      endif()
    endif()
  else()
    message(STATUS "scankit: MPI not found, no distributed primitives on CPU ranks")
  endif()
endif()

set(SCANKIT_HAS_NCCL OFF)
if(SCANKIT_HAS_CUDA AND SCANKIT_ENABLE_NCCL)
  find_path(SCANKIT_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(SCANKIT_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} "${CUDAToolkit_LIBRARY_ROOT}/lib")
  if(SCANKIT_NCCL_INCLUDE_DIR AND SCANKIT_NCCL_LIBRARY)
    set(SCANKIT_HAS_NCCL ON)
    add_library(scankit_dist_nccl INTERFACE)
    add_library(scankit::dist_nccl ALIAS scankit_dist_nccl)
    target_include_directories(scankit_dist_nccl INTERFACE ${SCANKIT_NCCL_INCLUDE_DIR})
    target_link_libraries(scankit_dist_nccl INTERFACE scankit_cuda ${SCANKIT_NCCL_LIBRARY})
    target_compile_definitions(scankit_dist_nccl INTERFACE SCANKIT_HAS_NCCL=1)
    message(STATUS "scankit: distributed primitives over NCCL (${SCANKIT_NCCL_LIBRARY})")
  else()
    message(STATUS "scankit: NCCL not found, no distributed primitives on GPU ranks")
  endif()
endif()
