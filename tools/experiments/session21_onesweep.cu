// Session 21 experiment (not part of the library build): tiles for 1- and 2-byte keys with 8-
// and 16-byte values. Session 21's first CUB rows for them (docs/results/session21-round1.log)
// found them slower than CUB at large sizes on the tiles they had kept since session 8 (384 x
// 12 and 256 x 8, staged late): uint8 + 8 B 0.92x at 2^28, uint16 + 8 B 0.87x, uint16 + 16 B
// 0.92x, uint8 + 16 B 0.99-1.04x; uint8 + 8 B also 0.94-0.99x at 2^15-2^17. The candidates are
// the tiles that paid for 4-byte keys with the same values (sessions 19-20), and smaller early
// tiles for the mid sizes.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments tools/experiments/session21_onesweep.cu build/release/libscankit.a \
//        -ltbb -o build/release/session21_onesweep
//   session21_onesweep [u8v8|u16v8|u8v16|u16v16|all|small16|mid16]
#include <string>

#include "onesweep_experiment.cuh"

using v8 = unsigned long long;
using v16 = radix::blob16;

template <class K>
void narrow_v8(context<K>& c, int reps) {
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now)", reps);
  run_shape<v8, radix::onesweep_shape{512, 13, 2, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{384, 16, 2, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 20, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 28, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{256, 16, 3, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now), again", reps);
}

template <class K>
void narrow_v16(context<K>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 16, 2, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 3, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}

// Round 4: one-byte keys with 16-byte values at 2^14-2^18 ran at 0.99-1.05x CUB on 256 x 8
// staged late (round 3's sweeps), and one sweep had 0.46x at 2^19, where 512 x 16 starts:
// smaller tiles and more blocks per SM below 2^19, and 512 x 16 at 2^19 again.
template <class K>
void narrow_v16_small(context<K>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{256, 4, 4, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 4, 4, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 4, 4}>(c, "late", reps);
  if (c.n >= (std::int64_t{1} << 19)) run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early (library from 2^19)", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}

// Round 6: one-byte keys with 16-byte values at 2^17-2^18, where 256 x 8 staged late runs at
// parity with CUB (0.99-1.04x) and round 4's smaller early tiles lost: other late tiles.
template <class K>
void narrow_v16_mid(context<K>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{384, 8, 2}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{256, 12, 2}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{512, 8, 2}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{256, 6, 4}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{384, 6, 3}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int sizes[] = {28, 25, 22, 19, 17, 15};
  if (which == "u8v8" || which == "all")
    for (int lg : sizes) with_context<unsigned char>(std::int64_t{1} << lg, true, narrow_v8<unsigned char>, 8);
  if (which == "u16v8" || which == "all")
    for (int lg : sizes) with_context<unsigned short>(std::int64_t{1} << lg, true, narrow_v8<unsigned short>, 8);
  if (which == "u8v16" || which == "all")
    for (int lg : sizes) with_context<unsigned char>(std::int64_t{1} << lg, true, narrow_v16<unsigned char>, 16);
  if (which == "u16v16" || which == "all")
    for (int lg : sizes) with_context<unsigned short>(std::int64_t{1} << lg, true, narrow_v16<unsigned short>, 16);
  if (which == "mid16")
    for (int lg : {17, 18}) {
      for (std::int64_t n : {std::int64_t{1} << lg, std::int64_t{3} << (lg - 1)}) {
        with_context<unsigned char>(n, true, narrow_v16_mid<unsigned char>, 16);
        with_context<signed char>(n, true, narrow_v16_mid<signed char>, 16);
      }
    }
  if (which == "small16")
    for (int lg : {14, 15, 16, 17, 18, 19}) {
      with_context<unsigned char>(std::int64_t{1} << lg, true, narrow_v16_small<unsigned char>, 16);
      with_context<signed char>(std::int64_t{1} << lg, true, narrow_v16_small<signed char>, 16);
    }
  return 0;
}
