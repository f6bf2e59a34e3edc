// Rigid molecules against ls1-mardyn itself (tests/data/ls1-mardyn/README.md: the commit and
// commands): 150 molecules of a two-centre Lennard-Jones quadrupole and a Lennard-Jones dipole
// read from ls1-mardyn's own phase-space file (io/ls1_phase_space.hpp); the potential energy, the
// virial and every molecule's force and torque, with and without the dipoles' reaction field.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/forces/cpu_rigid_molecules.hpp"
#include "novamd/io/ls1_phase_space.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/rigid_molecules.hpp"

namespace {

namespace core = novamd::core;
namespace forces = novamd::forces;
namespace io = novamd::io;
using novamd::test::lj_site;
using novamd::test::pole_site;

const std::string kData = std::string(NOVAMD_SOURCE_DIR) + "/tests/data/ls1-mardyn/";

std::vector<core::ResolvedComponent> ls1_components() {
  const core::Component quadrupolar{
      "2CLJQ",
      {lj_site({0, 0, -0.4}, 1.0, 1.0, 0.5), lj_site({0, 0, 0.4}, 1.0, 1.0, 0.5),
       pole_site(core::SiteKind::Quadrupole, {0, 0, 0}, {0, 0, 1}, 1.0)},
      std::nullopt};
  const core::Component dipolar{"StockmayerX",
                                {lj_site({0, 0, 0}, 1.0, 1.0, 1.0),
                                 pole_site(core::SiteKind::Dipole, {0, 0, 0}, {1, 0, 0}, 1.2)},
                                core::Vec3<double>{0.04, 0.04, 0.04}};
  return {core::resolve_component(quadrupolar), core::resolve_component(dipolar)};
}

/// One molecule's line of ls1-mardyn's force dump: force and torque (space frame).
struct Dumped {
  core::Vec3<double> force, torque;
};

std::vector<Dumped> read_dump(const std::string& file) {
  std::ifstream in(kData + file);
  std::vector<Dumped> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    double v[18];
    for (double& x : v) s >> x;
    rows.push_back({{v[9], v[10], v[11]}, {v[12], v[13], v[14]}});
  }
  return rows;
}

using Result = novamd::test::RigidEvaluation;

Result evaluate(double epsilon_rf) {
  const auto components = ls1_components();
  const auto molecules = io::read_ls1_phase_space(kData + "bulk150.inp");
  core::ParticleData p;
  p.resize(molecules.size());
  p.enable(p.orientation);
  for (std::size_t i = 0; i < molecules.size(); ++i) {
    const auto& m = molecules[i];
    const auto body = io::to_body_frame(m, components[static_cast<std::size_t>(m.component)]);
    p.type[i] = m.component;
    p.id[i] = static_cast<std::int32_t>(m.id);
    p.position.set(i, body.centre);
    p.orientation.set(i, body.orientation);
  }
  forces::RigidModelSettings settings;
  settings.cutoff = 3.0;
  settings.shift = true;
  settings.epsilon_rf = epsilon_rf;
  forces::CpuRigidMolecules term(forces::make_rigid_model(components, settings), 0.3);
  return novamd::test::evaluate_rigid(term, p, core::Box(7.0, 7.0, 7.0));
}

void expect_like_ls1(const Result& r, const std::string& dump) {
  // ls1-mardyn's two pair codes agree to 1e-13 in the forces (of up to 100) and torques: sums in
  // another order. 1e-10 leaves room for ours, and no sign or factor could hide under it.
  const auto rows = read_dump(dump);
  ASSERT_EQ(rows.size(), r.force.size());
  double largest = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto f = r.force.get(i), t = r.torque.get(i);
    EXPECT_NEAR(f.x, rows[i].force.x, 1e-10) << i;
    EXPECT_NEAR(f.y, rows[i].force.y, 1e-10) << i;
    EXPECT_NEAR(f.z, rows[i].force.z, 1e-10) << i;
    EXPECT_NEAR(t.x, rows[i].torque.x, 1e-10) << i;
    EXPECT_NEAR(t.y, rows[i].torque.y, 1e-10) << i;
    EXPECT_NEAR(t.z, rows[i].torque.z, 1e-10) << i;
    largest = std::max(largest, std::abs(rows[i].torque.z));
  }
  EXPECT_GT(largest, 1.0);  // the torques are not all small
}

TEST(Ls1MardynReference, ReactionFieldRunMatchesEnergyVirialForcesAndTorques) {
  const Result r = evaluate(1e10);
  // The energy sums some 12,000 site pairs of order 1 to 100: 1e-10 of its size.
  EXPECT_NEAR(r.energy, -742.08371275463833, 1e-9);
  // sum r . F over pairs (ls1-mardyn's virial less its 3 U_RF: README.md).
  EXPECT_NEAR(r.virial.trace(), 712.43375141833928, 1e-9);
  expect_like_ls1(r, "bulk_rfinf.forces.dat");
}

TEST(Ls1MardynReference, RunWithoutTheReactionFieldMatches) {
  const Result r = evaluate(1.0);
  EXPECT_NEAR(r.energy, -742.68378679443981, 1e-9);
  EXPECT_NEAR(r.virial.trace(), 712.43375141833928, 1e-9);
  expect_like_ls1(r, "bulk_rfoff.forces.dat");
}

TEST(Ls1MardynReference, HomogeneousTailCorrection) {
  // ls1-mardyn's <longrange type="homogeneous"/> on bulk150 (bulk_rfinf_noshift_lrc.xml against
  // bulk_rfinf_noshift, bulk_rfinf_lrc.xml against bulk_rfinf; README.md): the differences of its
  // totals are its corrections. Unshifted (each component's own Lennard-Jones pairs; ls1 shifts
  // the unlike ones, which then have no tail): U -29.81853941475459, W -178.05222731579999; the
  // reaction field's self energy alone where every pair is shifted: U -1.99999999970002, W
  // -5.9999999991 (three times U, ls1's convention; no force, so no share of our pressure).
  const auto components = ls1_components();
  forces::RigidModelSettings settings;
  settings.cutoff = 3.0;
  settings.epsilon_rf = 1e10;
  settings.tail_correction = true;
  settings.shift = false;
  const double volume = 343.0;
  const auto first = forces::rigid_tail(components, settings, {75, 0});
  const auto second = forces::rigid_tail(components, settings, {0, 75});
  const double self = first.self_energy + second.self_energy;
  // ls1's totals to 17 digits, their differences to 1e-13 of the energy: 1e-10 absolute.
  EXPECT_NEAR(self, -1.99999999970002, 1e-10);
  EXPECT_NEAR((first.energy_times_volume + second.energy_times_volume) / volume + self,
              -29.81853941475459, 1e-10);
  EXPECT_NEAR((first.virial_times_volume + second.virial_times_volume) / volume + 3.0 * self,
              -178.05222731579999, 1e-10);
  settings.shift = true;  // shifted pairs have no tail: the self energy alone
  const auto shifted = forces::rigid_tail(components, settings, {75, 75});
  EXPECT_EQ(shifted.energy_times_volume, 0.0);
  EXPECT_EQ(shifted.virial_times_volume, 0.0);
  EXPECT_NEAR(shifted.self_energy, -1.99999999970002, 1e-10);
}

TEST(Ls1MardynReference, RunFromItsPhaseSpaceFileGivesItsEnergyAndVirial) {
  // `novamd run` with steps 0 on ls1-mardyn's own state file (structure.read, format ls1 from
  // the extension) and the model of bulk_rfinf_lrc.xml: ls1's total energy with its homogeneous
  // correction (here the reaction field's self energy: every pair is shifted), and the sum of
  // r . F (ls1's virial less its 3 U_RF, README.md).
  novamd::test::TempDir dir;
  dir.write("bulk.yaml", R"(units: lj
system:
  components:
    - name: 2CLJQ
      sites:
        - {type: lj, position: [0, 0, -0.4], epsilon: 1.0, sigma: 1.0, mass: 0.5}
        - {type: lj, position: [0, 0, 0.4], epsilon: 1.0, sigma: 1.0, mass: 0.5}
        - {type: quadrupole, position: [0, 0, 0], direction: [0, 0, 1], moment: 1.0}
    - name: StockmayerX
      sites:
        - {type: lj, position: [0, 0, 0], epsilon: 1.0, sigma: 1.0, mass: 1.0}
        - {type: dipole, position: [0, 0, 0], direction: [1, 0, 0], moment: 1.2}
      inertia: [0.04, 0.04, 0.04]
  structure: {read: )" + kData +
                             R"(bulk150.inp}
  box: 7.0
forces:
  - rigid_sites: {cutoff: 3.0, epsilon_rf: 1.0e10, tail_correction: true}
integrator: {type: velocity_verlet, timestep: 0.001}
run: {steps: 0}
output:
  thermo: {every: 1, file: thermo.csv, columns: [virial]}
)");
  const auto run = novamd::test::run_novamd("run bulk.yaml", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto lines = novamd::test::read_lines(dir.path() / "thermo.csv");
  ASSERT_EQ(lines.size(), 2u);
  const auto row = novamd::test::numbers_of(lines[1]);
  // The pair sums to 1e-12 of ls1's (the other tests), the self energy to 1e-13.
  EXPECT_NEAR(row.at(4), -744.08371275433831, 1e-9);  // potential_energy
  EXPECT_NEAR(row.at(8), 712.43375141833928, 1e-9);   // virial
  EXPECT_EQ(row.at(3), 0.0);                          // the file's velocities are zero
}

}  // namespace
