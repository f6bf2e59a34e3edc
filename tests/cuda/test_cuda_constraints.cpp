// Held distances on the CUDA backend (backend/device_constraints.cuh) against the CPU backend on
// the same input: the LAMMPS peptide with its bonds to hydrogens under SHAKE and RATTLE (or every
// bond under CCMA) and its TIP3P waters under SETTLE, every integrator, in double: the same
// trajectory, as for 1 to 17 rigid waters; rigid SPC/E water
// with PME in mixed precision: every held distance within the tolerance and no velocity along
// one after each step, the constraint virial in the pressure as the CPU has it; a run repeats
// bit for bit, and continues bit for bit from its checkpoint; rigid SPC/E and TIP3P water keep
// their energy at 2 fs in mixed precision (scripts/device/test.sh drift puts OpenMM's drift
// from the same state beside it). Skipped where no CUDA device exists.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "novamd/app/simulation.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/restart_check.hpp"

namespace {

using novamd::app::Simulation;
using novamd::backend::EnergyRequest;
using novamd::core::Vec3;

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

const std::string kPeptide = NOVAMD_SOURCE_DIR "/examples/peptide/peptide.yaml";
const std::string kRigidWater = NOVAMD_SOURCE_DIR "/examples/water/water_rigid.yaml";
const std::string kLangevin = "{type: langevin, timestep: 1.0, temperature: 300, friction: 0.01}";

struct EndState {
  novamd::core::ParticleData particles;  // id order
  novamd::backend::Observables observables;
  novamd::core::Box box;
  double tolerance = 0.0;
};

/// `steps` steps of `config` with `overrides` on `backend` in `precision`, stepped here (no
/// output written).
EndState run(const std::string& config, const std::string& backend, const std::string& precision,
             int steps, std::vector<novamd::io::Override> overrides) {
  novamd::test::TempDir dir;
  overrides.push_back({"backend", backend});
  overrides.push_back({"precision", precision});
  overrides.push_back({"output.trajectory", "[]"});
  overrides.push_back({"output.thermo.file", (dir.path() / "thermo.csv").string()});
  const novamd::parallel::MpiSession session;
  const auto sim = Simulation::create({config, overrides, std::nullopt}, session);
  auto& b = sim->backend();
  auto& integrator = sim->integrator();
  b.compute_forces(EnergyRequest::Compute);
  integrator.start(b);
  for (int step = 1; step <= steps; ++step) integrator.step(b, step, EnergyRequest::Compute);
  EndState end;
  end.observables = b.observables();
  end.particles = b.particles_on_host();
  end.box = b.box();
  end.tolerance = sim->config().constraints->tolerance;
  return end;
}

/// Every distance the run held, as (id i, id j, length).
struct Held {
  std::int32_t i, j;
  double length;
};

/// The largest relative deviation of a held length, and of the relative velocity along a held
/// distance (|d . dv| / (|d| |dv|), 0 where dv = 0).
struct Deviations {
  double length = 0.0, along = 0.0;
};

Deviations deviations(const EndState& s, const std::vector<Held>& held,
                      const novamd::core::Box& box) {
  const auto view = box.view<double>();
  Deviations d;
  for (const auto& h : held) {
    const auto& p = s.particles;
    const Vec3<double> r =
        view.minimum_image(p.position.get(std::size_t(h.i)) - p.position.get(std::size_t(h.j)));
    const Vec3<double> v = p.velocity.get(std::size_t(h.i)) - p.velocity.get(std::size_t(h.j));
    const double length = std::sqrt(dot(r, r));
    d.length = std::max(d.length, std::abs(length - h.length) / h.length);
    const double speed = std::sqrt(dot(v, v));
    if (speed > 0.0) d.along = std::max(d.along, std::abs(dot(r, v)) / (length * speed));
  }
  return d;
}

/// The largest difference of a position component and of a velocity component (id order).
std::pair<double, double> largest_differences(const EndState& a, const EndState& b) {
  double worst_x = 0.0, worst_v = 0.0;
  for (std::size_t i = 0; i < a.particles.size(); ++i) {
    const auto dx = a.particles.position.get(i) - b.particles.position.get(i);
    const auto dv = a.particles.velocity.get(i) - b.particles.velocity.get(i);
    worst_x = std::max({worst_x, std::abs(dx.x), std::abs(dx.y), std::abs(dx.z)});
    worst_v = std::max({worst_v, std::abs(dv.x), std::abs(dv.y), std::abs(dv.z)});
  }
  return {worst_x, worst_v};
}

TEST(CudaConstraints, PeptideMatchesTheCpuInDoubleUnderEveryIntegrator) {
  SKIP_WITHOUT_GPU();
  // 20 steps of 1 fs from the same start. Differences begin at the ulp level (force sums in
  // another order, ~1e-13 of the forces; the device's libm within a few ulps) and the
  // constraint solvers are the same double arithmetic on both; 20 fs of a liquid amplify them
  // at most some hundredfold: 1e-9 A and 1e-9 A/fs leave a margin of 1,000 on 1e-15 of 10 A.
  for (const std::string integrator :
       {std::string("{type: velocity_verlet, timestep: 1.0}"), kLangevin,
        std::string("{type: leapfrog, timestep: 1.0}"),
        std::string("{type: nose_hoover, timestep: 1.0, temperature: 300, tau: 100}")}) {
    const std::vector<novamd::io::Override> o{{"constraints", "{bonds: h_bonds, water: settle}"},
                                              {"integrator", integrator}};
    const EndState cpu = run(kPeptide, "cpu", "double", 20, o);
    const EndState gpu = run(kPeptide, "cuda", "double", 20, o);
    ASSERT_EQ(cpu.particles.size(), gpu.particles.size());
    const auto [worst_x, worst_v] = largest_differences(cpu, gpu);
    std::printf("%s: largest difference: positions %.3g A, velocities %.3g A/fs\n",
                integrator.c_str(), worst_x, worst_v);
    EXPECT_LT(worst_x, 1e-9) << integrator;
    EXPECT_LT(worst_v, 1e-9) << integrator;
    // The pressure's constraint share: the virial agrees as the forces do.
    const double w_cpu = cpu.observables.virial.trace(), w_gpu = gpu.observables.virial.trace();
    EXPECT_NEAR(w_gpu, w_cpu, 1e-8 * std::abs(w_cpu)) << integrator;
    EXPECT_NEAR(gpu.observables.kinetic_energy, cpu.observables.kinetic_energy,
                1e-10 * cpu.observables.kinetic_energy)
        << integrator;
  }
}

TEST(CudaConstraints, PeptideWithEveryBondHeldMatchesTheCpuAndRepeats) {
  SKIP_WITHOUT_GPU();
  // Every bond of the peptide coupled (CCMA, one thread per molecule on the GPU), waters rigid:
  // 20 Langevin steps of 2 fs from the same start, bounds as above; and the GPU's run again,
  // bit for bit.
  const std::vector<novamd::io::Override> o{
      {"constraints", "{bonds: all_bonds, water: settle}"},
      {"integrator", "{type: langevin, timestep: 2.0, temperature: 300, friction: 0.01}"}};
  const EndState cpu = run(kPeptide, "cpu", "double", 20, o);
  const EndState gpu = run(kPeptide, "cuda", "double", 20, o);
  const EndState again = run(kPeptide, "cuda", "double", 20, o);
  const auto [worst_x, worst_v] = largest_differences(cpu, gpu);
  std::printf("all bonds: largest difference: positions %.3g A, velocities %.3g A/fs\n", worst_x,
              worst_v);
  EXPECT_LT(worst_x, 1e-9);
  EXPECT_LT(worst_v, 1e-9);
  EXPECT_NEAR(gpu.observables.virial.trace(), cpu.observables.virial.trace(),
              1e-8 * std::abs(cpu.observables.virial.trace()));
  EXPECT_EQ(again.particles.position.x, gpu.particles.position.x);
  EXPECT_EQ(again.particles.velocity.z, gpu.particles.velocity.z);
}

/// The held distances of the rigid water example: O-H 1 A and H-H 1.633 A (SPC/E) per molecule
/// of three consecutive ids.
std::vector<Held> water_held(std::size_t particles) {
  const double hh = 2.0 * std::sin(0.5 * 109.47 * std::numbers::pi / 180.0);
  std::vector<Held> held;
  for (std::int32_t o = 0; o + 2 < static_cast<std::int32_t>(particles); o += 3) {
    held.push_back({o, o + 1, 1.0});
    held.push_back({o, o + 2, 1.0});
    held.push_back({o + 1, o + 2, hh});
  }
  return held;
}

TEST(CudaConstraints, RigidWaterInMixedPrecisionKeepsEveryDistance) {
  SKIP_WITHOUT_GPU();
  // 1,000 rigid SPC/E waters with PME at 2 fs, Langevin, 50 steps. The positions live in double
  // on the device and SETTLE is exact: every length to 1e-12 of itself (round-off of ~10 A
  // coordinates, 1e-15, through SETTLE's few dozen operations), and no relative velocity along
  // a held distance beyond 1e-12 of the speed.
  const std::vector<novamd::io::Override> o{{"run.steps", "50"}};
  const EndState gpu = run(kRigidWater, "cuda", "mixed", 50, o);
  const auto d = deviations(gpu, water_held(gpu.particles.size()), gpu.box);
  std::printf("largest deviation: length %.3g, velocity along %.3g\n", d.length, d.along);
  EXPECT_LT(d.length, 1e-12);
  EXPECT_LT(d.along, 1e-12);
}

/// n SPC/E waters (ids 3m + 1 .. 3m + 3, oxygen first) 5 to 7 A apart in a 24 A box, at rest in
/// their rigid geometry, as a LAMMPS data file of the style of make_water.py.
std::string few_waters(int n) {
  const double half = 0.5 * 109.47 * std::numbers::pi / 180.0;
  std::string atoms, bonds, angles;
  for (int m = 0; m < n; ++m) {
    const double o[3] = {3.0 + 5.3 * (m % 4), 3.0 + 5.9 * ((m / 4) % 4), 3.0 + 7.1 * (m / 16)};
    const double dy[3] = {0.0, std::sin(half), -std::sin(half)};
    for (int a = 0; a < 3; ++a)
      atoms += fmt::format("{} {} {} {} {:.12f} {:.12f} {:.12f}\n", 3 * m + a + 1, m + 1,
                           a == 0 ? 1 : 2, a == 0 ? -0.8476 : 0.4238,
                           o[0] + (a == 0 ? 0.0 : std::cos(half)), o[1] + dy[a], o[2]);
    bonds += fmt::format("{} 1 {} {}\n{} 1 {} {}\n", 2 * m + 1, 3 * m + 1, 3 * m + 2, 2 * m + 2,
                         3 * m + 1, 3 * m + 3);
    angles += fmt::format("{} 1 {} {} {}\n", m + 1, 3 * m + 2, 3 * m + 1, 3 * m + 3);
  }
  return fmt::format(
      "{0} SPC/E waters\n\n{1} atoms\n{2} bonds\n{0} angles\n\n2 atom types\n1 bond types\n"
      "1 angle types\n\n0 24 xlo xhi\n0 24 ylo yhi\n0 24 zlo zhi\n\nMasses\n\n1 15.9994\n"
      "2 1.008\n\nPair Coeffs\n\n1 0.1553 3.166\n2 0.0 1.0\n\nBond Coeffs\n\n1 450.0 1.0\n\n"
      "Angle Coeffs\n\n1 55.0 109.47\n\nAtoms # full\n\n{3}\nBonds\n\n{4}\nAngles\n\n{5}",
      n, 3 * n, 2 * n, atoms, bonds, angles);
}

TEST(CudaConstraints, OneToSeventeenWatersMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  // Fewer groups than a block of threads, and a block and more: 20 steps of velocity Verlet at
  // 1 fs in double from the same start on both backends (bounds as for the peptide), every
  // distance held exactly (SETTLE) on the GPU.
  for (const int n : {1, 2, 5, 17}) {
    SCOPED_TRACE(n);
    novamd::test::TempDir dir;
    std::ofstream(dir.path() / "few.data") << few_waters(n);
    const std::vector<novamd::io::Override> o{
        {"system.topology.read", (dir.path() / "few.data").string()},
        {"integrator", "{type: velocity_verlet, timestep: 1.0}"}};
    const EndState cpu = run(kRigidWater, "cpu", "double", 20, o);
    const EndState gpu = run(kRigidWater, "cuda", "double", 20, o);
    ASSERT_EQ(gpu.particles.size(), std::size_t(3 * n));
    const auto [worst_x, worst_v] = largest_differences(cpu, gpu);
    EXPECT_LT(worst_x, 1e-9);
    EXPECT_LT(worst_v, 1e-9);
    const auto d = deviations(gpu, water_held(gpu.particles.size()), gpu.box);
    EXPECT_LT(d.length, 1e-12);
    EXPECT_LT(d.along, 1e-12);
  }
}

TEST(CudaConstraints, RigidWaterPressureMatchesTheCpuAtTheStart) {
  SKIP_WITHOUT_GPU();
  // Step 0 of the same start on both backends in double: the virial with its constraint share
  // (the instantaneous constraint forces) agrees as the forces do (PME at 1e-5 evaluated the
  // same way on both: ~1e-12 relative), so the pressure agrees.
  const EndState cpu = run(kRigidWater, "cpu", "double", 0, {});
  const EndState gpu = run(kRigidWater, "cuda", "double", 0, {});
  for (int c = 0; c < novamd::core::kTensorComponents; ++c) {
    const double scale = std::abs(cpu.observables.virial.trace());
    EXPECT_NEAR(gpu.observables.virial.c[c], cpu.observables.virial.c[c], 1e-9 * scale) << c;
  }
}

TEST(CudaConstraints, RunsRepeatBitForBit) {
  SKIP_WITHOUT_GPU();
  // Langevin with the peptide's clusters and waters, mixed precision, sorted along the curve
  // every 7 evaluations (the groups found anew each time): two runs, the same bits.
  const std::vector<novamd::io::Override> o{{"constraints", "{bonds: h_bonds, water: settle}"},
                                            {"integrator", kLangevin},
                                            {"neighbors.reorder_every", "7"}};
  const EndState a = run(kPeptide, "cuda", "mixed", 30, o);
  const EndState b = run(kPeptide, "cuda", "mixed", 30, o);
  EXPECT_TRUE(novamd::test::bitwise_equal(a.particles.position, b.particles.position));
  EXPECT_TRUE(novamd::test::bitwise_equal(a.particles.velocity, b.particles.velocity));
  EXPECT_EQ(a.observables.virial.trace(), b.observables.virial.trace());
}

TEST(CudaConstraints, RestartContinuesBitForBit) {
  SKIP_WITHOUT_GPU();
  // The 1,000 waters of the one-pass restart test made rigid, at 1 fs with a 1 A skin (its
  // 0.4 A skin allows 0.2 A a step, which the lattice's first steps at 2 fs exceed).
  std::string config = novamd::test::water_pme_restart_config();
  config += "constraints: {bonds: none, water: settle}\n";
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"timestep: 0.5", "timestep: 1.0"},
        {"skin: 0.4", "skin: 1.0"}})
    config.replace(config.find(from), from.size(), to);
  for (const char* precision : {"double", "mixed"})
    novamd::test::expect_bitwise_restart_of_config(config, "cuda", precision, 10);
}

/// examples/water/water.data (1,000 SPC/E waters) as SPC/E, or made TIP3P (make_water.py
/// --model tip3p: its charges, LJ and geometry; SETTLE takes the positions to that geometry at
/// the start).
std::string water_data(bool tip3p) {
  std::ifstream in(NOVAMD_SOURCE_DIR "/examples/water/water.data");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!tip3p) return text;
  const auto replace_all = [&text](const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace_all(" -0.8476 ", " -0.834 ");
  replace_all(" 0.4238 ", " 0.417 ");
  replace_all("1 0.1553 3.166", "1 0.1521 3.15061");
  replace_all("1 450.0 1.0", "1 450.0 0.9572");
  replace_all("1 55.0 109.47", "1 55.0 104.52");
  return text;
}

/// The least-squares drift of the conserved energy in a thermo file, kcal/mol/ns.
double drift_of(const std::filesystem::path& thermo) {
  const auto lines = novamd::test::read_lines(thermo);
  std::vector<double> t, e;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const auto row = novamd::test::numbers_of(lines[k]);
    t.push_back(row[1] * 1e-6);  // fs to ns
    e.push_back(row.back());     // conserved_energy, the last standard column
  }
  const double n = double(t.size());
  double mt = 0, me = 0;
  for (std::size_t k = 0; k < t.size(); ++k) mt += t[k] / n, me += e[k] / n;
  double num = 0, den = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    num += (t[k] - mt) * (e[k] - me);
    den += (t[k] - mt) * (t[k] - mt);
  }
  return num / den;
}

TEST(CudaConstraints, RigidWaterKeepsItsEnergyAt2Fs) {
  SKIP_WITHOUT_GPU();
  // 1,000 rigid waters, mixed precision: 4 ps of Langevin from the lattice
  // (water_rigid.yaml), then 10 ps of constant energy (benchmarks/drift/water_nve.yaml: PME
  // 1e-5, LJ cut at 9 A, SETTLE, velocity Verlet at 2 fs). The drift of the total energy,
  // least squares over a row every 100 fs, per molecule, within 0.1 kcal/mol/ns: a conserved
  // quantity a constraint or integrator error of first order would move by hundreds. Measured
  // (H200): -0.022 (SPC/E) and -0.0076 (TIP3P); over 50 ps after 20 ps of Langevin
  // (test.sh drift) NovaMD and OpenMM both drift by about 0.001 per molecule.
  for (const bool tip3p : {false, true}) {
    SCOPED_TRACE(tip3p ? "TIP3P" : "SPC/E");
    novamd::test::TempDir dir;
    std::ofstream(dir.path() / "water.data") << water_data(tip3p);
    const auto equilibrate = novamd::test::run_novamd(
        "run " + kRigidWater +
            " --backend cuda --precision mixed --steps 2000 --set output.trajectory=[] "
            "--set system.topology.read=" +
            (dir.path() / "water.data").string() +
            " --set \"output.data={file: equilibrated.data}\" --set output.thermo.file=eq.csv",
        dir.path());
    ASSERT_EQ(equilibrate.exit_code, 0) << equilibrate.output;
    const auto nve = novamd::test::run_novamd(
        "run " NOVAMD_SOURCE_DIR
        "/benchmarks/drift/water_nve.yaml --backend cuda --precision "
        "mixed --steps 5000 --set output.thermo.every=50 --set system.topology.read=" +
            (dir.path() / "equilibrated.data").string(),
        dir.path());
    ASSERT_EQ(nve.exit_code, 0) << nve.output;
    const double drift = drift_of(dir.path() / "thermo.csv") / 1000.0;
    std::printf("%s: drift %.3g kcal/mol/ns per molecule\n", tip3p ? "TIP3P" : "SPC/E", drift);
    EXPECT_LT(std::abs(drift), 0.1);
  }
}

}  // namespace
