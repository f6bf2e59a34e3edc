// The CUDA backend on molecular systems read from topology files, against the CPU backend on the
// same input: the LAMMPS peptide (CHARMM bonded terms and 1-4 pairs, LJ switched 8-10 A,
// force-shifted Coulomb) and the AMBER dipeptide (periodic torsions and impropers, scaled 1-4
// pairs, LJ cut, reaction-field Coulomb; and with the Ewald sum and PME). Each term's energy, the
// virial and every force, in double and mixed precision; a second evaluation repeats the first
// bit for bit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/example_systems.hpp"

namespace {

using novamd::backend::EnergyRequest;

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

const std::string kPeptide =
    "units: real\n"
    "system:\n"
    "  topology:\n"
    "    read: " NOVAMD_SOURCE_DIR
    "/examples/peptide/data.peptide\n"
    "    styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, improper: "
    "harmonic}\n"
    "forces:\n"
    "  - lennard_jones: {cutoff: 10.0, switch: 8.0}\n"
    "  - coulomb: {method: shift, cutoff: 10.0}\n"
    "integrator: {type: velocity_verlet, timestep: 0.25}\n"
    "run: {steps: 0}\n";

const std::string kDipeptide = novamd::test::kDipeptideExampleSystem +
                               "forces:\n"
                               "  - lennard_jones: {cutoff: 10.0}\n"
                               "  - coulomb: {method: reaction_field, cutoff: 10.0}\n"
                               "integrator: {type: velocity_verlet, timestep: 0.25}\n"
                               "run: {steps: 0}\n";

// 1,000 flexible SPC/E waters in a 31.04 A box: with cutoffs of 9 A the box holds three list
// cells per axis, so LJ and PME's real space share one pass on the GPU (pair_sum_terms.hpp).
const std::string kWater = novamd::test::kWaterExampleSystem +
                           "forces:\n"
                           "  - lennard_jones: {cutoff: 9.0}\n"
                           "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1e-6}\n"
                           "integrator: {type: velocity_verlet, timestep: 0.5}\n"
                           "run: {steps: 0}\n";

struct Evaluation {
  novamd::core::ParticleData particles;  // id order
  novamd::backend::Observables observables;
  std::int64_t list_builds = 0;
};

enum class BondedOnly { No, Yes };

/// One force evaluation of `yaml`'s system; with `box_scale` != 1, in the box scaled by it
/// (positions with it) after the backend was made for the original box.
Evaluation evaluate(const std::string& yaml, const char* backend, const char* precision,
                    EnergyRequest energy = EnergyRequest::Compute,
                    BondedOnly bonded_only = BondedOnly::No, double box_scale = 1.0) {
  const auto config = novamd::io::parse_config(yaml, "molecular.yaml", {{"precision", precision}});
  auto initial = novamd::io::build_initial_system(config);
  auto molecular =
      config.system.topology ? novamd::io::molecular_system(config) : novamd::io::MolecularSystem{};
  auto b = novamd::backend::make_backend(
      backend, {config.units, config.system.species, initial.box, std::move(initial.particles),
                bonded_only == BondedOnly::Yes ? std::vector<novamd::forces::ForceSettings>{}
                                               : config.forces,
                config.precision, config.neighbors, nullptr, std::move(molecular.topology),
                std::move(molecular.bonded)});
  if (box_scale != 1.0) {
    const auto& L = initial.box.length();
    b->rescale_box(novamd::core::Box(L.x * box_scale, L.y * box_scale, L.z * box_scale));
  }
  b->compute_forces(energy);
  return {b->particles_on_host(),
          energy == EnergyRequest::Compute ? b->observables() : novamd::backend::Observables{},
          b->neighbor_list_builds()};
}

/// `kspace_relative`: a further bound, relative to the largest force and to the energy scale, for
/// an Ewald or PME reciprocal sum (see KspaceSumsMatchTheCpu).
/// `gpu_list_builds`, where given, receives the GPU's list builds (which traversal ran).
void expect_matches_cpu(const std::string& yaml, const char* precision,
                        double kspace_relative = 0.0, double box_scale = 1.0,
                        std::int64_t* gpu_list_builds = nullptr) {
  const Evaluation cpu =
      evaluate(yaml, "cpu", "double", EnergyRequest::Compute, BondedOnly::No, box_scale);
  const Evaluation gpu =
      evaluate(yaml, "cuda", precision, EnergyRequest::Compute, BondedOnly::No, box_scale);
  const Evaluation again =
      evaluate(yaml, "cuda", precision, EnergyRequest::Compute, BondedOnly::No, box_scale);
  const bool in_double = std::string(precision) == "double";
  // Pair forces in FP32 under mixed precision: each pair term rounds at 2^-24 relative, and a
  // particle sums some 400 of them with cancellation; bonded terms are double at every
  // precision. Bounds: relative to the largest force magnitude (a few 100 kcal/mol/A).
  const double eps = in_double ? std::numeric_limits<double>::epsilon() : 0x1p-24;
  double largest = 0.0;
  for (std::size_t i = 0; i < cpu.particles.size(); ++i)
    largest = std::max({largest, std::abs(cpu.particles.force.x[i]),
                        std::abs(cpu.particles.force.y[i]), std::abs(cpu.particles.force.z[i])});
  // 400 pairs x a few roundings each.
  const double force_tolerance = (2000.0 * eps + kspace_relative) * largest;
  for (std::size_t i = 0; i < cpu.particles.size(); ++i) {
    ASSERT_NEAR(gpu.particles.force.x[i], cpu.particles.force.x[i], force_tolerance) << i;
    ASSERT_NEAR(gpu.particles.force.y[i], cpu.particles.force.y[i], force_tolerance) << i;
    ASSERT_NEAR(gpu.particles.force.z[i], cpu.particles.force.z[i], force_tolerance) << i;
  }
  ASSERT_EQ(gpu.observables.term_energy.size(), cpu.observables.term_energy.size());
  const double energy_scale = std::abs(cpu.observables.potential_energy) +
                              std::abs(cpu.observables.term_energy[0]) +
                              std::abs(cpu.observables.term_energy[1]);
  // A million pair energies summed in FP64 from FP32 terms (mixed) or FP64 (double).
  const double energy_tolerance = ((in_double ? 1e-10 : 1e-5) + kspace_relative) * energy_scale;
  for (std::size_t t = 0; t < cpu.observables.term_energy.size(); ++t)
    EXPECT_NEAR(gpu.observables.term_energy[t], cpu.observables.term_energy[t], energy_tolerance)
        << "term " << t;
  EXPECT_NEAR(gpu.observables.virial.trace(), cpu.observables.virial.trace(),
              ((in_double ? 1e-10 : 1e-5) + kspace_relative) *
                  (energy_scale + std::abs(cpu.observables.virial.trace())));
  // Bitwise repeatable on the same device.
  for (std::size_t i = 0; i < gpu.particles.size(); ++i)
    ASSERT_EQ(gpu.particles.force.x[i], again.particles.force.x[i]) << i;
  EXPECT_EQ(gpu.observables.potential_energy, again.observables.potential_energy);
  if (gpu_list_builds) *gpu_list_builds = gpu.list_builds;
}

TEST(CudaMolecular, PeptideMatchesTheCpuTermByTerm) {
  SKIP_WITHOUT_GPU();
  expect_matches_cpu(kPeptide, "double");
  expect_matches_cpu(kPeptide, "mixed");
}

TEST(CudaMolecular, AmberDipeptideMatchesTheCpuTermByTerm) {
  SKIP_WITHOUT_GPU();
  expect_matches_cpu(kDipeptide, "double");
  expect_matches_cpu(kDipeptide, "mixed");
}

// Steps without energy evaluate the bonded families in one kernel, energy steps family by
// family. The peptide has six: bonds, CHARMM angles, dihedrals, impropers, 1-4 LJ and 1-4
// Coulomb. The bonded terms alone (double at every precision): the one-kernel forces repeat bit
// for bit and agree with the family-by-family ones to round-off (the two kernels are compiled
// apart, and the compiler may contract their multiply-adds differently; a family left out or
// counted twice would differ by a whole term).
TEST(CudaMolecular, BondedFamiliesInOneKernelMatchFamilyByFamily) {
  SKIP_WITHOUT_GPU();
  for (const char* precision : {"double", "mixed"}) {
    const auto bonded_only = BondedOnly::Yes;
    const Evaluation by_family =
        evaluate(kPeptide, "cuda", precision, EnergyRequest::Compute, bonded_only);
    const Evaluation fused =
        evaluate(kPeptide, "cuda", precision, EnergyRequest::Skip, bonded_only);
    const Evaluation again =
        evaluate(kPeptide, "cuda", precision, EnergyRequest::Skip, bonded_only);
    ASSERT_EQ(by_family.particles.size(), fused.particles.size());
    double largest = 0.0;
    for (const auto* f :
         {&by_family.particles.force.x, &by_family.particles.force.y, &by_family.particles.force.z})
      for (const double v : *f) largest = std::max(largest, std::abs(v));
    ASSERT_GT(largest, 1.0);  // kcal/mol/A: the terms are there
    // A particle sums at most some 30 terms, each with a few roundings: 64 eps of the largest.
    const double tolerance = 64.0 * std::numeric_limits<double>::epsilon() * largest;
    for (std::size_t i = 0; i < fused.particles.size(); ++i) {
      ASSERT_NEAR(fused.particles.force.x[i], by_family.particles.force.x[i], tolerance) << i;
      ASSERT_NEAR(fused.particles.force.y[i], by_family.particles.force.y[i], tolerance) << i;
      ASSERT_NEAR(fused.particles.force.z[i], by_family.particles.force.z[i], tolerance) << i;
      ASSERT_EQ(fused.particles.force.x[i], again.particles.force.x[i]) << i;
      ASSERT_EQ(fused.particles.force.z[i], again.particles.force.z[i]) << i;
    }
  }
}

// The dipeptide with the Ewald sum and with smooth PME (orders 4 and 5, a grid chosen from the
// tolerance and one given with odd lengths), CUDA against CPU in double and mixed. The
// reciprocal sums are double at every precision. Ewald: sincos on the GPU against products of
// phases on the CPU, some 1e-15 relative per wave. PME: the GPU's charge grid is 64-bit fixed
// point, each of the N p^3 contributions rounded by at most 2^-41 e; the forces then carry the
// field of a random charge density of that size, some 1e-12 of the largest force; bound 1e-9 of
// it (and of the energy scale), still a thousand times below PME's own error at tolerance 1e-6.
TEST(CudaMolecular, KspaceSumsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const std::string rf = "method: reaction_field";
  for (const char* method : {"method: ewald, tolerance: 1e-6", "method: pme, tolerance: 1e-6",
                             "method: pme, tolerance: 1e-6, order: 4, grid: [27, 25, 33]"}) {
    std::string yaml = kDipeptide;
    yaml.replace(yaml.find(rf), rf.size(), method);
    SCOPED_TRACE(method);
    expect_matches_cpu(yaml, "double", 1e-9);
    expect_matches_cpu(yaml, "mixed", 1e-9);
  }
}

// LJ and PME's real space in one pass over one list (physics::PairSum): forces, each term's
// energy (LJ and Coulomb apart, from the sum's two parts) and the virial as the CPU gives them
// (its own one pass, checked against two passes in test_pair_sum_terms.cpp), within the bounds
// above (PME's mesh as in KspaceSumsMatchTheCpu); one list built. In a box shrunk below three
// list cells per axis, the GPU runs the two potentials as terms of their own (all pairs), and
// still matches.
TEST(CudaMolecular, LjAndPmeRealSpaceInOnePassMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  EXPECT_EQ(evaluate(kWater, "cpu", "double").list_builds, 1);  // one pass on the CPU too
  for (const char* precision : {"double", "mixed"}) {
    SCOPED_TRACE(precision);
    std::int64_t builds = -1;
    expect_matches_cpu(kWater, precision, 1e-9, 1.0, &builds);
    EXPECT_EQ(builds, 1);
    // 31.04 x 0.96 = 29.8 A < 3 (9 + 1.08) A: no list cells, all pairs.
    SCOPED_TRACE("shrunk box");
    expect_matches_cpu(kWater, precision, 1e-9, 0.96, &builds);
    EXPECT_EQ(builds, 0);
  }
}

// The same water over the CUDA backend's cluster pair lists (`neighbors.layout: clusters`: each
// pair once in tiles of 32 x 32 particles, excluded pairs masked, the reactions added in 64-bit
// fixed point). A particle takes at most two fixed-point additions per cluster and term, each
// within 2^-33 kcal/mol/A: for 3,000 atoms (94 clusters) some 2e-8 kcal/mol/A, far inside the
// bound of 1e-9 of the largest force (a few hundred kcal/mol/A) that the k-space sums already
// take. LJ with PME in one pass, and LJ with reaction-field Coulomb as two terms over their own
// cluster lists (the second adding to the first); one build each; bitwise repeatable.
TEST(CudaMolecular, ClusterPairListsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const std::string layout = "neighbors: {layout: clusters}\n";
  std::string reaction_field = kWater;
  const std::string pme = "method: pme, cutoff: 9.0, tolerance: 1e-6";
  reaction_field.replace(reaction_field.find(pme), pme.size(),
                         "method: reaction_field, cutoff: 9.0");
  for (const char* precision : {"double", "mixed"}) {
    SCOPED_TRACE(precision);
    std::int64_t builds = -1;
    expect_matches_cpu(kWater + layout, precision, 1e-9, 1.0, &builds);
    EXPECT_EQ(builds, 1);
    SCOPED_TRACE("reaction field");
    expect_matches_cpu(reaction_field + layout, precision, 1e-9, 1.0, &builds);
    EXPECT_EQ(builds, 2);
  }
}

// A table of 60 species (3,600 pairs of 11 LJ and Ewald parameters: in mixed precision
// 155 KiB, more than the 48 KiB of shared memory a launch gets unasked, held in shared memory
// after raising the kernel's limit, or 60 records per type over cluster pairs; in double
// 309 KiB, beyond the 227 KiB a Hopper block may have, read from global memory) over cluster
// pairs and per-particle lists: the JAC benchmark's prmtop has 37 types. Charged LJ particles
// scattered at random, LJ and PME in one pass.
TEST(CudaMolecular, ClusterPairsTakeATableOfManySpecies) {
  SKIP_WITHOUT_GPU();
  constexpr int kSpecies = 60;
  std::string species, counts, pairs;
  for (int t = 0; t < kSpecies; ++t) {
    const std::string name = "S" + std::to_string(t);
    species += "    - {name: " + name + ", mass: 12.0, charge: " + (t % 2 ? "0.5" : "-0.5") + "}\n";
    counts += (t ? ", " : "") + name + ": 30";
    pairs += "        - {types: [" + name + ", " + name +
             "], epsilon: " + std::to_string(0.1 + 0.002 * t) +
             ", sigma: " + std::to_string(2.8 + 0.01 * t) + "}\n";
  }
  const std::string yaml =
      "units: real\n"
      "seed: 11\n"
      "system:\n"
      "  density: 0.03\n"
      "  species:\n" +
      species +
      "  structure:\n"
      "    generate: {lattice: random, counts: {" +
      counts +
      "}, min_separation: 2.6}\n"
      "forces:\n"
      "  - lennard_jones:\n"
      "      cutoff: 9.0\n"
      "      pairs:\n" +
      pairs +
      "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1e-6}\n"
      "integrator: {type: velocity_verlet, timestep: 0.5}\n"
      "run: {steps: 0}\n";
  for (const char* layout : {"clusters", "atoms"}) {
    for (const char* precision : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(layout) + ", " + precision);
      expect_matches_cpu(yaml + "neighbors: {layout: " + layout + "}\n", precision, 1e-9);
    }
  }
  // The species mix by Lorentz-Berthelot, so mixed precision over clusters reads records per type
  // (physics/type_records.hpp); one pair of its own (NBFIX) makes it read the 155 KiB table.
  std::string nbfix = yaml;
  const std::string last_pair = "        - {types: [S0, S0]";
  nbfix.insert(nbfix.find(last_pair), "        - {types: [S0, S1], epsilon: 0.15, sigma: 3.0}\n");
  SCOPED_TRACE("a pair of its own, clusters, mixed");
  expect_matches_cpu(nbfix + "neighbors: {layout: clusters}\n", "mixed", 1e-9);
}

// Records per type rebuild the cutoff's shifts in the kernel: the water over cluster pairs in
// mixed precision with Lennard-Jones energy-shifted and force-shifted, against the CPU's table,
// and energy steps that move the particles as other steps do (the force pass and the energy pass
// rebuild the same parameters).
TEST(CudaMolecular, RecordsPerTypeHoldTheShiftedTruncations) {
  SKIP_WITHOUT_GPU();
  for (const char* truncation : {"shift", "force_shift"}) {
    SCOPED_TRACE(truncation);
    std::string yaml = kWater + "neighbors: {layout: clusters}\n";
    const std::string lj = "lennard_jones: {cutoff: 9.0}";
    yaml.replace(yaml.find(lj), lj.size(),
                 std::string("lennard_jones: {cutoff: 9.0, truncation: ") + truncation + "}");
    expect_matches_cpu(yaml, "mixed", 1e-9);
    const Evaluation without = evaluate(yaml, "cuda", "mixed", EnergyRequest::Skip);
    const Evaluation with = evaluate(yaml, "cuda", "mixed", EnergyRequest::Compute);
    for (std::size_t i = 0; i < with.particles.size(); ++i) {
      ASSERT_EQ(with.particles.force.x[i], without.particles.force.x[i]) << i;
      ASSERT_EQ(with.particles.force.y[i], without.particles.force.y[i]) << i;
      ASSERT_EQ(with.particles.force.z[i], without.particles.force.z[i]) << i;
    }
  }
}

// On an energy step the one-pass term reports LJ and Coulomb in passes of their own, with the
// forces still the sum's: the trajectory does not depend on the thermo interval. The other steps
// also compute PME's mesh forces and the bonds' and angles' per-particle sums beside the pairs
// and add them after them (staged: forces/staged_forces_cuda.cuh), where energy steps add them
// term by term: the same additions, so the same bits.
TEST(CudaMolecular, OnePassEnergyStepsGiveTheForcesOfOtherStepsBitwise) {
  SKIP_WITHOUT_GPU();
  for (const char* layout : {"atoms", "clusters"}) {
    const std::string yaml = kWater + "neighbors: {layout: " + layout + "}\n";
    for (const char* precision : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(layout) + ", " + precision);
      const Evaluation without = evaluate(yaml, "cuda", precision, EnergyRequest::Skip);
      const Evaluation with = evaluate(yaml, "cuda", precision, EnergyRequest::Compute);
      EXPECT_EQ(with.list_builds, 1);
      for (std::size_t i = 0; i < with.particles.size(); ++i) {
        ASSERT_EQ(with.particles.force.x[i], without.particles.force.x[i]) << i;
        ASSERT_EQ(with.particles.force.z[i], without.particles.force.z[i]) << i;
      }
    }
  }
}

}  // namespace
