// Nuclear pasta on the CUDA backend against the CPU backend (the oracle, double, all pairs):
// random protons and neutrons under the nuclear potential (every truncation, and none) and
// screened Coulomb between protons, on every traversal, in double and mixed precision; forces,
// energy and virial within per-particle bounds derived from the precision. Skipped, with a
// message, where no CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "support/pasta.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::Precision;
using novamd::forces::Truncation;
using novamd::neighbors::NeighborMethod;

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

/// What bounds the GPU's round-off against the CPU's double result, per particle (forces) and
/// in total (energy, virial), in units of the precision's epsilon (multiply by eps_d or eps_f).
///
/// A pair term t = F or V with magnitude |t| differs between the two backends by
///   (a) the separation: positions rounded to the pair type (mixed: FP32) and the minimum image
///       taken in it move r by up to 3 eps L (L the longest box edge), changing F by
///       |dF/dr| 3 eps L and V by |F| 3 eps L;
///   (b) the arithmetic: for the nuclear term with x = r^2 / (2 Lambda), the exponent carries
///       1.5 eps x of error, CUDA's exp 2 + 1.2 x ulp at most (__expf; exp in double 1 ulp),
///       so e2 = exp(-x) is within (2 + 2.7 x) eps and e1 = e2^2 within twice that plus a
///       rounding: with the products, (3 + 3x) eps for the b' e2 term and (6 + 6x) eps for the
///       a e1 term; for Coulomb with y = r / lambda, rsqrt (2 ulp), the exponent and __expf give
///       (6 + 5y) eps;
///   (c) the sums: m nonzero terms summed in the pair type (FP32 in mixed, per target or per
///       tile) lose at most (m - 1) eps of their summed magnitudes; then FP64.
/// |dF/dr| <= |F1| (1/r + 2r/Lambda) + |F2| (1/r + r/Lambda) for the two Gaussian terms, and
/// |F_C| (2/r + 1/lambda) for Coulomb (differentiate F = V (1/r + 1/lambda)).
struct Bounds {
  std::vector<double> force;  ///< per particle, absolute
  double energy = 0, virial = 0;
};

/// The bounds for `s`, whose nuclear term is cut at 10 fm; nuclear terms beyond 10 fm (nonzero
/// when the term has no cutoff) are below 2e-15 MeV/fm and add at most their own size.
Bounds round_off_bounds(const BackendSetup& s) {
  const double rc = std::get<novamd::forces::YukawaSettings>(s.forces[1]).cutoff;
  const double f_at_rc = static_cast<double>(novamd::test::coulomb_formula(rc * rc, 1, 1).f);
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  const auto L = s.box.length();
  const double delta_r = 3.0 * std::max({L.x, L.y, L.z});  // (a), in eps
  const double lambda = 1.25, a = 110.0;
  Bounds b;
  b.force.assign(p.size(), 0.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    double f_sum = 0, f_arith = 0, f_deriv = 0, f_tail = 0, v_sum = 0, v_arith = 0;
    int terms = 0;
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == i) continue;
      const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
      const double r2 = novamd::core::dot(d, d), r = std::sqrt(r2);
      const double x = r2 / (2 * lambda);
      const int tau_i = p.type[i] == 0 ? 1 : -1, tau_j = p.type[j] == 0 ? 1 : -1;
      const double b_pair = std::abs(-26.0 + 24.0 * tau_i * tau_j);
      const double e2 = std::exp(-x), e1 = e2 * e2;
      const double f1 = r * 2 * a * e1 / lambda, f2 = r * b_pair * e2 / lambda;
      if (r2 < 100.0) {
        f_sum += f1 + f2;
        f_arith += f1 * (6 + 6 * x) + f2 * (3 + 3 * x);
        f_deriv += f1 * (1 / r + 2 * r / lambda) + f2 * (1 / r + r / lambda);
        v_sum += a * e1 + b_pair * e2;
        v_arith += a * e1 * (6 + 6 * x) + b_pair * e2 * (3 + 3 * x);
        ++terms;
      } else {
        f_tail += f1 + f2;
      }
      if (tau_i == 1 && tau_j == 1 && r < rc) {
        const auto c = novamd::test::coulomb_formula(r2, 1, 1);
        const double fc = static_cast<double>(c.f), vc = static_cast<double>(c.v);
        const double y = r / 10.0;
        f_sum += fc + f_at_rc;
        f_arith += (fc + f_at_rc) * (6 + 5 * y);
        f_deriv += fc * (2 / r + 0.1);
        v_sum += vc + rc * f_at_rc;
        v_arith += vc * (6 + 5 * y);
        ++terms;
      }
    }
    const double sums = terms + 16.0;  // (c), with room for the final FP64 additions
    // The tail beyond 10 fm enters at its own size: divided by eps_d here, so that the bound,
    // multiplied by eps_d or the larger eps_f, holds it whole.
    const double eps_d = std::numeric_limits<double>::epsilon();
    b.force[i] = sums * f_sum + f_arith + delta_r * f_deriv + f_tail / eps_d;
    // Each pair's energy is shared by its two particles.
    b.energy += 0.5 * (sums * v_sum + v_arith + delta_r * f_sum + f_tail * rc / eps_d);
    // r . f per pair: r (<= the longer cutoff) times the force bound, plus |F| times r's error.
    b.virial += 0.5 * (std::max(10.0, rc) * b.force[i] + delta_r * f_sum);
  }
  return b;
}

struct Errors {
  double worst_force_ratio = 0;   ///< max_i |F_gpu - F_cpu|_inf / bound_i
  double energy = 0, virial = 0;  ///< absolute
};

Errors compare_with_cpu(const BackendSetup& setup, const Bounds& bounds, double eps) {
  auto reference = setup;
  reference.precision = Precision::Double;
  reference.neighbors.method = NeighborMethod::AllPairs;
  novamd::backend::CpuBackend cpu(reference);
  auto gpu = novamd::backend::make_backend("cuda", setup);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  gpu->compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& fc = cpu.particles_on_host().force;
  const auto& fg = gpu->particles_on_host().force;
  Errors e;
  for (std::size_t i = 0; i < fc.size(); ++i) {
    const double err = std::max(
        {std::abs(fg.x[i] - fc.x[i]), std::abs(fg.y[i] - fc.y[i]), std::abs(fg.z[i] - fc.z[i])});
    e.worst_force_ratio = std::max(e.worst_force_ratio, err / (eps * bounds.force[i]));
  }
  const auto oc = cpu.observables(), og = gpu->observables();
  e.energy = std::abs(og.potential_energy - oc.potential_energy);
  e.virial = std::abs(og.virial - oc.virial);
  return e;
}

struct Variant {
  const char* name;
  double nuclear_cutoff;
  Truncation truncation;
  NeighborMethod method;
};

TEST(CudaNuclear, PastaMatchesTheOracleInEveryTruncationTraversalAndPrecision) {
  SKIP_WITHOUT_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  // auto: the nuclear term on Verlet lists, Coulomb (cutoff about 0.4 of the box) over all
  // pairs; then each traversal for both terms where the box allows (else all pairs).
  const Variant variants[] = {
      {"cut, auto", 10.0, Truncation::Cut, NeighborMethod::Auto},
      {"energy shift, auto", 10.0, Truncation::ShiftEnergy, NeighborMethod::Auto},
      {"force shift, auto", 10.0, Truncation::ShiftForce, NeighborMethod::Auto},
      {"no cutoff (all pairs)", inf, Truncation::Cut, NeighborMethod::Auto},
      {"cut, cell lists", 10.0, Truncation::Cut, NeighborMethod::CellList},
      {"cut, Verlet lists", 10.0, Truncation::Cut, NeighborMethod::NeighborList},
      {"cut, all pairs", 10.0, Truncation::Cut, NeighborMethod::AllPairs},
  };
  // 3,000 nucleons: the chunked all-pairs kernel; 6,000: each pair once.
  for (const auto& [n, coulomb_cutoff] : {std::pair{3000, 15.0}, std::pair{6000, 20.0}}) {
    auto base = novamd::test::random_pasta(n, 0.05, 77 + n, 0.5, 10.0, coulomb_cutoff);
    const Bounds bounds = round_off_bounds(base);  // covers every variant (see Bounds)
    for (auto precision : {Precision::Double, Precision::Mixed}) {
      const double eps = precision == Precision::Double ? std::numeric_limits<double>::epsilon()
                                                        : std::numeric_limits<float>::epsilon();
      for (const auto& v : variants) {
        auto setup = base;
        setup.precision = precision;
        setup.neighbors.method = v.method;
        auto& nuclear = std::get<novamd::forces::NuclearSettings>(setup.forces[0]);
        nuclear.cutoff = v.nuclear_cutoff;
        nuclear.truncation = v.truncation;
        const Errors e = compare_with_cpu(setup, bounds, eps);
        std::printf(
            "pasta N = %d, %s, %s: force error %.3g of its bound, energy %.3g (bound "
            "%.3g), virial %.3g (bound %.3g)\n",
            n, std::string(novamd::core::to_string(precision)).c_str(), v.name, e.worst_force_ratio,
            e.energy, eps * bounds.energy, e.virial, eps * bounds.virial);
        EXPECT_LE(e.worst_force_ratio, 1.0) << v.name;
        EXPECT_LE(e.energy, eps * bounds.energy) << v.name;
        EXPECT_LE(e.virial, eps * bounds.virial) << v.name;
      }
    }
  }
}

}  // namespace
