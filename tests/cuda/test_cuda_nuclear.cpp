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

using novamd::test::Bounds;
using novamd::test::round_off_bounds;

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
