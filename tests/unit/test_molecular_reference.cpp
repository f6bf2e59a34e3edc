// Step-0 energies of molecular systems, term by term, against independent engines on the same
// files (issue contract: 1e-7 relative in double):
// - the LAMMPS peptide (CHARMM: harmonic bonds, CHARMM angles with Urey-Bradley, CHARMM
//   dihedrals with their 1-4 pairs, harmonic impropers, LJ switched from 8 to 10 A, Coulomb cut
//   or force-shifted at 10 A) against LAMMPS: tests/data/lammps-peptide/energies_novamd.txt,
//   made by `lmp -in in.energies -log none -nocite -var k novamd` (README there), and with the
//   Ewald sum against LAMMPS's ewald (energies_ewald.txt: in.ewald, ewald_erfc_effect.py);
// - the AMBER alanine dipeptide in TIP3P water (ff14SB, 1-4 pairs scaled by 1/SCEE and 1/SCNB,
//   LJ cut at 10 A, reaction-field Coulomb at 10 A) against OpenMM's Reference platform:
//   tests/data/amber-dipeptide/reference_energies.json, made by `python3 reference_energies.py`
//   (README there); and with the Ewald sum against OpenMM's Reference Ewald
//   (ewald_reference.json, `python3 ewald_reference.py`) and with PME against OpenMM's Reference
//   PME (pme_reference.json, `python3 pme_reference.py`: energies and every nonbonded force).
// - the flexible SPC/E water box of examples/water with PME and the Ewald sum: its pressure
//   tensor and energies against LAMMPS's Ewald sum (tests/data/water-pressure/in.pressure).
// The reference numbers are read from those files, not copied here.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "novamd/backend/make_backend.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/cli_runner.hpp"
#include "support/thermo_row.hpp"

namespace {

const std::string kSource = NOVAMD_SOURCE_DIR;
const std::string kColumns =
    "[bond_energy, angle_energy, dihedral_energy, improper_energy, vdw_energy, coulomb_energy, "
    "virial]";

/// `name value  # comment` lines of a LAMMPS reference file; a name with several values keeps
/// them all.
std::map<std::string, std::vector<double>> lammps_reference(const std::string& file) {
  std::ifstream in(file);
  std::map<std::string, std::vector<double>> values;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream fields(line.substr(0, line.find('#')));
    std::string name;
    fields >> name;
    for (double v; fields >> v;) values[name].push_back(v);
  }
  return values;
}

/// The number after `"key": ` in the first run of the OpenMM JSON (the default epsilon_rf).
double openmm_reference(const std::string& json, const std::string& key) {
  const std::regex pattern("\"" + key + "\": (-?[0-9.eE+-]+)");
  std::smatch m;
  if (!std::regex_search(json, m, pattern)) {
    ADD_FAILURE() << "no " << key << " in the OpenMM reference";
    return NAN;
  }
  return std::stod(m[1]);
}

/// Relative agreement to 1e-7 (the contract), measured against the larger of the value and
/// `scale` (the system's total potential energy scale) so that small terms are held to the same
/// absolute accuracy as the energy they add to.
void expect_close(double ours, double reference, double scale, const std::string& what) {
  EXPECT_NEAR(ours, reference, 1e-7 * std::max(std::abs(reference), scale)) << what;
}

std::string peptide_config(const std::string& coulomb_method) {
  return "units: real\n"
         "system:\n"
         "  topology:\n"
         "    read: " +
         kSource +
         "/examples/peptide/data.peptide\n"
         "    styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, "
         "improper: harmonic}\n"
         "forces:\n"
         "  - lennard_jones: {cutoff: 10.0, switch: 8.0}\n"
         "  - coulomb: {method: " +
         coulomb_method +
         ", cutoff: 10.0}\n"
         "integrator: {type: velocity_verlet, timestep: 1.0}\n"
         "run: {steps: 0}\n"
         "output: {thermo: {every: 1, columns: " +
         kColumns + "}}\n";
}

TEST(PeptideLammpsReference, EveryTermMatchesLammpsWithCutCoulomb) {
  auto ref = lammps_reference(kSource + "/tests/data/lammps-peptide/energies_novamd.txt");
  ASSERT_FALSE(ref.empty());
  novamd::test::TempDir dir;
  const auto row = novamd::test::initial_thermo_row(dir, peptide_config("cut"));
  ASSERT_FALSE(row.empty());
  const double scale = std::abs(ref["total_cut"][0]);
  expect_close(row.at("bond_energy"), ref["ebond"][0], 0, "bonds");
  expect_close(row.at("angle_energy"), ref["eangle"][0], 0, "angles (CHARMM, Urey-Bradley)");
  expect_close(row.at("dihedral_energy"), ref["edihed"][0], 0, "dihedrals (CHARMM)");
  expect_close(row.at("improper_energy"), ref["eimp"][0], 0, "impropers (harmonic)");
  expect_close(row.at("vdw_energy"), ref["lj_switched_pair"][0] + ref["lj_14"][0], 0,
               "LJ switched 8-10 A and the CHARMM 1-4 pairs");
  expect_close(row.at("coulomb_energy"), ref["coulomb_cut_pair"][0] + ref["coulomb_14"][0], 0,
               "Coulomb cut at 10 A and the 1-4 pairs");
  expect_close(row.at("potential_energy"), ref["total_cut"][0], 0, "total");
  // The virial's trace from LAMMPS's virial pressure tensor: W = (Pxx + Pyy + Pzz) V / nktv2p,
  // nktv2p = 68568.415 atm A^3 per kcal/mol (LAMMPS `units real`).
  const auto& p = ref["virial_pressure_total"];
  const double virial = (p[0] + p[1] + p[2]) * ref["volume"][0] / 68568.415;
  expect_close(row.at("virial"), virial, scale, "virial (trace)");
}

TEST(PeptideLammpsReference, ForceShiftedCoulombMatchesLammpsCharmmfsh) {
  auto ref = lammps_reference(kSource + "/tests/data/lammps-peptide/energies_novamd.txt");
  novamd::test::TempDir dir;
  const auto row = novamd::test::initial_thermo_row(dir, peptide_config("shift"));
  ASSERT_FALSE(row.empty());
  expect_close(row.at("coulomb_energy"), ref["coulomb_shift_pair"][0] + ref["coulomb_14"][0], 0,
               "Coulomb force-shifted at 10 A and the 1-4 pairs");
}

// The Ewald sum on the peptide against LAMMPS's lj/charmm/coul/long with kspace_style ewald at
// the same g_ewald (0.42 / A) and a relative accuracy of 1e-10: tests/data/lammps-peptide/
// energies_ewald.txt, made by `lmp -in in.ewald -log none -nocite` and `python3
// ewald_erfc_effect.py`. LAMMPS evaluates erfc with Abramowitz and Stegun's polynomial 7.1.26
// (absolute error up to 1.5e-7), which moves its Coulomb energy by +0.0126 kcal/mol (2e-6);
// the script sums that effect pair by pair. NovaMD's exact sum plus it gives LAMMPS's number to
// 4e-10; without it the two differ by 2e-6 of the nonbonded energy, LAMMPS's own accuracy.
TEST(PeptideLammpsReference, EwaldMatchesLammpsEwaldToItsErfcAccuracy) {
  auto ref = lammps_reference(kSource + "/tests/data/lammps-peptide/energies_ewald.txt");
  ASSERT_FALSE(ref.empty());
  novamd::test::TempDir dir;
  std::string config = peptide_config("ewald");
  const std::string coulomb = "method: ewald, cutoff: 10.0";
  config.replace(config.find(coulomb), coulomb.size(),
                 coulomb + ", alpha: 0.42, tolerance: 1.0e-10");
  const auto row = novamd::test::initial_thermo_row(dir, config);
  ASSERT_FALSE(row.empty());
  const double lammps = ref["coulomb_ewald"][0], effect = ref["lammps_erfc_effect"][0];
  const double nonbonded = std::abs(ref["evdwl_with_14"][0] + lammps);
  expect_close(row.at("vdw_energy"), ref["evdwl_with_14"][0], 0, "LJ switched and 1-4 pairs");
  EXPECT_NEAR(row.at("coulomb_energy") + effect, lammps, 1e-8 * nonbonded)
      << "Coulomb with LAMMPS's erfc polynomial";
  EXPECT_NEAR(row.at("coulomb_energy"), lammps, 3e-6 * nonbonded) << "LAMMPS's own accuracy";
  EXPECT_GT(std::abs(row.at("coulomb_energy") - lammps), 1e-6 * nonbonded)
      << "the polynomial's effect is resolved (else the test above says nothing)";
}

/// The AMBER example with LJ cut at 10 A and the Coulomb term `coulomb` ("method: ..."), step 0.
std::string dipeptide_config(const std::string& coulomb) {
  const std::string folder = kSource + "/examples/amber-dipeptide/";
  return "units: real\n"
         "system:\n"
         "  topology: {read: " +
         folder + "dipeptide.prmtop, coordinates: " + folder +
         "dipeptide.inpcrd}\n"
         "forces:\n"
         "  - lennard_jones: {cutoff: 10.0}\n"
         "  - coulomb: {" +
         coulomb +
         "}\n"
         "integrator: {type: velocity_verlet, timestep: 1.0}\n"
         "run: {steps: 0}\n"
         "output: {thermo: {every: 1, columns: " +
         kColumns + "}}\n";
}

TEST(DipeptideOpenMMReference, EveryTermMatchesOpenMMReferencePlatform) {
  std::ifstream in(kSource + "/tests/data/amber-dipeptide/reference_energies.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(json.empty());
  const std::string config =
      dipeptide_config("method: reaction_field, cutoff: 10.0, epsilon_rf: 78.3");
  novamd::test::TempDir dir;
  const auto row = novamd::test::initial_thermo_row(dir, config);
  ASSERT_FALSE(row.empty());
  // 12 significant digits in the JSON: a relative 5e-12, far inside the 1e-7 asked.
  expect_close(row.at("bond_energy"), openmm_reference(json, "bonds"), 0, "bonds");
  expect_close(row.at("angle_energy"), openmm_reference(json, "angles"), 0, "angles");
  expect_close(row.at("dihedral_energy"), openmm_reference(json, "proper_dihedrals"), 0,
               "proper dihedrals");
  expect_close(row.at("improper_energy"), openmm_reference(json, "impropers"), 0, "impropers");
  expect_close(row.at("vdw_energy"),
               openmm_reference(json, "lj_pair") + openmm_reference(json, "lj_14"), 0,
               "LJ cut at 10 A and the 1-4 pairs at 1/SCNB");
  expect_close(row.at("coulomb_energy"),
               openmm_reference(json, "coulomb_pair") + openmm_reference(json, "coulomb_14"), 0,
               "reaction-field Coulomb and the 1-4 pairs at 1/SCEE");
  expect_close(row.at("potential_energy"), openmm_reference(json, "total"), 0, "total");
}

// The Ewald sum on the same system against OpenMM's Reference Ewald (NonbondedForce.Ewald,
// ewaldErrorTolerance 1e-8, no dispersion correction): tests/data/amber-dipeptide/
// ewald_reference.json, made by `python3 ewald_reference.py` (OpenMM 8.4.0.dev). Both choose
// alpha = sqrt(-ln(2 tol)) / r_c, so the real-space parts are the same sum; the reciprocal sums
// use different wave vectors (NovaMD kmax 18 per axis) and are each converged to about 1e-8.
// The issue asks the nonbonded energy to 1e-6 relative; the two agree to 1e-12 (12 digits).
TEST(DipeptideOpenMMReference, EwaldMatchesOpenMMReferenceEwald) {
  std::ifstream in(kSource + "/tests/data/amber-dipeptide/ewald_reference.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(json.empty());
  const std::string config = dipeptide_config("method: ewald, cutoff: 10.0, tolerance: 1.0e-8");
  novamd::test::TempDir dir;
  const auto row = novamd::test::initial_thermo_row(dir, config);
  ASSERT_FALSE(row.empty());
  const double lj = openmm_reference(json, "lj"), coulomb = openmm_reference(json, "coulomb");
  const double nonbonded = openmm_reference(json, "nonbonded");
  EXPECT_NEAR(lj + coulomb, nonbonded, 1e-8 * std::abs(nonbonded));  // the JSON is consistent
  EXPECT_NEAR(row.at("vdw_energy"), lj, 1e-6 * std::abs(nonbonded));
  EXPECT_NEAR(row.at("coulomb_energy"), coulomb, 1e-6 * std::abs(nonbonded));
  EXPECT_NEAR(row.at("vdw_energy") + row.at("coulomb_energy"), nonbonded,
              1e-6 * std::abs(nonbonded));
}

/// The numbers of the JSON list under `"key": [[...], ...]`, flattened.
std::vector<double> json_numbers_under(const std::string& json, const std::string& key) {
  std::vector<double> values;
  const auto start = json.find("\"" + key + "\": [");
  if (start == std::string::npos) return values;
  const char* p = json.c_str() + json.find('[', start);
  int depth = 0;
  do {
    if (*p == '[') ++depth;
    if (*p == ']') --depth;
    if (*p == '-' || std::isdigit(static_cast<unsigned char>(*p))) {
      char* end = nullptr;
      values.push_back(std::strtod(p, &end));
      p = end;
      continue;
    }
    ++p;
  } while (depth > 0 && *p);
  return values;
}

/// The dipeptide's nonbonded forces (id order) and Coulomb energy with `coulomb`: the pair terms
/// and the bonded families of nonbonded kind (1-4 pairs, Ewald exclusion corrections) only.
std::pair<novamd::core::ParticleData, double> dipeptide_nonbonded(const std::string& coulomb) {
  auto config = novamd::io::parse_config(dipeptide_config(coulomb), "dipeptide.yaml");
  auto initial = novamd::io::build_initial_system(config);
  novamd::forces::resolve_kspace(config.forces, initial.box);
  auto molecular = novamd::io::molecular_system(config);
  std::vector<novamd::forces::BondedSettings> nonbonded;
  std::vector<std::string> names;
  for (const auto& family : molecular.bonded) {
    const std::string name = std::visit([](const auto& f) { return std::string(f.kName); }, family);
    if (name == "lennard_jones_14" || name == "coulomb_14" || name == "ewald_excluded_pairs") {
      nonbonded.push_back(family);
      names.push_back(name);
    }
  }
  EXPECT_EQ(nonbonded.size(), 3u);
  auto b = novamd::backend::make_backend(
      "cpu", {config.units, config.system.species, initial.box, std::move(initial.particles),
              config.forces, novamd::core::Precision::Double, config.neighbors, nullptr,
              std::move(molecular.topology), nonbonded});
  b->compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto o = b->observables();
  // Terms: LJ, Coulomb, then the families in their order.
  double coulomb_energy = o.term_energy.at(1);
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] != "lennard_jones_14") coulomb_energy += o.term_energy.at(2 + k);
  return {b->particles_on_host(), coulomb_energy};
}

// Smooth PME on the same system against OpenMM's Reference PME (NonbondedForce.PME,
// ewaldErrorTolerance 1e-6, no dispersion correction): tests/data/amber-dipeptide/
// pme_reference.json, made by `python3 pme_reference.py` (OpenMM 8.4.0.dev).
// 1. NovaMD chooses OpenMM's alpha and grid: OpenMM's Reference platform keeps
//    ceil(2 alpha L / (3 tol^(1/5))) = 115 points, NovaMD (as OpenMM's GPU platforms) the next
//    length with factors 2, 3, 5 and 7 only, 120.
// 2. At OpenMM's alpha and grid (115) with order 5 the two compute the same sums: the Coulomb
//    energy to 1e-9 relative and every nonbonded force to 1e-7 of the largest (the JSON keeps
//    10 digits; the FFTs and the order of the sums differ).
// 3. At NovaMD's own grid the Coulomb energy within 1e-6 of the nonbonded energy (the issue's
//    bound; PME's own error at 1e-6 is some 1e-7 of it).
TEST(DipeptideOpenMMReference, PmeMatchesOpenMMReferencePme) {
  std::ifstream in(kSource + "/tests/data/amber-dipeptide/pme_reference.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(json.empty());
  const double alpha = openmm_reference(json, "alpha_per_angstrom");
  const auto grid = json_numbers_under(json, "grid");
  ASSERT_EQ(grid.size(), 3u);
  auto config = novamd::io::parse_config(
      dipeptide_config("method: pme, cutoff: 10.0, tolerance: 1.0e-6"), "dipeptide.yaml");
  novamd::forces::resolve_kspace(config.forces, novamd::core::Box(30.0, 30.0, 30.0));
  const auto& chosen = std::get<novamd::forces::CoulombSettings>(config.forces.at(1));
  EXPECT_NEAR(*chosen.ewald.alpha, alpha, 1e-11 * alpha);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(grid[a], 115.0);
    EXPECT_EQ(chosen.ewald.grid_per_axis[a], novamd::forces::fft_length_at_least(115));
  }

  const auto [forces, coulomb] = dipeptide_nonbonded(
      fmt::format("method: pme, cutoff: 10.0, alpha: {:.17g}, order: 5, grid: [{}, {}, {}]", alpha,
                  grid[0], grid[1], grid[2]));
  const double reference = openmm_reference(json, "coulomb_energy");
  EXPECT_NEAR(coulomb, reference, 1e-9 * std::abs(reference));
  const auto f = json_numbers_under(json, "forces");
  ASSERT_EQ(f.size(), 3 * forces.size());
  double largest = 0.0;
  for (const double v : f) largest = std::max(largest, std::abs(v));
  ASSERT_GT(largest, 10.0);  // kcal/mol/A
  for (std::size_t i = 0; i < forces.size(); ++i) {
    ASSERT_NEAR(forces.force.x[i], f[3 * i], 1e-7 * largest) << "atom " << i;
    ASSERT_NEAR(forces.force.y[i], f[3 * i + 1], 1e-7 * largest) << "atom " << i;
    ASSERT_NEAR(forces.force.z[i], f[3 * i + 2], 1e-7 * largest) << "atom " << i;
  }

  const auto own = dipeptide_nonbonded("method: pme, cutoff: 10.0, tolerance: 1.0e-6");
  EXPECT_NEAR(own.second, reference, 1e-6 * std::abs(openmm_reference(json, "nonbonded_energy")));
}

// The pressure of a water box against LAMMPS on the same configuration: examples/water/water.data
// (1,000 flexible SPC/E waters) at rest, LJ cut at 10 A with the tail correction, and Coulomb by
// PME at tolerance 1e-6 and by the Ewald sum, against LAMMPS's lj/cut/coul/long with an Ewald sum
// at the same g_ewald, converged to 1e-10 (tests/data/water-pressure/pressure_lammps.txt: `lmp -in
// in.pressure` and ewald_erfc_effect.py, README there). At rest the pressure is the virial's,
// W_ab / V; both report it in atm (`units real`: NovaMD takes 68,568.423 atm per kcal/mol/A^3
// from the SI constants, LAMMPS its nktv2p, 68,568.415: 1.2e-7 apart, inside the bound below).
// LAMMPS's erfc polynomial moves its Coulomb energy by lammps_erfc_effect (-0.0028 kcal/mol); with
// it added, the Ewald energies agree to 1e-8 of the nonbonded energy (3e-6 kcal/mol, 5e-9, seen:
// LAMMPS's own convergence at its 1e-10 and its rounding of the constant in the dielectric). The
// pressure tensor agrees to 1e-6 relative (2.5e-7 seen: the polynomial's effect on the virial,
// which no script separates), PME's within its own error at 1e-6. PME runs twice: over all pairs
// (the 31 A box holds fewer than three list cells of 11.2 A) and over Verlet lists chosen
// explicitly, where LJ and the real space share one pass (forces/pair_sum_terms.hpp).
TEST(WaterLammpsReference, PressureTensorMatchesLammpsEwald) {
  auto ref = lammps_reference(kSource + "/tests/data/water-pressure/pressure_lammps.txt");
  ASSERT_EQ(ref["pxx"].size(), 1u);
  const double nonbonded = std::abs(ref["evdwl"][0] + ref["ecoul_elong"][0]);
  const std::string pme = "method: pme, cutoff: 10.0, tolerance: 1.0e-6";
  const std::string ewald =
      "method: ewald, cutoff: 10.0, tolerance: 1.0e-10, alpha: 0.36224802797812894";
  const std::string all_pairs = "auto", lists = "neighbor_list";
  for (const auto& [coulomb, method] :
       {std::pair{pme, all_pairs}, std::pair{pme, lists}, std::pair{ewald, all_pairs}}) {
    SCOPED_TRACE(coulomb + ", neighbors " + method);
    const std::string config =
        "units: real\n"
        "system:\n"
        "  topology:\n"
        "    read: " +
        kSource +
        "/examples/water/water.data\n"
        "    styles: {pair: lj_cut, bond: harmonic, angle: harmonic}\n"
        "forces:\n"
        "  - lennard_jones: {cutoff: 10.0, tail_correction: true}\n"
        "  - coulomb: {" +
        std::string(coulomb) +
        "}\n"
        "neighbors: {method: " +
        method +
        "}\n"
        "integrator: {type: velocity_verlet, timestep: 0.5}\n"
        "run: {steps: 0}\n"
        "output: {thermo: {every: 1, columns: [vdw_energy, coulomb_energy, pxx, pyy, pzz, pxy]}}\n";
    novamd::test::TempDir dir;
    const auto row = novamd::test::initial_thermo_row(dir, config);
    ASSERT_FALSE(row.empty());
    EXPECT_NEAR(row.at("vdw_energy"), ref["evdwl"][0], 1e-9 * nonbonded);
    const double coulomb_tolerance = coulomb == pme ? 1e-6 * nonbonded  // PME's own error at 1e-6
                                                    : 1e-8 * nonbonded;
    EXPECT_NEAR(row.at("coulomb_energy") + ref["lammps_erfc_effect"][0], ref["ecoul_elong"][0],
                coulomb_tolerance);
    for (const char* p : {"pxx", "pyy", "pzz", "pxy"}) {
      const double lammps = ref[p][0];
      EXPECT_NEAR(row.at(p), lammps, 1e-6 * std::abs(ref["pxx"][0])) << p;
    }
  }
}

}  // namespace
