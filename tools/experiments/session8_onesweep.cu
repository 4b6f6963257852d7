// Session 8 experiment (not part of the library build): onesweep tile shapes, and keys staged
// in shared memory as they are ranked ("early") instead of after the look-back ("late").
//
// Staged late (the library until now), every thread holds its keys (and values) and their
// ranks in registers across the look-back, so registers cap the blocks per SM (keys only:
// 3 x 384 threads at 56 registers; pairs: 2 x 384). Staged early, nothing per item survives
// the ranking in registers; shared memory holds the tile instead, and more blocks may fit.
//
// Each variant runs the library's onesweep driver (radix::run_onesweep_shape) with the given
// shape on the same input as CUB's DeviceRadixSort (same process, L2 flushed before each run,
// median of runs) and is checked against CUB's output.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session8_onesweep.cu build/release/libscankit.a -ltbb -o session8_onesweep
#include "onesweep_experiment.cuh"

void keys_variants(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now)", reps);
  if (c.n >= (std::int64_t{1} << 27) || c.n == (std::int64_t{1} << 24)) {  // round 8's, again
    run_shape<no_v, radix::onesweep_shape{384, 19, 3, true}>(c, "early", reps);
    run_shape<no_v, radix::onesweep_shape{512, 16, 3, true}>(c, "early", reps);
  }
  run_shape<no_v, radix::onesweep_shape{384, 24, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 28, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{1024, 12, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{640, 20, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now), again", reps);
}

void pairs_variants(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 16, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 20, 2}>(c, "late", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now), again", reps);
}

// Round 10: around the best of round 9, more runs; pairs; 64-bit keys.
void keys_round10(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 28, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{640, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early, again", reps);
}
void pairs_round10(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 16, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early", reps);
}
void keys64_round10(context<std::uint64_t>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 12, 3}>(c, "late (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 10, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 12, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 12, 3, true}>(c, "early", reps);
}

// Round 17: one more key per thread or two at 3 blocks per SM, where the 40-register budget
// allows it without spills.
void keys_round17(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 23, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now), again", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 3, true}>(c, "early, again", reps);
}

// Session 9 (round s9): 8-byte keys with 4-byte values, staged late at 384 x 12 (the library
// until session 9) against early tiles (ptxas: 384 x 16 early at 80 registers, no spills).
void pairs64_session9(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 12, 2}>(c, "late (session 8)", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 12, 2}>(c, "late (session 8), again", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2, true}>(c, "early (library now), again", reps);
}

// Session 19: 4-byte pairs at 3 and 4 blocks per SM (only 2 per SM had been tried staged
// early; session 12's Nsight Compute had the 384 x 28 pairs kernel at 37.5% occupancy, waiting
// on barriers, memory and the store queue, about 40% SM busy).
void pairs_session19(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 20, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 24, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 28, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 14, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 3: round 2 (s19 above) had 384 x 32 at one block per SM beat the library's
// 384 x 28 at two (1.042x against 1.022x CUB at 2^28): bigger tiles at one block per SM.
void pairs_session19b(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 28, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{1024, 16, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{1024, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_session19b(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 16, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 4: 8-byte values (the library: 4-byte keys 512 x 13 at 2 blocks per SM,
// 8-byte keys 384 x 12 staged late), bigger tiles at one block per SM; and 4-byte pairs at mid
// sizes, where one block of 20,480 keys per SM leaves SMs idle.
using v8 = unsigned long long;
void pairs_v8_session19(context<unsigned>& c, int reps) {
  run_shape<v8, radix::onesweep_shape{512, 13, 2, true}>(c, "early (library now)", reps);
  run_shape<v8, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 28, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{768, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 13, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_v8_session19(context<std::uint64_t>& c, int reps) {
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now)", reps);
  run_shape<v8, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 20, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{640, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{768, 12, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now), again", reps);
}
void pairs_mid_session19(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_mid_session19(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 6: do keys alone gain from bigger tiles too? (The keys kernel was bound
// by its integer pipe in session 12, unlike pairs.)
void keys_session19(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 40, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{1024, 24, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now), again", reps);
}
void keys64_session19(context<std::uint64_t>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 28, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 20, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 20: 16-byte values, which kept session 8's 256 x 8 staged late and ran at 0.92-0.96x
// CUB from 2^23 to 2^28 with uint32 keys (1.02-1.03x with uint64 keys; docs/results/
// s20-sweep-u32-v16.csv): the one-block-per-SM tiles that paid for 8-byte values in session 19.
using v16 = radix::blob16;
void pairs_v16_session20(context<unsigned>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{512, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{640, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 12, 2, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 16, 2, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 8, 2}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}
void pairs64_v16_session20(context<std::uint64_t>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{512, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{640, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}

// Session 20: one-byte keys with 4-byte values (int8 pairs 1.07x CUB at 2^28 in session 19,
// the one pairs row under 1.1x; 512 x 40 at one block per SM gave 1.05x).
void pairs8_session20(context<unsigned char>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 28, 3, true}>(c, "early", reps);  // (36 keys spilled 324 bytes)
  run_shape<v4, radix::onesweep_shape{640, 28, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

// Session 20, round 5: one-byte keys with 4-byte values at 2^14-2^19 ran at 0.88-0.97x CUB (the
// library's sweep in round 4): one pass over a few tiles (5 of 12,288 keys at 2^16), so smaller
// tiles, more of them in flight at once.
void pairs8_mid_session20(context<unsigned char>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (before)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 4, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 8, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early (library now), again", reps);
}

// Session 20, round 11: two-byte keys with 4-byte values ran at 1.01-1.09x CUB from 2^14 to
// 2^17 on 384 x 28 (round 5): the one-byte keys' small tiles there.
void pairs16_mid_session20(context<unsigned short>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 8, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

int main(int argc, char** argv) {
  const std::string round = argc > 1 ? argv[1] : "8";
  if (round == "s20c") {
    for (int lg : {14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 28})
      with_context<unsigned short>(std::int64_t{1} << lg, true, pairs16_mid_session20);
    return 0;
  }
  if (round == "s20b") {
    for (int lg : {14, 15, 16, 17, 18, 19, 20, 21, 22}) with_context<unsigned char>(std::int64_t{1} << lg, true, pairs8_mid_session20);
    return 0;
  }
  if (round == "s20") {
    for (int lg : {28, 24}) with_context<unsigned char>(std::int64_t{1} << lg, true, pairs8_session20);
    for (int lg : {28, 24, 22}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_v16_session20, 16);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_v16_session20, 16);
    return 0;
  }
  if (round == "s19d") {
    for (int lg : {28, 30, 24}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_session19);
    for (int lg : {28, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, false, keys64_session19);
    return 0;
  }
  if (round == "s19c") {
    for (int lg : {28, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_v8_session19, 8);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_v8_session19, 8);
    for (int lg : {16, 18, 20, 21, 22, 23, 25, 27, 29})
      with_context<unsigned>(std::int64_t{1} << lg, true, pairs_mid_session19);
    for (int lg : {16, 18, 20, 21, 22, 23, 25, 28}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_mid_session19);
    return 0;
  }
  if (round == "s19b") {
    for (int lg : {28, 26, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_session19b);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_session19b);
    return 0;
  }
  if (round == "s19") {
    for (int lg : {28, 24, 30}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_session19);
    return 0;
  }
  if (round == "s9") {
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_session9);
    return 0;
  }
  if (round == "17") {
    for (int lg : {28, 28, 30, 26, 24, 20}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_round17);
    return 0;
  }
  if (round == "10") {
    for (int lg : {28, 30, 26, 22, 20}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_round10);
    for (int lg : {28, 22}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_round10);
    for (int lg : {28, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, false, keys64_round10);
    return 0;
  }
  // Round 8 measured 2^28 and 2^24 (keys, pairs); round 9 adds 2^30, 2^27, 2^20 and 2^16.
  const bool round9 = round == "9";
  for (int lg : round9 ? std::vector<int>{28, 30, 27, 24, 20, 16} : std::vector<int>{28, 24})
    with_context<unsigned>(std::int64_t{1} << lg, false, keys_variants);
  for (int lg : {28, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_variants);
  return 0;
}
