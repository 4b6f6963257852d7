# CMake 3.25 predates nvcc's C++20 mode, so CMAKE_CUDA_STANDARD 20 has no flag to map to there.
# This teaches it the flag (newer CMake versions define it themselves and are left alone).
# Included after enable_language(CUDA) by scankit and by scankitConfig.cmake for consumers.
if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
