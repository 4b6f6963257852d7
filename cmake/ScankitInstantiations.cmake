# The CUDA backend's explicit instantiations: one generated .cu file per primitive and element
# type, listed as data here instead of as near-identical files in src/.
#
#   scankit_instantiations(<out-var>) sets <out-var> to the generated files.

# type tag -> C++ type
set(_scankit_type_i8 std::int8_t)
set(_scankit_type_i16 std::int16_t)
set(_scankit_type_i32 std::int32_t)
set(_scankit_type_i64 std::int64_t)
set(_scankit_type_u8 std::uint8_t)
set(_scankit_type_u16 std::uint16_t)
set(_scankit_type_u32 std::uint32_t)
set(_scankit_type_u64 std::uint64_t)
set(_scankit_type_f32 float)
set(_scankit_type_f64 double)

# Which element types each primitive is built for.
set(_scankit_scan_types i32 u32 i64 u64 f32 f64)
set(_scankit_compact_types i32 u32 i64 u64 f32 f64 u8)
set(_scankit_histogram_types u8 u16 i32 u32 i64 f32 f64)
set(_scankit_sort_types u8 u16 u32 u64 i8 i16 i32 i64 f32 f64)

# The built-in scan operators: every type takes the arithmetic ones, integers the bitwise ones.
set(_scankit_scan_ops sum product min max)
set(_scankit_scan_integer_ops bit_and bit_or bit_xor)

function(_scankit_instantiation_lines primitive tag out)
  set(T ${_scankit_type_${tag}})
  set(lines "")
  if(primitive STREQUAL "scan")
    set(ops ${_scankit_scan_ops})
    if(NOT tag MATCHES "^f")
      list(APPEND ops ${_scankit_scan_integer_ops})
    endif()
    foreach(op IN LISTS ops)
      string(APPEND lines "SCANKIT_INSTANTIATE_SCAN(scankit::${op}<${T}>)\n")
    endforeach()
  elseif(primitive STREQUAL "compact")
    string(APPEND lines "SCANKIT_INSTANTIATE_COMPACT(${T})\n")
  elseif(primitive STREQUAL "histogram")
    foreach(count std::uint32_t std::uint64_t)
      string(APPEND lines "SCANKIT_INSTANTIATE_HISTOGRAM(${T}, ${count})\n")
      if(NOT tag MATCHES "^f")
        string(APPEND lines "SCANKIT_INSTANTIATE_BINCOUNT(${T}, ${count})\n")
      endif()
    endforeach()
  elseif(primitive STREQUAL "sort")
    string(APPEND lines "SCANKIT_INSTANTIATE_SORT(${T})\n")
  else()
    message(FATAL_ERROR "scankit: no instantiations for primitive '${primitive}'")
  endif()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

function(scankit_instantiations out)
  set(files "")
  foreach(PRIMITIVE scan compact histogram sort)
    foreach(tag IN LISTS _scankit_${PRIMITIVE}_types)
      set(TYPE_NAME ${_scankit_type_${tag}})
      _scankit_instantiation_lines(${PRIMITIVE} ${tag} INSTANTIATIONS)
      # Generated under the binary dir with the same relative path a source file would have,
      # so object names stay src/cuda/<primitive>_<type>.cu.o.
      set(file "${PROJECT_BINARY_DIR}/src/cuda/${PRIMITIVE}_${tag}.cu")
      configure_file("${PROJECT_SOURCE_DIR}/cmake/instantiate.cu.in" "${file}" @ONLY)
      list(APPEND files "${file}")
    endforeach()
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()
