// Hydrogen mass repartitioning (`system.topology.hydrogen_mass`, io/hydrogen_mass.hpp) on the
// AMBER dipeptide in TIP3P water: every atom's mass as OpenMM's createSystem(hydrogenMass=3.024
// amu, rigidWater=True) sets it (tests/data/amber-dipeptide/hmr_reference.json, from
// hmr_reference.py), the total mass kept, the split types carrying their Lennard-Jones
// coefficients so that the energy and every force at step 0 are those of the file's masses; a
// 4 fs Langevin run with the bonds to hydrogens and the waters held keeps its conserved energy;
// a mass that would leave a heavy atom lighter than its hydrogens is refused.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/example_systems.hpp"

namespace {

using novamd::backend::EnergyRequest;

const std::string kForces =
    "forces:\n"
    "  - lennard_jones: {cutoff: 10.0}\n"
    "  - coulomb: {method: reaction_field, cutoff: 10.0}\n"
    "integrator: {type: velocity_verlet, timestep: 0.5}\n"
    "run: {steps: 0}\n";

/// The dipeptide's config, with `system.topology.hydrogen_mass` where `mass` > 0.
std::string dipeptide(double mass) {
  std::string system = novamd::test::kDipeptideExampleSystem;
  if (mass > 0) {
    const std::string close = "dipeptide.inpcrd}";
    system.replace(system.find(close), close.size(),
                   "dipeptide.inpcrd, hydrogen_mass: " + std::to_string(mass) + "}");
  }
  return system + kForces;
}

/// Each atom's mass (by id) of a config's system.
std::vector<double> masses(const novamd::io::Config& config) {
  const auto initial = novamd::io::build_initial_system(config);
  std::vector<double> mass(initial.particles.size());
  for (std::size_t i = 0; i < mass.size(); ++i)
    mass[std::size_t(initial.particles.id[i])] =
        config.system.species[initial.particles.type[i]].mass;
  return mass;
}

/// OpenMM's masses, from the "masses" list of hmr_reference.json.
std::vector<double> openmm_masses() {
  std::ifstream in(NOVAMD_SOURCE_DIR "/tests/data/amber-dipeptide/hmr_reference.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<double> mass;
  std::size_t at = text.find('[', text.find("\"masses\""));
  const std::size_t end = text.find(']', at);
  while (at < end) {
    const std::size_t next = text.find_first_of(",]", at + 1);
    mass.push_back(std::stod(text.substr(at + 1, next - at - 1)));
    at = next;
  }
  return mass;
}

TEST(HydrogenMass, MassesAreOpenMMsAndTheTotalIsKept) {
  const auto file = novamd::io::parse_config(dipeptide(0), "dipeptide.yaml", {});
  const auto repartitioned = novamd::io::parse_config(dipeptide(3.024), "dipeptide.yaml", {});
  const auto before = masses(file), after = masses(repartitioned), reference = openmm_masses();
  ASSERT_EQ(after.size(), reference.size());
  for (std::size_t i = 0; i < after.size(); ++i)
    ASSERT_NEAR(after[i], reference[i], 1e-12 * reference[i]) << "atom " << i + 1;
  EXPECT_NEAR(std::accumulate(after.begin(), after.end(), 0.0),
              std::accumulate(before.begin(), before.end(), 0.0), 1e-9);
  // ff14SB's heavy types here each carry one number of hydrogens (CT: methyls; CA is CX): no
  // type is split.
  EXPECT_EQ(repartitioned.system.species.size(), file.system.species.size());
}

/// One force evaluation of `yaml` on the CPU in double: particles by id, potential energy.
struct Evaluation {
  novamd::core::ParticleData particles;
  double energy = 0.0;
};
Evaluation evaluate(const std::string& yaml) {
  const auto config = novamd::io::parse_config(yaml, "system.yaml", {});
  auto initial = novamd::io::build_initial_system(config);
  auto molecular = novamd::io::molecular_system(config);
  auto b = novamd::backend::make_backend(
      "cpu", {config.units, config.system.species, initial.box, std::move(initial.particles),
              config.forces, config.precision, config.neighbors, nullptr,
              std::move(molecular.topology), std::move(molecular.bonded)});
  b->compute_forces(EnergyRequest::Compute);
  return {b->particles_on_host(), b->observables().potential_energy};
}

/// The LAMMPS peptide (CHARMM: LJ switched 8 to 10 A with its 1-4 coefficients, force-shifted
/// Coulomb), with `system.topology.hydrogen_mass` where `mass` > 0.
std::string peptide(double mass) {
  return "units: real\n"
         "system:\n"
         "  topology:\n"
         "    read: " NOVAMD_SOURCE_DIR
         "/examples/peptide/data.peptide\n"
         "    styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, "
         "improper: harmonic}\n" +
         (mass > 0 ? "    hydrogen_mass: " + std::to_string(mass) + "\n" : std::string()) +
         "forces:\n"
         "  - lennard_jones: {cutoff: 10.0, switch: 8.0}\n"
         "  - coulomb: {method: shift, cutoff: 10.0}\n"
         "integrator: {type: velocity_verlet, timestep: 0.5}\n"
         "run: {steps: 0}\n";
}

TEST(HydrogenMass, SplitTypesKeepEveryEnergyAndForce) {
  // The peptide's carbon types carry one, two or three hydrogens, so repartitioning splits
  // them. Only masses change: the split types carry their Lennard-Jones and 1-4 coefficients,
  // so the sums are the same numbers in the same order, bit for bit.
  const auto file = novamd::io::parse_config(peptide(0), "peptide.yaml", {});
  const auto split = novamd::io::parse_config(peptide(3.024), "peptide.yaml", {});
  EXPECT_GT(split.system.species.size(), file.system.species.size());
  const auto before = masses(file), after = masses(split);
  EXPECT_NEAR(std::accumulate(after.begin(), after.end(), 0.0),
              std::accumulate(before.begin(), before.end(), 0.0), 1e-9);
  const Evaluation a = evaluate(peptide(0)), b = evaluate(peptide(3.024));
  EXPECT_EQ(a.energy, b.energy);
  for (std::size_t i = 0; i < a.particles.size(); ++i) {
    ASSERT_EQ(a.particles.force.x[i], b.particles.force.x[i]) << i;
    ASSERT_EQ(a.particles.force.y[i], b.particles.force.y[i]) << i;
    ASSERT_EQ(a.particles.force.z[i], b.particles.force.z[i]) << i;
  }
}

TEST(HydrogenMass, FourFemtosecondStepsKeepTheConservedEnergy) {
  // Langevin at 4 fs for 0.5 ps, bonds to hydrogens and waters held, reaction field (examples/
  // amber-dipeptide/dipeptide.yaml). With the hydrogens at 3.024 the conserved energy moved by
  // 2.6e-4 of itself; the bound is about four times that.
  novamd::test::TempDir dir;
  const auto result = novamd::test::run_novamd(
      "run " NOVAMD_SOURCE_DIR
      "/examples/amber-dipeptide/dipeptide.yaml --backend cpu --steps 125 "
      "--set output.trajectory=[] --set output.thermo.every=125 "
      "--set \"system.topology.hydrogen_mass=3.024\" --set \"constraints={}\" "
      "--set \"integrator={type: langevin, timestep: 4.0, temperature: 300, friction: 0.001}\"",
      dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto rows = novamd::test::read_lines(dir.path() / "thermo.csv");
  ASSERT_GE(rows.size(), 3u);
  const auto first = novamd::test::numbers_of(rows[1]), last = novamd::test::numbers_of(rows[2]);
  const int conserved = 7;  // step, time, T, K, U, E, P, conserved
  const double drift = (last[conserved] - first[conserved]) / std::abs(first[conserved]);
  std::printf("conserved energy over 0.5 ps at 4 fs: relative change %.3g\n", drift);
  EXPECT_LT(std::abs(drift), 1e-3);
}

TEST(HydrogenMass, BadMassesAreRefused) {
  // A mass that strips a heavy atom, and one that is not a mass: exit code 2, the key named,
  // nothing written.
  for (const auto& [value, expected] :
       {std::pair<std::string, std::string>{"5.0",
                                            "system.topology.hydrogen_mass: 5 would leave atom"},
        {"-1.0", "system.topology.hydrogen_mass"}}) {
    novamd::test::TempDir dir;
    const auto result =
        novamd::test::run_novamd("run " NOVAMD_SOURCE_DIR
                                 "/examples/amber-dipeptide/dipeptide.yaml --backend cpu --steps 1 "
                                 "--set \"system.topology.hydrogen_mass=" +
                                     value + "\"",
                                 dir.path());
    EXPECT_EQ(result.exit_code, 2) << value << "\n" << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << result.output;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv")) << value;
  }
}

}  // namespace
