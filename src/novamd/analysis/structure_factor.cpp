#include "novamd/analysis/structure_factor.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace novamd::analysis {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

/// One of each pair +-n: the first nonzero integer is positive.
bool in_half_space(int nx, int ny, int nz) {
  return nx > 0 || (nx == 0 && (ny > 0 || (ny == 0 && nz > 0)));
}

}  // namespace

ModeSet reciprocal_modes(const core::Box& box, double q_max, int bins) {
  const auto& L = box.length();
  const int nx_max = static_cast<int>(std::floor(q_max * L.x / kTwoPi));
  const int ny_max = static_cast<int>(std::floor(q_max * L.y / kTwoPi));
  const int nz_max = static_cast<int>(std::floor(q_max * L.z / kTwoPi));
  const double width = q_max / bins;
  std::vector<std::vector<WaveVector>> by_bin(bins);
  ModeSet set;
  set.q_max = q_max;
  set.bins = bins;
  set.mean_q.assign(bins, 0.0);
  for (int nx = 0; nx <= nx_max; ++nx) {
    for (int ny = -ny_max; ny <= ny_max; ++ny) {
      for (int nz = -nz_max; nz <= nz_max; ++nz) {
        if (!in_half_space(nx, ny, nz)) continue;
        const double qx = kTwoPi * nx / L.x, qy = kTwoPi * ny / L.y, qz = kTwoPi * nz / L.z;
        const double q = std::sqrt(qx * qx + qy * qy + qz * qz);
        if (q > q_max) continue;
        const int bin = std::min(static_cast<int>(q / width), bins - 1);
        by_bin[bin].push_back({nx, ny, nz});
        set.mean_q[bin] += q;
      }
    }
  }
  set.bin_begin.push_back(0);
  for (int b = 0; b < bins; ++b) {
    set.vectors.insert(set.vectors.end(), by_bin[b].begin(), by_bin[b].end());
    set.bin_begin.push_back(static_cast<std::int64_t>(set.vectors.size()));
    if (!by_bin[b].empty()) set.mean_q[b] /= static_cast<double>(by_bin[b].size());
  }
  return set;
}

double estimated_modes(const core::Box& box, double q_max) {
  return 0.5 * 4.0 / 3.0 * std::numbers::pi * q_max * q_max * q_max * box.volume() /
         (kTwoPi * kTwoPi * kTwoPi);
}

std::vector<double> column_scales(const std::vector<std::int64_t>& species_counts,
                                  const std::vector<double>& weights) {
  const int species = static_cast<int>(species_counts.size());
  std::vector<double> scales(structure_factor_columns(species), 0.0);
  double n = 0.0, weight_squares = 0.0;
  for (int a = 0; a < species; ++a) {
    n += static_cast<double>(species_counts[a]);
    weight_squares += static_cast<double>(species_counts[a]) * weights[a] * weights[a];
  }
  scales[0] = n > 0.0 ? 1.0 / n : 0.0;
  scales[1] = weight_squares > 0.0 ? 1.0 / weight_squares : 0.0;
  for (int a = 0; a < species; ++a) {
    for (int b = a; b < species; ++b) {
      const double pairs = static_cast<double>(species_counts[a]) * species_counts[b];
      scales[2 + species_pair_index(a, b, species)] = pairs > 0.0 ? 1.0 / std::sqrt(pairs) : 0.0;
    }
  }
  return scales;
}

void density_modes(const core::ParticleView& p, const core::Box& box,
                   const std::vector<WaveVector>& vectors, int species, std::vector<double>& re,
                   std::vector<double>& im) {
  re.assign(vectors.size() * species, 0.0);
  im.assign(vectors.size() * species, 0.0);
  const auto inverse_length = box.view<double>().inverse_length;
  const auto modes = static_cast<std::ptrdiff_t>(vectors.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < modes; ++k) {
    double* mode_re = &re[k * species];
    double* mode_im = &im[k * species];
    for (std::size_t j = 0; j < p.size; ++j) {
      double cosine = 0.0, sine = 0.0;
      mode_phase(vectors[k], inverse_length, {p.x[j], p.y[j], p.z[j]}, cosine, sine);
      mode_re[p.type[j]] += cosine;
      mode_im[p.type[j]] += sine;
    }
  }
}

void bin_mode_sums(const ModeSet& modes, const std::vector<double>& re,
                   const std::vector<double>& im, int species, const std::vector<double>& weights,
                   std::vector<double>& sums) {
  const int columns = structure_factor_columns(species);
  sums.assign(static_cast<std::size_t>(modes.bins) * columns, 0.0);
  for (int b = 0; b < modes.bins; ++b) {
    for (auto k = modes.bin_begin[b]; k < modes.bin_begin[b + 1]; ++k) {
      for (int c = 0; c < columns; ++c)
        sums[b * columns + c] +=
            mode_column(c, &re[k * species], &im[k * species], species, weights.data());
    }
  }
}

StructureFactor::StructureFactor(ModeSet modes, std::vector<std::int64_t> species_counts,
                                 std::vector<double> weights, std::vector<std::string> names)
    : modes_(std::move(modes)),
      species_counts_(std::move(species_counts)),
      weights_(std::move(weights)),
      scales_(column_scales(species_counts_, weights_)),
      names_(std::move(names)),
      sums_(static_cast<std::size_t>(modes_.bins) * structure_factor_columns(species()), 0.0) {}

void StructureFactor::add_sample(const std::vector<double>& sums) {
  for (std::size_t k = 0; k < sums_.size(); ++k) sums_[k] += sums[k];
  ++samples_;
}

double StructureFactor::value(int column, int bin) const {
  const auto modes = modes_.bin_begin[bin + 1] - modes_.bin_begin[bin];
  if (modes == 0 || samples_ == 0 || scales_[column] == 0.0)
    return std::numeric_limits<double>::quiet_NaN();
  const int columns = structure_factor_columns(species());
  return scales_[column] * sums_[bin * columns + column] /
         (static_cast<double>(modes) * static_cast<double>(samples_));
}

std::string StructureFactor::csv() const {
  std::vector<int> columns{0};
  std::string text = "q,modes,S";
  if (scales_[1] != 0.0) {
    columns.push_back(1);
    text += ",S_Z";
  }
  for (int a = 0; a < species(); ++a) {
    for (int b = a; b < species(); ++b) {
      const int column = 2 + species_pair_index(a, b, species());
      if (scales_[column] == 0.0) continue;
      columns.push_back(column);
      text += fmt::format(",S_{}_{}", names_[a], names_[b]);
    }
  }
  text += '\n';
  for (int bin = 0; bin < modes_.bins; ++bin) {
    const auto modes = modes_.bin_begin[bin + 1] - modes_.bin_begin[bin];
    if (modes == 0) continue;
    text += fmt::format("{:.10g},{}", modes_.mean_q[bin], 2 * modes);
    for (int column : columns) text += fmt::format(",{:.10g}", value(column, bin));
    text += '\n';
  }
  return text;
}

}  // namespace novamd::analysis
