// One point of `bench|sweep|verify segments`: the input (a layout of segments over n values),
// every selected row timed and checked against the serial loop, and the floor it is compared
// with (segments/measure.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/report.hpp"

namespace scankit::tools {

struct seg_row {
  seg_row(std::string n, std::string g) : name(std::move(n)), group(std::move(g)) {}
  std::string name, group;  // group: gpu | baseline | cpu
  std::string check = check_na, message;
  std::vector<double> samples_ms;
  double ms = NAN;
  std::size_t workspace_bytes = 0;
};

struct seg_point {
  std::int64_t n = 0, mean = 0;
  std::int64_t count = 0;  // segments (offsets - 1)
  std::int64_t runs = 0;   // non-empty segments (the runs of the keys)
  std::size_t bytes = 0;   // what the operation must move: the GB/s numerator
  std::string floor;       // "read" (reduce ops) or "copy" (scan ops)
  double floor_ms = NAN, cub_ms = NAN;
  std::vector<seg_row> rows;
};

/// What to run at every point.
struct seg_spec {
  std::string op, dist;
  std::vector<std::string> rows;  // scankit, merge-path, block-per-segment, cpu, cpu-serial
  bool cub = false, read = false, copy = false;
  int reps = 20;
  std::uint64_t seed = 0;
};

/// Whether an op reduces (its floor is a read) or scans (its floor is a copy).
inline bool seg_op_reduces(const std::string& op) { return op == "reduce" || op == "reduce-by-key"; }

/// Builds the input of `type` (i32 ... f64) with n values and segments of `mean` items on
/// average, runs the rows and baselines of `sp` (the GPU ones only when `gpu`) and checks them.
seg_point measure_segments(const seg_spec& sp, const std::string& type, std::int64_t n, std::int64_t mean, bool gpu);

}  // namespace scankit::tools
