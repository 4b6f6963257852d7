// Warp shuffles for any trivially copyable T: the hardware shuffle where it has an overload for
// T, else one 32-bit word at a time.
#pragma once

#include <cstring>
#include <type_traits>

namespace scankit::cuda::detail {

/// Applies a 32-bit shuffle to every word of v (for types the hardware shuffle has no
/// overload for).
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(T v, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T>, "scan items must be trivially copyable");
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = shuffle(w[i]);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
inline constexpr bool native_shuffle = std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
__device__ __forceinline__ T shfl_up(T v, unsigned delta) {
  if constexpr (native_shuffle<T>) return __shfl_up_sync(0xffffffffu, v, delta);
  else return shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(0xffffffffu, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_idx(T v, int src) {
  if constexpr (native_shuffle<T>) return __shfl_sync(0xffffffffu, v, src);
  else return shuffle_words(v, [src](unsigned w) { return __shfl_sync(0xffffffffu, w, src); });
}

template <class T>
__device__ __forceinline__ T shfl_down(T v, unsigned delta) {
  if constexpr (native_shuffle<T>) return __shfl_down_sync(0xffffffffu, v, delta);
  else return shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}

}  // namespace scankit::cuda::detail
