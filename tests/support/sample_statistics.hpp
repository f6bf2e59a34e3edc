#pragma once
/// @file sample_statistics.hpp
/// Means, variances and block errors of a run's samples (correlated in time), for the tests
/// that compare ensemble averages with references.

#include <cmath>
#include <numeric>
#include <vector>

namespace novamd::test {

inline double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// The unbiased sample variance.
inline double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double square = 0.0;
  for (const double x : v) square += (x - m) * (x - m);
  return square / static_cast<double>(v.size() - 1);
}

/// The standard error of the mean from `blocks` block means (correlated samples; the blocks
/// must be longer than the correlation time).
inline double block_error(const std::vector<double>& v, int blocks) {
  const std::size_t size = v.size() / static_cast<std::size_t>(blocks);
  std::vector<double> means;
  for (int b = 0; b < blocks; ++b)
    means.push_back(std::accumulate(v.begin() + b * size, v.begin() + (b + 1) * size, 0.0) /
                    static_cast<double>(size));
  return std::sqrt(variance_of(means) / blocks);
}

}  // namespace novamd::test
