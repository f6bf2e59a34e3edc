// The step-0 state of the Lennard-Jones melt against a published reference: LAMMPS's benchmark
// `bench/in.lj` and the log it ships with.
//
// Source: the LAMMPS repository (github.com/lammps/lammps), `bench/in.lj` (the input) and
// `bench/log.15Jul25.lj.fixed.g++.1` (commit 084135faf1fb77744f508f25cf898a2d96ae8fcd; LAMMPS
// 12 Jun 2025, 1 MPI task), whose first thermo row is
//
//     Step  Temp  E_pair      E_mol  TotEng      Press
//        0  1.44  -6.7733681  0      -4.6134356  -5.0197073
//
// The same row stands in `bench/log.15Jul25.lj.fixed.g++.4` (4 ranks) and in
// `bench/log.10Sep10.lj.fixed.linux.1` (LAMMPS 10 Sep 2010): it depends only on the lattice and
// on T.
//
// The state: fcc at reduced density 0.8442 (`lattice fcc 0.8442`), 20 x 20 x 20 cells of 4,
// N = 32,000; epsilon = sigma = m = 1; `pair_style lj/cut 2.5`: plain cut, no energy shift, no
// tail correction; `velocity all create 1.44 ...`. NovaMD builds it from examples/lj_liquid.yaml
// (the same state) with system.structure.generate.cells=20 and tail_correction=false, through
// load_config, build_initial_system and make_backend, as `novamd run` does.
//
// Conventions (LAMMPS `units lj`, `thermo_modify norm yes`, its default there):
//   E_pair = U / N, the potential energy per atom;
//   TotEng = (U + K) / N, with K = (3N - 3) k T / 2: LAMMPS's temperature removes the three
//            degrees of freedom of the centre-of-mass motion, and `velocity create` scales the
//            velocities to exactly that T;
//   Press  = (N_dof k T + W) / (3V), N_dof = 3N - 3, W = sum over pairs of r_ij . f_ij
//            (not normalised per atom).
// NovaMD's analysis/thermo.hpp uses the same conventions: T = 2K / ((3N - 3) k_B) and
// P = (2K + W) / (3V); its Maxwell-Boltzmann velocities have zero momentum and T = 1.44 to
// 1e-12 relative (test_structure.cpp). So K, and the kinetic part of P, are the LAMMPS ones; the
// test divides NovaMD's whole-system energies by N.
//
// A second, independent reference is computed here: with every atom on a perfect fcc site (no
// atom moves before step 0), U / N and W / N are half the sum of V(r) and -r V'(r) over the fcc
// lattice vectors within r_c = 2.5 (shells of 12, 6, 24, 12 atoms at a sqrt(k/2), k = 1..4;
// the fifth shell, a sqrt(5/2) = 2.656, is beyond r_c). The box edge, 33.59, is more than twice
// r_c, so the periodic sum is the infinite-lattice sum.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "novamd/analysis/thermo.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/integrate/degrees_of_freedom.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"

namespace {

// bench/log.15Jul25.lj.fixed.g++.1, step 0.
constexpr double kLammpsTemp = 1.44;
constexpr double kLammpsEPair = -6.7733681;
constexpr double kLammpsTotEng = -4.6134356;
constexpr double kLammpsPress = -5.0197073;
// The log prints 8 significant digits, 7 decimals here: a printed value is within half a unit
// in its last digit of the exact one.
constexpr double kHalfLastDigit = 0.5e-7;
// The virial pressure tensor W_ab / V of the same lattice, from LAMMPS 20220106 (Debian) on
// benchmarks/lammps/in.melt with its thermo and run lines replaced by
//   compute pv all pressure NULL virial
//   thermo_style custom step c_pv[1] c_pv[2] c_pv[3] c_pv[4] c_pv[5] c_pv[6]
//   thermo_modify format float %.10g
//   run 0
// (lmp -in in.pv -log none): xx, yy, zz -6.23531727 each; xy, xz, yz -2.2e-14, -4.3e-13,
// -7.8e-14 (LAMMPS's round-off: the cubic lattice has none).
constexpr double kLammpsVirialDiagonal = -6.23531727;
constexpr double kLammpsVirialOffDiagonal = 4.4e-13;  ///< the largest magnitude printed

struct LatticeSums {
  double energy_per_atom = 0.0;  ///< U / N
  double virial_per_atom = 0.0;  ///< W / N
  int neighbours = 0;            ///< lattice vectors within r_c
};

/// Half the sums of V(r) = 4 (r^-12 - r^-6) and of r . f = 48 r^-12 - 24 r^-6 over the fcc
/// lattice vectors (a/2) (i, j, k), i + j + k even, within r_c: the per-atom energy and virial of
/// a perfect crystal under a plain cut, written independently of NovaMD's traversals.
LatticeSums fcc_lattice_sums(double a, double rc) {
  LatticeSums s;
  const int reach = static_cast<int>(std::ceil(2.0 * rc / a));
  for (int i = -reach; i <= reach; ++i) {
    for (int j = -reach; j <= reach; ++j) {
      for (int k = -reach; k <= reach; ++k) {
        if ((i + j + k) % 2 != 0 || (i == 0 && j == 0 && k == 0)) continue;
        const double r2 = 0.25 * a * a * (i * i + j * j + k * k);
        if (r2 >= rc * rc) continue;
        const double inv6 = 1.0 / (r2 * r2 * r2);
        s.energy_per_atom += 0.5 * 4.0 * (inv6 * inv6 - inv6);
        s.virial_per_atom += 0.5 * (48.0 * inv6 * inv6 - 24.0 * inv6);
        ++s.neighbours;
      }
    }
  }
  return s;
}

TEST(LjMeltReference, StepZeroEnergyAndPressureMatchLammpsAndTheLatticeSum) {
  // examples/lj_liquid.yaml as a user runs it with --set system.structure.generate.cells=20, and
  // LAMMPS's plain cut: no tail correction.
  const auto config =
      novamd::io::load_config(NOVAMD_SOURCE_DIR "/examples/lj_liquid.yaml",
                              {{"system.structure.generate.cells", "20"},
                               {"forces.0.lennard_jones.tail_correction", "false"}});
  auto initial = novamd::io::build_initial_system(config);
  const std::size_t n = initial.particles.size();
  ASSERT_EQ(n, 32000u);
  const double volume = initial.box.volume();
  // Box edge (N / rho)^(1/3) = 20 a, a = (4 / 0.8442)^(1/3) = 1.6795962 (LAMMPS: "Lattice
  // spacing in x,y,z = 1.6795962", box 33.591924).
  const double a = std::cbrt(4.0 / 0.8442);
  ASSERT_NEAR(initial.box.length().x, 20.0 * a, 1e-12 * 20.0 * a);
  const double rc = 2.5;

  auto backend = novamd::backend::make_backend(
      "cpu", {config.units, config.system.species, initial.box, std::move(initial.particles),
              config.forces, config.precision, config.neighbors});
  backend->compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto obs = backend->observables();
  const auto thermo = novamd::analysis::make_thermo_state(
      0, 0.0, obs, n, volume, config.units, novamd::integrate::degrees_of_freedom({n}, true));
  const double nd = static_cast<double>(n);

  const double e_pair = thermo.potential_energy / nd;
  const double tot_eng = thermo.total_energy / nd;
  const double press = thermo.pressure;
  const double press_virial = obs.virial.trace() / (3.0 * volume);
  const double dof = 3.0 * nd - 3.0;  // LAMMPS's and NovaMD's
  const double press_kinetic_lammps = dof * kLammpsTemp / (3.0 * volume);

  // 1. The independent lattice sum. NovaMD adds N = 32,000 per-atom sums of about 80 pair terms
  //    each; every per-atom sum has the same sign, so the rounding of the running total is at most
  //    about (N + 80) eps = 3.6e-12 relative. The 54-term lattice sum rounds far less, and
  //    positions rounded to eps L move each r by ~1e-15 relative. 1e-11 relative covers it
  //    (measured: 2.3e-13 for U, 1.9e-13 for W).
  const auto sums = fcc_lattice_sums(a, rc);
  ASSERT_EQ(sums.neighbours, 12 + 6 + 24 + 12);
  const double roundoff = 1e-11;
  EXPECT_NEAR(e_pair, sums.energy_per_atom, roundoff * std::abs(sums.energy_per_atom));
  EXPECT_NEAR(obs.virial.trace() / nd, sums.virial_per_atom,
              roundoff * std::abs(sums.virial_per_atom));
  std::printf("lattice sum: U/N = %.12f (NovaMD - sum: %.2e), W/N = %.12f (NovaMD - sum: %.2e)\n",
              sums.energy_per_atom, e_pair - sums.energy_per_atom, sums.virial_per_atom,
              obs.virial.trace() / nd - sums.virial_per_atom);

  // 2. LAMMPS. The temperature is the printed 1.44 (NovaMD scales to it to 1e-12 relative).
  EXPECT_NEAR(thermo.temperature, kLammpsTemp, 1e-12 * kLammpsTemp);
  // E_pair: the printed digits, half a unit in the last (5e-8, 7.4e-9 relative), plus NovaMD's
  // round-off (1e-11 relative, above). The exact lattice value, -6.77336805325, lies 4.67e-8
  // from the printed -6.7733681, near the rounding midpoint: the margin is small but fixed, as
  // the value is deterministic to 1e-11.
  const double tol = kHalfLastDigit + roundoff * std::abs(kLammpsEPair);
  EXPECT_NEAR(e_pair, kLammpsEPair, tol);
  // TotEng = E_pair + (3N - 3) T / (2N): the same bound (the kinetic term is exact to 1e-12);
  // measured 4.67e-8.
  EXPECT_NEAR(tot_eng, kLammpsTotEng, tol);
  // Press: the same bound. Its kinetic part, (3N - 3) T / (3V) = 1.2156100, follows from T; the
  // virial part, W / (3V) = -6.2353173, from the lattice alone. Measured 4.09e-8.
  EXPECT_NEAR(press, kLammpsPress, kHalfLastDigit + roundoff * std::abs(kLammpsPress));
  EXPECT_NEAR(press_virial, kLammpsPress - press_kinetic_lammps,
              kHalfLastDigit + roundoff * std::abs(kLammpsPress));
  // The tensor: each diagonal component as LAMMPS prints it (10 digits: half a unit 5e-9, plus
  // the round-off above); the off-diagonal ones at LAMMPS's round-off level and far below the
  // diagonal's round-off bound.
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(obs.virial.c[k] / volume, kLammpsVirialDiagonal,
                0.5e-8 + roundoff * std::abs(kLammpsVirialDiagonal))
        << novamd::core::kTensorComponentNames[k];
  for (int k = 3; k < 6; ++k)
    EXPECT_LT(std::abs(obs.virial.c[k] / volume),
              kLammpsVirialOffDiagonal + roundoff * std::abs(kLammpsVirialDiagonal))
        << novamd::core::kTensorComponentNames[k];
  std::printf(
      "vs LAMMPS: E_pair %.10f (diff %.2e), TotEng %.10f (diff %.2e), Press %.10f (diff %.2e); "
      "tolerance %.2e\n",
      e_pair, e_pair - kLammpsEPair, tot_eng, tot_eng - kLammpsTotEng, press, press - kLammpsPress,
      tol);
}

}  // namespace
