#pragma once
// Particles of one type with random per-particle charges, and Yukawa forces cut at kCutoff
// written out as a plain double loop: the per-particle-charge tests of both backends
// (test_charge_scaled.cpp, test_cuda_charge_scaled.cu) and the exclusion test
// (test_exclusions.cpp).

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"

namespace novamd::test {

inline constexpr double kLambda = 1.5, kCutoff = 2.5;

/// n particles of type 0 in `box`, no two closer than 0.7, charges uniform in [-2, 2].
inline core::ParticleData random_charged(const core::Box& box, std::size_t n) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  core::ParticleData p;
  p.resize(n);
  p.enable(p.charge);
  const auto view = box.view<double>();
  const auto L = box.length();
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (bool ok = false; !ok;) {
      const core::Vec3<double> r{L.x * unit(rng), L.y * unit(rng), L.z * unit(rng)};
      ok = true;
      for (std::size_t j = 0; j < i && ok; ++j) {
        const auto d = view.minimum_image(r - p.position.get(j));
        ok = core::dot(d, d) >= 0.49;
      }
      if (ok) p.position.set(i, r);
    }
    p.id[i] = static_cast<std::int32_t>(i);
    p.charge[i] = 4.0 * unit(rng) - 2.0;
  }
  return p;
}

/// Forces and energy written out, S_i = sum_j |f_ij| and sum_ij |v_ij|.
struct Reference {
  std::vector<core::Vec3<double>> force;
  std::vector<double> scale;
  double energy = 0;
  double energy_scale = 0;
};

/// The Yukawa pairs within `cutoff` (kCutoff unless given; nearest image), each
/// q_i q_j exp(-r / lambda) / r with q = charge(i), written out; `skip(i, j)` (i < j) leaves a
/// pair out.
template <class Charge, class Skip>
Reference cut_yukawa_double_loop(const core::ParticleData& p, const core::Box& box, Charge charge,
                                 Skip skip, double cutoff = kCutoff) {
  const auto view = box.view<double>();
  Reference ref;
  ref.force.assign(p.size(), {});
  ref.scale.assign(p.size(), 0.0);
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const auto d = view.minimum_image(p.position.get(i) - p.position.get(j));
      const double r = std::sqrt(core::dot(d, d));
      if (r >= cutoff || skip(i, j)) continue;
      const double v = charge(i) * charge(j) * std::exp(-r / kLambda) / r;
      const double f_over_r = v * (1 / r + 1 / kLambda) / r;
      ref.force[i] += f_over_r * d;
      ref.force[j] -= f_over_r * d;
      ref.energy += v;
      ref.energy_scale += std::abs(v);
      ref.scale[i] += std::abs(f_over_r) * r;
      ref.scale[j] += std::abs(f_over_r) * r;
    }
  return ref;
}

/// Every pair within the cutoff, with the particles' own charges.
inline Reference double_loop(const core::ParticleData& p, const core::Box& box) {
  return cut_yukawa_double_loop(
      p, box, [&](std::size_t i) { return p.charge[i]; },
      [](std::size_t, std::size_t) { return false; });
}

}  // namespace novamd::test
