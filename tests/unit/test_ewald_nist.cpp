// The Ewald sum against NIST's SPC/E reference calculations (tests/data/nist-spce/README.md):
// all four configurations, each of E_real, E_Fourier, E_self, E_intra and the dispersion E_disp
// and its long-range correction E_LRC, to NIST's 6 significant figures, with NIST's alpha = 5.6/L
// and wave vectors (|n_i| <= 5, n^2 < 27). The system goes through the path a run takes: a LAMMPS
// data file written from NIST's file (O-H bonds, so 1-2 and 1-3 pairs are excluded), the config
// `coulomb: {method: ewald, ...}`, io::molecular_system and the CPU backend's terms.
//
// NIST's values (E/k_B in K), from its page (the README quotes the source):
//
// | cfg | E_disp      | E_LRC        | E_real       | E_Fourier   | E_self       | E_intra     |
// | 1   | 9.95387E+04 | -8.23715E+02 | -5.58889E+05 | 6.27009E+03 | -2.84469E+06 | 2.80999E+06 |
// | 2   | 1.93712E+05 | -3.29486E+03 | -1.19295E+06 | 6.03495E+03 | -5.68938E+06 | 5.61998E+06 |
// | 3   | 3.54344E+05 | -7.41343E+03 | -1.96297E+06 | 5.24461E+03 | -8.53407E+06 | 8.42998E+06 |
// | 4   | 4.48593E+05 | -1.37286E+04 | -3.57226E+06 | 7.58785E+03 | -1.42235E+07 | 1.41483E+07 |

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/backend/make_backend.hpp"
#include "novamd/forces/cpu_kspace_term.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/cli_runner.hpp"
#include "support/nist_spce.hpp"

namespace {

using novamd::backend::EnergyRequest;
using novamd::test::TempDir;

struct NistSpce {
  int cfg;
  double e_disp, e_lrc, e_real, e_fourier, e_self, e_intra;
};

constexpr NistSpce kNist[] = {
    {1, 9.95387E+04, -8.23715E+02, -5.58889E+05, 6.27009E+03, -2.84469E+06, 2.80999E+06},
    {2, 1.93712E+05, -3.29486E+03, -1.19295E+06, 6.03495E+03, -5.68938E+06, 5.61998E+06},
    {3, 3.54344E+05, -7.41343E+03, -1.96297E+06, 5.24461E+03, -8.53407E+06, 8.42998E+06},
    {4, 4.48593E+05, -1.37286E+04, -3.57226E+06, 7.58785E+03, -1.42235E+07, 1.41483E+07},
};

using novamd::test::half_unit_in_6th_figure;
using novamd::test::kNistCoulombKelvin;
using Molecules = novamd::test::NistConfiguration;

/// The configuration as a LAMMPS data file (atom style full): SPC/E charges, LJ on O, the two
/// O-H bonds of each molecule at their rest length (no bond energy).
std::string data_file(const Molecules& m, double epsilon_kcal) {
  const std::size_t n = m.site.size(), molecules = n / 3;
  std::string out = fmt::format(
      "NIST SPC/E\n\n{} atoms\n{} bonds\n2 atom types\n1 bond types\n\n"
      "{} {} xlo xhi\n{} {} ylo yhi\n{} {} zlo zhi\n\nMasses\n\n1 15.9994 # OW\n2 1.008 # HW\n\n"
      "Pair Coeffs # lj/cut/coul/long\n\n1 {:.12g} 3.16555789\n2 0.0 1.0\n\nBond Coeffs\n\n1 450.0 "
      "1.0\n\n"
      "Atoms # full\n\n",
      n, 2 * molecules, -0.5 * m.edge, 0.5 * m.edge, -0.5 * m.edge, 0.5 * m.edge, -0.5 * m.edge,
      0.5 * m.edge, epsilon_kcal);
  for (std::size_t a = 0; a < n; ++a) {
    const bool oxygen = a % 3 == 0;
    out += fmt::format("{} {} {} {} {:.12e} {:.12e} {:.12e}\n", a + 1, a / 3 + 1, oxygen ? 1 : 2,
                       oxygen ? -0.8476 : 0.4238, m.site[a].x, m.site[a].y, m.site[a].z);
  }
  out += "\nBonds\n\n";
  for (std::size_t w = 0; w < molecules; ++w) {
    out += fmt::format("{} 1 {} {}\n", 2 * w + 1, 3 * w + 1, 3 * w + 2);
    out += fmt::format("{} 1 {} {}\n", 2 * w + 2, 3 * w + 1, 3 * w + 3);
  }
  return out;
}

TEST(EwaldNist, SpceComponentsAgreeWithNistToSixFigures) {
  for (const NistSpce& ref : kNist) {
    SCOPED_TRACE(fmt::format("cfg {}", ref.cfg));
    const Molecules m = novamd::test::read_nist_spce(ref.cfg);
    TempDir dir;
    const double k_e = novamd::core::real_units().coulomb;    // kcal/mol A
    const double kelvin_per_kcal = kNistCoulombKelvin / k_e;  // K per kcal/mol
    dir.write("nist.data", data_file(m, 78.19743111 / kelvin_per_kcal));
    const double alpha = 5.6 / m.edge;
    const std::string yaml = fmt::format(
        "units: real\n"
        "system:\n"
        "  topology: {{read: {}/nist.data, styles: {{bond: harmonic}}}}\n"
        "forces:\n"
        "  - lennard_jones: {{cutoff: 10.0, tail_correction: true}}\n"
        "  - coulomb: {{method: ewald, cutoff: 10.0, alpha: {:.17g}, kmax: 5, kmax_squared: 26}}\n"
        "integrator: {{type: velocity_verlet, timestep: 1.0}}\n"
        "run: {{steps: 0}}\n",
        dir.path().string(), alpha);
    const auto config = novamd::io::parse_config(yaml, "nist.yaml");
    auto initial = novamd::io::build_initial_system(config);
    auto molecular = novamd::io::molecular_system(config);
    ASSERT_EQ(molecular.bonded.size(), 2u);  // the bonds, the excluded pairs' corrections
    ASSERT_EQ(molecular.topology.correction_pairs().size(), m.site.size());  // 3 per water
    const auto particles = initial.particles;
    auto cpu = novamd::backend::make_backend(
        "cpu", {config.units, config.system.species, initial.box, std::move(initial.particles),
                config.forces, novamd::core::Precision::Double, config.neighbors, nullptr,
                molecular.topology, molecular.bonded});
    cpu->compute_forces(EnergyRequest::Compute);
    const auto o = cpu->observables();
    ASSERT_EQ(o.term_energy.size(), 4u);  // LJ, Coulomb (real + reciprocal + self), bonds, intra

    // The reciprocal sum with the self energy alone: the Ewald term without its real-space part.
    auto coulomb = std::get<novamd::forces::CoulombSettings>(config.forces[1]);
    novamd::forces::resolve_ewald(coulomb, initial.box);
    EXPECT_EQ(coulomb.ewald.kmax_per_axis, (std::array<int, 3>{5, 5, 5}));
    auto reciprocal = novamd::forces::make_cpu_ewald_term(nullptr, coulomb, config.units);
    novamd::neighbors::ForceBuffers buffers;
    buffers.reset(particles.size());
    reciprocal->add_to(particles, initial.box, buffers, true);
    double sum_q2 = 0.0;
    for (const double q : particles.charge) sum_q2 += q * q;
    const double e_self = -k_e * alpha / std::sqrt(std::numbers::pi) * sum_q2;
    const double e_fourier = buffers.total_energy() - e_self;

    const double e_real = o.term_energy[1] - buffers.total_energy();
    const double tail = novamd::forces::tail_correction(
                            config.forces, config.system.species,
                            novamd::core::count_by_type(particles, config.system.species.size()),
                            initial.box.volume())
                            .energy;
    const auto expect_nist = [&](const char* name, double kcal, double published) {
      EXPECT_NEAR(kcal * kelvin_per_kcal, published, half_unit_in_6th_figure(published)) << name;
    };
    expect_nist("E_disp", o.term_energy[0], ref.e_disp);
    expect_nist("E_LRC", tail, ref.e_lrc);
    expect_nist("E_real", e_real, ref.e_real);
    expect_nist("E_Fourier", e_fourier, ref.e_fourier);
    expect_nist("E_self", e_self, ref.e_self);
    expect_nist("E_intra", o.term_energy[3], ref.e_intra);
    EXPECT_LT(std::abs(o.term_energy[2]), 1e-9);  // every O-H bond at its rest length
  }
}

}  // namespace
