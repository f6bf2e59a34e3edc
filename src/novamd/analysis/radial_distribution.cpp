#include "novamd/analysis/radial_distribution.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace novamd::analysis {

void count_pairs(const core::ParticleView& p, const core::Box& box, const DistanceBins& bins,
                 int species, std::vector<std::uint64_t>& counts) {
  const std::size_t size = static_cast<std::size_t>(species_pairs(species)) * bins.bins;
  counts.assign(size, 0);
  const auto view = box.view<double>();
  const auto n = static_cast<std::ptrdiff_t>(p.size);
#pragma omp parallel
  {
    std::vector<std::uint64_t> local(size, 0);
#pragma omp for schedule(dynamic, 16)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const core::Vec3<double> ri{p.x[i], p.y[i], p.z[i]};
      for (std::ptrdiff_t j = i + 1; j < n; ++j) {
        const int bin = bins.bin_of(view, ri, {p.x[j], p.y[j], p.z[j]});
        if (bin >= 0) ++local[species_pair_index(p.type[i], p.type[j], species) * bins.bins + bin];
      }
    }
#pragma omp critical
    for (std::size_t k = 0; k < size; ++k) counts[k] += local[k];
  }
}

RadialDistribution::RadialDistribution(DistanceBins bins, std::vector<std::int64_t> species_counts,
                                       double volume, std::vector<std::string> names)
    : bins_(bins),
      species_counts_(std::move(species_counts)),
      volume_(volume),
      names_(std::move(names)),
      counts_(static_cast<std::size_t>(species_pairs(species())) * bins.bins, 0) {}

void RadialDistribution::add_sample(const std::vector<std::uint64_t>& counts) {
  for (std::size_t k = 0; k < counts_.size(); ++k) counts_[k] += counts[k];
  ++samples_;
}

double RadialDistribution::pairs_of(int a, int b) const {
  const auto na = static_cast<double>(species_counts_[a]);
  const auto nb = static_cast<double>(species_counts_[b]);
  return a == b ? 0.5 * na * (na - 1.0) : na * nb;
}

double RadialDistribution::ideal(double pairs, int bin) const {
  const double inner = bin * bins_.width();
  const double outer = (bin + 1) * bins_.width();
  const double shell =
      4.0 / 3.0 * std::numbers::pi * (outer * outer * outer - inner * inner * inner);
  return pairs * shell / volume_;
}

double RadialDistribution::g(int a, int b, int bin) const {
  const double pairs = pairs_of(a, b);
  if (pairs == 0.0 || samples_ == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto count = counts_[species_pair_index(a, b, species()) * bins_.bins + bin];
  return static_cast<double>(count) / (static_cast<double>(samples_) * ideal(pairs, bin));
}

double RadialDistribution::g_total(int bin) const {
  std::uint64_t count = 0;
  double n = 0.0;
  for (int a = 0; a < species(); ++a) {
    n += static_cast<double>(species_counts_[a]);
    for (int b = a; b < species(); ++b)
      count += counts_[species_pair_index(a, b, species()) * bins_.bins + bin];
  }
  const double pairs = 0.5 * n * (n - 1.0);
  if (pairs == 0.0 || samples_ == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(count) / (static_cast<double>(samples_) * ideal(pairs, bin));
}

std::string RadialDistribution::csv() const {
  std::vector<std::pair<int, int>> columns;  // species pairs that have pairs
  std::string text = "r,g";
  for (int a = 0; a < species(); ++a) {
    for (int b = a; b < species(); ++b) {
      if (pairs_of(a, b) == 0.0) continue;
      columns.emplace_back(a, b);
      text += fmt::format(",g_{}_{}", names_[a], names_[b]);
    }
  }
  text += '\n';
  for (int bin = 0; bin < bins_.bins; ++bin) {
    text += fmt::format("{:.10g},{:.10g}", (bin + 0.5) * bins_.width(), g_total(bin));
    for (const auto& [a, b] : columns) text += fmt::format(",{:.10g}", g(a, b, bin));
    text += '\n';
  }
  return text;
}

}  // namespace novamd::analysis
