#include "novamd/analysis/mean_squared_displacement.hpp"

#include <fmt/format.h>

#include <limits>

namespace novamd::analysis {

void DisplacementTracker::start(const core::ParticleView& p) {
  previous_.resize(p.size);
  displacement_.resize(p.size);
  displacement_.fill_zero();
  type_.resize(p.size);
  for (std::size_t k = 0; k < p.size; ++k) {
    const auto id = static_cast<std::size_t>(p.id[k]);
    previous_.set(id, {p.x[k], p.y[k], p.z[k]});
    type_[id] = p.type[k];
  }
}

void DisplacementTracker::track(const core::ParticleView& p, const core::Box& box) {
  const auto view = box.view<double>();
  for (std::size_t k = 0; k < p.size; ++k) {
    const auto id = static_cast<std::size_t>(p.id[k]);
    const core::Vec3<double> now{p.x[k], p.y[k], p.z[k]};
    displacement_.set(id, displacement_.get(id) + view.minimum_image(now - previous_.get(id)));
    previous_.set(id, now);
  }
}

std::vector<double> DisplacementTracker::squared_sums(int species) const {
  std::vector<double> sums(species, 0.0);
  for (std::size_t id = 0; id < type_.size(); ++id) {
    const auto d = displacement_.get(id);
    sums[type_[id]] += core::dot(d, d);
  }
  return sums;
}

MeanSquaredDisplacement::MeanSquaredDisplacement(std::vector<std::int64_t> species_counts,
                                                 std::vector<std::string> names)
    : species_counts_(std::move(species_counts)) {
  for (std::size_t a = 0; a < species_counts_.size(); ++a) {
    if (species_counts_[a] == 0) continue;
    columns_.push_back(names[a]);
    column_types_.push_back(static_cast<int>(a));
  }
  columns_.push_back("all");
  column_types_.push_back(-1);
}

std::string MeanSquaredDisplacement::header() const {
  std::string msd, diffusion;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const bool all = column_types_[c] < 0;
    msd += all ? ",msd" : ",msd_" + columns_[c];
    diffusion += all ? ",D" : ",D_" + columns_[c];
  }
  return "step,time,lag_time" + msd + diffusion;
}

std::string MeanSquaredDisplacement::add_row(std::int64_t step, double time, double lag,
                                             const std::vector<double>& sums) {
  std::vector<double> row;
  double total = 0.0;
  std::int64_t particles = 0;
  for (std::size_t a = 0; a < sums.size(); ++a) {
    total += sums[a];
    particles += species_counts_[a];
  }
  for (int type : column_types_) {
    row.push_back(type < 0 ? total / static_cast<double>(particles)
                           : sums[type] / static_cast<double>(species_counts_[type]));
  }
  lags_.push_back(lag);
  msd_.push_back(row);
  // Times in the shortest text that reads back as the same double (0.55, not 0.55000000000000004).
  std::string text = fmt::format("{},{},{}", step, time, lag);
  for (double value : row) text += fmt::format(",{:.17g}", value);
  for (double value : row)
    text += fmt::format(",{:.17g}",
                        lag > 0.0 ? value / (6.0 * lag) : std::numeric_limits<double>::quiet_NaN());
  return text;
}

std::optional<MeanSquaredDisplacement::Fit> MeanSquaredDisplacement::fit() const {
  const std::size_t first = lags_.size() / 2;
  const std::size_t count = lags_.size() - first;
  if (count < 2) return std::nullopt;
  double mean_t = 0.0;
  for (std::size_t i = first; i < lags_.size(); ++i) mean_t += lags_[i] / count;
  double tt = 0.0;
  for (std::size_t i = first; i < lags_.size(); ++i)
    tt += (lags_[i] - mean_t) * (lags_[i] - mean_t);
  if (tt == 0.0) return std::nullopt;
  Fit fit{{}, lags_[first], lags_.back(), count};
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    double mean_m = 0.0;
    for (std::size_t i = first; i < lags_.size(); ++i) mean_m += msd_[i][c] / count;
    double tm = 0.0;
    for (std::size_t i = first; i < lags_.size(); ++i)
      tm += (lags_[i] - mean_t) * (msd_[i][c] - mean_m);
    fit.diffusion.push_back(tm / tt / 6.0);
  }
  return fit;
}

}  // namespace novamd::analysis
