/// @file structure_generator.cpp
/// Lattice and random initial positions (see structure_generator.hpp).

#include "novamd/io/structure_generator.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/random.hpp"

namespace novamd::io {
namespace {

constexpr int kMaxPlacementTries = 1000;
/// Packing fraction below which random sequential placement succeeds quickly (it jams near 0.38).
constexpr double kComfortablePackingFraction = 0.3;

using core::Vec3;

/// One type per particle, species by species in declaration order, from the counts.
std::vector<std::int32_t> composition(const GenerateSettings& settings,
                                      const core::SpeciesTable& species) {
  std::vector<std::int64_t> per_type(species.size(), 0);
  for (const auto& [name, count] : settings.counts) {
    const auto type = species.find(name);
    if (!type) {
      std::string declared;
      for (const auto& s : species.all()) declared += (declared.empty() ? "" : ", ") + s.name;
      throw core::InputError(fmt::format(
          "{}.counts: species '{}' is not declared in system.species; expected one of {}",
          settings.key, name, declared));
    }
    if (count < 0)
      throw core::InputError(fmt::format("{}.counts.{}: expected a non-negative count, got {}",
                                         settings.key, name, count));
    per_type[*type] += count;
  }
  std::int64_t total = 0;
  for (auto c : per_type) total += c;
  if (total < 1)
    throw core::InputError(fmt::format(
        "{}.counts: the counts add up to {}; expected at least one particle", settings.key, total));
  if (total > std::numeric_limits<std::int32_t>::max())
    throw core::InputError(fmt::format("{}.counts: {} particles; at most {} are supported",
                                       settings.key, total,
                                       std::numeric_limits<std::int32_t>::max()));
  std::vector<std::int32_t> types;
  types.reserve(static_cast<std::size_t>(total));
  for (int t = 0; t < species.size(); ++t)
    types.insert(types.end(), static_cast<std::size_t>(per_type[t]), t);
  return types;
}

/// Fractional site coordinates of the cubic cell of a lattice.
std::vector<Vec3<double>> lattice_basis(const std::string& lattice) {
  if (lattice == "sc") return {{0.0, 0.0, 0.0}};
  if (lattice == "bcc") return {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.5}};
  if (lattice == "fcc") return {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};
  return {};
}

/// Cells per axis: from `cells`, or cubic n^3 from the total; the error suggests valid totals.
std::array<std::int64_t, 3> lattice_cells(const GenerateSettings& settings, std::int64_t total,
                                          std::int64_t basis) {
  if (settings.cells) {
    const auto& c = *settings.cells;
    if (c[0] < 1 || c[1] < 1 || c[2] < 1)
      throw core::InputError(fmt::format("{}.cells: expected three positive integers, got [{}]",
                                         settings.key, fmt::join(c, ", ")));
    const std::int64_t sites = std::int64_t{c[0]} * c[1] * c[2] * basis;
    if (sites != total)
      throw core::InputError(fmt::format(
          "{}.cells: [{}] cells of {} ({} sites per cell) hold {} sites, but the counts add up "
          "to {}; expected counts adding up to {}",
          settings.key, fmt::join(c, ", "), settings.lattice, basis, sites, total, sites));
    return {c[0], c[1], c[2]};
  }
  const auto n = static_cast<std::int64_t>(
      std::llround(std::cbrt(static_cast<double>(total) / static_cast<double>(basis))));
  if (n >= 1 && n * n * n * basis == total) return {n, n, n};
  std::int64_t below = std::max<std::int64_t>(n, 1);
  while (below > 1 && below * below * below * basis > total) --below;
  const std::int64_t above = below + 1;
  const std::int64_t low_total = below * below * below * basis;
  const std::int64_t high_total = above * above * above * basis;
  const std::string nearest = low_total < total ? fmt::format("{} ({}^3 cells) or {} ({}^3 cells)",
                                                              low_total, below, high_total, above)
                                                : fmt::format("{} ({}^3 cells)", high_total, above);
  throw core::InputError(fmt::format(
      "{}: {} particles do not fill a cubic {} lattice of n^3 cells with {} sites each; the "
      "nearest valid totals are {}; change the counts, or give cells: [nx, ny, nz]",
      settings.key, total, settings.lattice, basis, nearest));
}

/// Shuffles `types` over the sites (Fisher-Yates; draw i picks the partner of position i).
void shuffle_types(std::vector<std::int32_t>& types, std::uint64_t seed) {
  const core::RandomStream stream(seed, core::RandomPurpose::LatticeShuffle);
  for (std::size_t i = types.size(); i-- > 1;) {
    const core::RandomWords r = stream.bits(static_cast<std::uint32_t>(i), 0);
    const auto j = static_cast<std::size_t>(core::uniform_below(r.w[0], r.w[1], i + 1));
    std::swap(types[i], types[j]);
  }
}

core::ParticleData make_particles(const std::vector<std::int32_t>& types) {
  core::ParticleData p;
  p.resize(types.size());
  p.type = types;
  for (std::size_t i = 0; i < types.size(); ++i) p.id[i] = static_cast<std::int32_t>(i);
  p.velocity.fill_zero();
  p.force.fill_zero();
  return p;
}

core::ParticleData generate_lattice(const GenerateSettings& settings,
                                    std::vector<std::int32_t> types, const core::Box& box,
                                    std::uint64_t seed) {
  const auto basis = lattice_basis(settings.lattice);
  const auto total = static_cast<std::int64_t>(types.size());
  const auto cells = lattice_cells(settings, total, static_cast<std::int64_t>(basis.size()));
  if (std::any_of(types.begin(), types.end(), [&](auto t) { return t != types.front(); }))
    shuffle_types(types, seed);
  core::ParticleData p = make_particles(types);
  const Vec3<double> a{box.length().x / static_cast<double>(cells[0]),
                       box.length().y / static_cast<double>(cells[1]),
                       box.length().z / static_cast<double>(cells[2])};
  std::size_t i = 0;
  for (std::int64_t ix = 0; ix < cells[0]; ++ix)
    for (std::int64_t iy = 0; iy < cells[1]; ++iy)
      for (std::int64_t iz = 0; iz < cells[2]; ++iz)
        for (const auto& b : basis) {
          p.position.set(i++, {(static_cast<double>(ix) + b.x + 0.25) * a.x,
                               (static_cast<double>(iy) + b.y + 0.25) * a.y,
                               (static_cast<double>(iz) + b.z + 0.25) * a.z});
        }
  return p;
}

/// A cell grid of already placed particles, cells at least `min_separation` wide, so that a
/// candidate need only be checked against the (up to) 27 surrounding cells.
class PlacementGrid {
 public:
  PlacementGrid(const core::Box& box, double min_separation, std::size_t capacity)
      : view_(box.view<double>()), min_separation2_(min_separation * min_separation) {
    // Cells no narrower than min_separation, and no more than about 2 per particle.
    const double target_cells = 2.0 * static_cast<double>(std::max<std::size_t>(capacity, 1));
    const double width = std::max(min_separation, std::cbrt(box.volume() / target_cells));
    const double lengths[3] = {box.length().x, box.length().y, box.length().z};
    for (int d = 0; d < 3; ++d)
      cells_[d] = std::max(1, static_cast<int>(std::floor(lengths[d] / width)));
    head_.assign(static_cast<std::size_t>(cells_[0]) * cells_[1] * cells_[2], -1);
    next_.reserve(capacity);
    placed_.reserve(capacity);
  }

  /// True when `r` is at least min_separation from every placed particle (minimum image).
  bool is_free(const Vec3<double>& r) const {
    const auto c = cell_of(r);
    std::array<std::array<int, 3>, 3> around{};  // distinct neighbouring cells per axis
    std::array<int, 3> count{};
    for (int d = 0; d < 3; ++d) {
      if (cells_[d] < 3) {
        for (int k = 0; k < cells_[d]; ++k) around[d][count[d]++] = k;
      } else {
        for (int k = -1; k <= 1; ++k) around[d][count[d]++] = (c[d] + k + cells_[d]) % cells_[d];
      }
    }
    for (int a = 0; a < count[0]; ++a)
      for (int b = 0; b < count[1]; ++b)
        for (int e = 0; e < count[2]; ++e)
          for (int j = head_[flat({around[0][a], around[1][b], around[2][e]})]; j >= 0;
               j = next_[j]) {
            const auto d = view_.minimum_image(r - placed_[j]);
            if (dot(d, d) < min_separation2_) return false;
          }
    return true;
  }

  void insert(const Vec3<double>& r) {
    const std::size_t cell = flat(cell_of(r));
    next_.push_back(head_[cell]);
    head_[cell] = static_cast<int>(placed_.size());
    placed_.push_back(r);
  }

 private:
  std::array<int, 3> cell_of(const Vec3<double>& r) const {
    const double frac[3] = {r.x * view_.inverse_length.x, r.y * view_.inverse_length.y,
                            r.z * view_.inverse_length.z};
    std::array<int, 3> c{};
    for (int d = 0; d < 3; ++d)
      c[d] = std::clamp(static_cast<int>(frac[d] * cells_[d]), 0, cells_[d] - 1);
    return c;
  }
  std::size_t flat(const std::array<int, 3>& c) const {
    return (static_cast<std::size_t>(c[0]) * cells_[1] + c[1]) * cells_[2] + c[2];
  }

  core::BoxView<double> view_;
  double min_separation2_;
  std::array<int, 3> cells_{};
  std::vector<int> head_;
  std::vector<int> next_;
  std::vector<Vec3<double>> placed_;
};

double below_edge(double x, double edge) {
  return x < edge ? x : 0.0;
}

[[noreturn]] void throw_cannot_place(const std::string& key, std::size_t placed, std::size_t total,
                                     double min_separation, const core::Box& box) {
  const double density = static_cast<double>(total) / box.volume();
  const double fraction = std::numbers::pi / 6.0 * density * std::pow(min_separation, 3);
  const double suggested =
      std::cbrt(kComfortablePackingFraction * 6.0 / (std::numbers::pi * density));
  throw core::InputError(fmt::format(
      "{}.min_separation: placed {} of {} particles, then found no free spot at least {} from "
      "all others in {} random tries; at number density N/V = {:.6g} this min_separation fills a "
      "packing fraction pi/6 (N/V) d^3 = {:.3g}, while random placement jams near 0.38; "
      "expected min_separation at most about {:.4g} (packing fraction {}), or a lattice",
      key, placed, total, min_separation, kMaxPlacementTries, density, fraction, suggested,
      kComfortablePackingFraction));
}

core::ParticleData generate_random(const GenerateSettings& settings,
                                   const std::vector<std::int32_t>& types, const core::Box& box,
                                   std::uint64_t seed) {
  if (!(settings.min_separation >= 0.0) || !std::isfinite(settings.min_separation))
    throw core::InputError(fmt::format("{}.min_separation: expected a non-negative length, got {}",
                                       settings.key, settings.min_separation));
  core::ParticleData p = make_particles(types);
  const core::RandomStream stream(seed, core::RandomPurpose::RandomPosition);
  const auto& L = box.length();
  const bool check = settings.min_separation > 0.0;
  PlacementGrid grid(box, settings.min_separation, check ? types.size() : 0);
  for (std::size_t i = 0; i < types.size(); ++i) {
    const auto id = static_cast<std::uint32_t>(i);
    bool placed = false;
    for (int t = 0; t < kMaxPlacementTries && !placed; ++t) {
      const core::RandomPair u01 = stream.uniform(id, 2 * static_cast<std::uint64_t>(t));
      const core::RandomPair u2 = stream.uniform(id, 2 * static_cast<std::uint64_t>(t) + 1);
      // u < 1, but u L may round up to L: fold that onto 0 so that r lies in [0, L).
      const Vec3<double> r{below_edge(u01.first * L.x, L.x), below_edge(u01.second * L.y, L.y),
                           below_edge(u2.first * L.z, L.z)};
      if (check && !grid.is_free(r)) continue;
      p.position.set(i, r);
      if (check) grid.insert(r);
      placed = true;
    }
    if (!placed) throw_cannot_place(settings.key, i, types.size(), settings.min_separation, box);
  }
  return p;
}

}  // namespace

int lattice_basis_size(const std::string& lattice) {
  return static_cast<int>(lattice_basis(lattice).size());
}

core::ParticleData generate_structure(const GenerateSettings& settings,
                                      const core::SpeciesTable& species, const core::Box& box,
                                      std::uint64_t seed) {
  const auto& L = box.length();
  if (!(L.x > 0.0 && L.y > 0.0 && L.z > 0.0) || !std::isfinite(box.volume()))
    throw core::InputError(
        fmt::format("system.box: expected three positive edge lengths, got "
                    "[{}, {}, {}]",
                    L.x, L.y, L.z));
  std::vector<std::int32_t> types = composition(settings, species);
  if (settings.lattice == "random") return generate_random(settings, types, box, seed);
  if (lattice_basis_size(settings.lattice) > 0)
    return generate_lattice(settings, std::move(types), box, seed);
  throw core::InputError(
      fmt::format("{}.lattice: unknown lattice '{}'; expected one of random, "
                  "sc, bcc, fcc",
                  settings.key, settings.lattice));
}

}  // namespace novamd::io
