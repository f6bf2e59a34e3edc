#pragma once
/// @file bench_command.hpp
/// `novamd bench`: the sizes of seed 000's Table II (C/O mixture, all pairs) on one backend
/// and precision; prints ms per step, pair interactions per second, and the K20 comparison.

#include <cstdint>
#include <string>
#include <vector>

namespace novamd::app {

struct BenchOptions {
  std::string backend = "auto";
  std::string precision = "double";
  std::vector<std::int64_t> sizes;  ///< empty: all of Table II
  int steps = 0;                    ///< timed steps per size; 0 picks by backend
  int warmup = 2;
};

int bench_command(const BenchOptions& options);

}  // namespace novamd::app
