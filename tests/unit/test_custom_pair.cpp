// custom_pair on the CPU: Lennard-Jones and Yukawa written as formulas give the built-in terms'
// energy, forces and virial in every truncation; forces are minus the energy's gradient for a
// formula of many functions; the config's errors name the key and the character; a run with a
// bad formula exits 2 and writes nothing.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/expect_has.hpp"
#include "support/lammps_reference.hpp"
#include "support/two_species_pairs.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::forces::Truncation;
using novamd::test::TempDir;
constexpr double kEps = std::numeric_limits<double>::epsilon();

/// A config of species A and B (charges 1 and -1) whose one force term is `term`.
std::string config_with(const std::string& term) {
  return "units: lj\n"
         "system:\n"
         "  density: 0.5\n"
         "  species: [{name: A, mass: 1, charge: 1}, {name: B, mass: 2, charge: -1}]\n"
         "  structure: {generate: {lattice: fcc, cells: 3, fractions: {A: 0.5, B: 0.5}}}\n"
         "  velocities: {temperature: 1.0}\n"
         "forces:\n"
         "  - " +
         term +
         "\n"
         "integrator: {type: velocity_verlet, timestep: 0.005}\n"
         "run: {steps: 0}\n"
         "output: {thermo: {every: 1, file: thermo.csv, columns: [vdw_energy]}}\n";
}

novamd::forces::ForceSettings term_of(const std::string& term) {
  return novamd::io::parse_config(config_with(term), "run.yaml").forces.at(0);
}

std::string error_of(const std::string& term) {
  try {
    novamd::io::parse_config(config_with(term), "run.yaml");
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError for " << term;
  return "";
}

using Results = novamd::test::PairTermResults;

BackendSetup two_species(std::size_t n, std::uint64_t seed) {
  return novamd::test::two_species_pairs(n, seed);
}

Results evaluate(BackendSetup setup, const novamd::forces::ForceSettings& term) {
  return novamd::test::evaluate_term(std::move(setup), term);
}

/// Each pair's |V| and |F| as sums of the magnitudes of their terms (the bound's scale), summed
/// over the pairs within `cutoff` (energy and virial) and per particle (force).
struct Magnitudes {
  double energy = 0, virial = 0;
  std::vector<double> force;
};

template <class PairMagnitudes>
Magnitudes magnitudes(const BackendSetup& s, double cutoff, PairMagnitudes&& of) {
  Magnitudes m;
  m.force.assign(s.particles.size(), 0.0);
  const auto view = s.box.view<double>();
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    for (std::size_t j = i + 1; j < s.particles.size(); ++j) {
      const auto d = view.minimum_image(s.particles.position.get(i) - s.particles.position.get(j));
      const double r = std::sqrt(novamd::core::dot(d, d));
      if (r >= cutoff) continue;
      const auto [v, f] = of(s.particles.type[i] + s.particles.type[j], r);
      m.energy += v;
      m.virial += f * r;
      m.force[i] += f;
      m.force[j] += f;
    }
  }
  return m;
}

/// `custom` within `bound_eps` eps of the magnitudes of `exact` (energy, each force component
/// and each virial component).
void expect_near(const Results& custom, const Results& exact, const Magnitudes& m,
                 double bound_eps) {
  EXPECT_NEAR(custom.energy, exact.energy, bound_eps * kEps * m.energy);
  for (std::size_t i = 0; i < exact.fx.size(); ++i) {
    EXPECT_NEAR(custom.fx[i], exact.fx[i], bound_eps * kEps * m.force[i]) << "particle " << i;
    EXPECT_NEAR(custom.fy[i], exact.fy[i], bound_eps * kEps * m.force[i]) << "particle " << i;
    EXPECT_NEAR(custom.fz[i], exact.fz[i], bound_eps * kEps * m.force[i]) << "particle " << i;
  }
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(custom.virial.c[k], exact.virial.c[k], bound_eps * kEps * m.virial);
}

constexpr const char* kLennardJones =
    "custom_pair: {energy: '4*eps*((sigma/r)^12 - (sigma/r)^6)', "
    "parameters: {eps: 1.0, sigma: 1.0}, "
    "pairs: [{types: [A, B], eps: 0.75, sigma: 0.9}, {types: [B, B], eps: 0.5, sigma: 0.8}], "
    "cutoff: 2.5";

TEST(CustomPair, LennardJonesAsAFormulaMatchesTheBuiltInInEveryTruncation) {
  const auto setup = two_species(400, 3);
  const double eps[3] = {1.0, 0.75, 0.5}, sigma[3] = {1.0, 0.9, 0.8};
  // Bound: pow(x, 12) against the built-in's products is a few eps of each term (x = sigma/r
  // rounded once, 12 times that in x^12, and pow's own ulp), the derivative's chain of products
  // a few more, and the shifts at r_c add the same at the cutoff: 64 eps of the magnitudes
  // |4 eps x^12| + |4 eps x^6| (and their forces), which the sums' roundings stay under.
  const auto lj = [&](int pair, double r) {
    const double x6 = std::pow(sigma[pair] / r, 6);
    const double v = 4 * eps[pair] * (x6 * x6 + x6);
    const double f = 4 * eps[pair] * (12 * x6 * x6 + 6 * x6) / r;
    const double x6c = std::pow(sigma[pair] / 2.5, 6);  // the shifts' terms, at r_c
    return std::pair{v + 4 * eps[pair] * (x6c * x6c + x6c) * (1 + 12 + 6),
                     f + 4 * eps[pair] * (12 * x6c * x6c + 6 * x6c) / 2.5};
  };
  const Magnitudes m = magnitudes(setup, 2.5, lj);
  for (const char* shift : {"none", "energy", "force"}) {
    SCOPED_TRACE(shift);
    novamd::forces::LennardJonesSettings builtin;
    builtin.pairs = {{"A", "A", 1.0, 1.0}, {"A", "B", 0.75, 0.9}, {"B", "B", 0.5, 0.8}};
    builtin.cutoff = 2.5;
    builtin.truncation = std::string(shift) == "energy"  ? Truncation::ShiftEnergy
                         : std::string(shift) == "force" ? Truncation::ShiftForce
                                                         : Truncation::Cut;
    const Results exact = evaluate(setup, builtin);
    const Results custom =
        evaluate(setup, term_of(std::string(kLennardJones) + ", shift: " + shift + "}"));
    expect_near(custom, exact, m, 64);
    EXPECT_NE(custom.energy, 0.0);
  }
}

TEST(CustomPair, YukawaAsAFormulaOverAllPairsMatchesTheBuiltIn) {
  const auto setup = two_species(300, 5);
  // Species charges 1 and -1, k_e = 1 in lj units: k = q_a q_b, +1 for like pairs, -1 unlike.
  const Results exact =
      evaluate(setup, novamd::forces::YukawaSettings{1.5, novamd::forces::kNoCutoff});
  const Results custom = evaluate(
      setup, term_of("custom_pair: {energy: 'k*exp(-r/lambda)/r', parameters: {k: 1, lambda: "
                     "1.5}, pairs: [{types: [A, B], k: -1}], cutoff: none}"));
  // Bound: exp and the quotient round alike in both (a few eps of V); the derivative's terms
  // (V/lambda and V/r) as many: 32 eps of |V| and |V| (1/r + 1/lambda).
  const auto yukawa = [](int, double r) {
    const double v = std::exp(-r / 1.5) / r;
    return std::pair{v, v * (1 / r + 1 / 1.5)};
  };
  expect_near(custom, exact, magnitudes(setup, std::numeric_limits<double>::infinity(), yukawa),
              32);
}

TEST(CustomPair, ForcesAreMinusTheEnergysGradient) {
  auto setup = two_species(60, 9);
  // Every kind of node: functions, powers with a parameter, intermediate values, min and step.
  const auto term = term_of(
      "custom_pair: {energy: 'a*erfc(r/s)/r + b*tanh(r - 1)^2 + c*u*step(2.4 - r) + "
      "min(u, 0.3)*sqrt(r); u = exp(-r^p)*cos(r)', parameters: {a: 1.2, b: 0.4, c: 0.1, s: 1.1, "
      "p: 1.5}, cutoff: 2.5, shift: force}");
  const Results at = evaluate(setup, term);
  // Central differences with h = 1e-6: truncation h^2 |V'''| / 6 per pair (|V'''| < 1e3 at r >
  // 0.85) and rounding eps |E| / h of the total (|E| < 1e2): both under 1e-7; bound 1e-6.
  // The step at 2.4 makes V jump there: no pair lies within h of it (checked below).
  const double h = 1e-6;
  for (std::size_t i = 0; i < 60; i += 7) {
    const auto r0 = setup.particles.position.get(i);
    double* component[3] = {&setup.particles.position.x[i], &setup.particles.position.y[i],
                            &setup.particles.position.z[i]};
    const double force[3] = {at.fx[i], at.fy[i], at.fz[i]};
    for (int a = 0; a < 3; ++a) {
      const double x = *component[a];
      *component[a] = x + h;
      const double up = evaluate(setup, term).energy;
      *component[a] = x - h;
      const double down = evaluate(setup, term).energy;
      *component[a] = x;
      EXPECT_NEAR(-(up - down) / (2 * h), force[a], 1e-6) << "particle " << i << " axis " << a;
    }
    const auto view = setup.box.view<double>();
    for (std::size_t j = 0; j < 60; ++j) {
      const auto d = view.minimum_image(r0 - setup.particles.position.get(j));
      ASSERT_GT(std::abs(std::sqrt(novamd::core::dot(d, d)) - 2.4), 10 * h);
    }
  }
  EXPECT_NE(at.fx[0], 0.0);
}

// --- LAMMPS's pair_style mie/cut on the same input --------------------------------------------

TEST(CustomPairLammpsReference, TheMieFormulaAgreesWithLammpsPairStyleMieCut) {
  ASSERT_TRUE(std::filesystem::exists(novamd::test::kLammps))
      << novamd::test::kLammps
      << " is absent: install LAMMPS (Debian package lammps; scripts/setup.sh --tests)";
  // Exponents of their own per pair (12-6, 14-7, 20-6), cut at 2.5 without shift in both.
  struct Mie {
    double eps, sigma, n, m;
  };
  const Mie mie[3] = {{1.0, 1.0, 12, 6}, {0.8, 0.95, 14, 7}, {0.6, 0.9, 20, 6}};
  const auto setup = two_species(300, 21);
  const Results ours = evaluate(
      setup, term_of("custom_pair: {energy: 'C*eps*((sigma/r)^n - (sigma/r)^m); C = n/(n - m)*"
                     "(n/m)^(m/(n - m))', parameters: {eps: 1.0, sigma: 1.0, n: 12, m: 6}, pairs: "
                     "[{types: [A, B], eps: 0.8, sigma: 0.95, n: 14, m: 7}, {types: [B, B], eps: "
                     "0.6, sigma: 0.9, n: 20, m: 6}], cutoff: 2.5}"));
  TempDir dir;
  dir.write("state.data", novamd::test::lammps_data(setup, "written by test_custom_pair.cpp"));
  std::string pairs = "pair_style mie/cut 2.5\n";
  const char* types[3] = {"1 1", "1 2", "2 2"};
  for (int k = 0; k < 3; ++k)
    pairs += fmt::format("pair_coeff {} {} {} {} {}\n", types[k], mie[k].eps, mie[k].sigma,
                         mie[k].n, mie[k].m);
  const auto lammps = novamd::test::lammps_energy_and_pressure(dir, pairs);
  ASSERT_EQ(lammps.size(), 7u);
  // The same potential, with products for LAMMPS's pow on integer exponents, summed in other
  // orders over some 5,000 pairs (under N eps ~ 1e-12 of the sum of magnitudes), and separations
  // through ghost atoms there, the minimum image here: 1e-11 of the sums of magnitudes. A wrong
  // prefactor or exponent would differ by whole percent.
  const auto magnitude = [&](int pair, double r) {
    const Mie& p = mie[pair];
    const double c = p.n / (p.n - p.m) * std::pow(p.n / p.m, p.m / (p.n - p.m));
    const double vn = c * p.eps * std::pow(p.sigma / r, p.n),
                 vm = c * p.eps * std::pow(p.sigma / r, p.m);
    return std::pair{vn + vm, (p.n * vn + p.m * vm) / r};
  };
  const Magnitudes m = magnitudes(setup, 2.5, magnitude);
  EXPECT_NEAR(ours.energy, lammps[0], 1e-11 * m.energy);
  const double volume = 512.0;  // LAMMPS's P_ab = W_ab / V at zero velocities
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(ours.virial.c[k] / volume, lammps[k + 1], 1e-11 * m.virial / volume)
        << "component " << k;
  EXPECT_NE(lammps[0], 0.0);
}

// --- the config ------------------------------------------------------------------------------

TEST(ConfigCustomPair, ReadsTheFormulaParametersAndPairs) {
  const auto term = term_of(std::string(kLennardJones) + ", shift: energy}");
  const auto& s = std::get<novamd::forces::CustomPairSettings>(term);
  EXPECT_EQ(s.formula->parameters, (std::vector<std::string>{"eps", "sigma"}));
  EXPECT_EQ(s.defaults, (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(s.cutoff, 2.5);
  EXPECT_EQ(s.truncation, Truncation::ShiftEnergy);
  const novamd::core::SpeciesTable species({{"A", 1.0, 1.0, 0}, {"B", -1.0, 2.0, 0}});
  EXPECT_EQ(s.values_of(species, 1, 0), (std::vector<double>{0.75, 0.9}));
  EXPECT_EQ(s.values_of(species, 1, 1), (std::vector<double>{0.5, 0.8}));
  EXPECT_EQ(s.values_of(species, 0, 0), (std::vector<double>{1.0, 1.0}));
  EXPECT_TRUE(std::isinf(std::get<novamd::forces::CustomPairSettings>(
                             term_of("custom_pair: {energy: 'exp(-r)/r', cutoff: none}"))
                             .cutoff));
}

TEST(ConfigCustomPair, AFormulaThatDoesNotReadNamesTheKeyAndTheCharacter) {
  const auto e = error_of(
      "custom_pair: {energy: '4*eps*(r^-12 $ r^-6)', parameters: {eps: 1}, "
      "cutoff: 2.5}");
  EXPECT_HAS(e, "run.yaml:8: forces[0].custom_pair.energy");
  EXPECT_HAS(e, "does not read at character 14: '$' where an operator or ')' is expected");
  EXPECT_HAS(e, "4*eps*(r^-12 $ r^-6)\n                 ^");  // under the '$'
  const auto unknown =
      error_of("custom_pair: {energy: '4*epss*r^-12', parameters: {eps: 1}, cutoff: 2.5}");
  EXPECT_HAS(unknown, "unknown variable 'epss' (did you mean 'eps'?)");
  const auto function = error_of("custom_pair: {energy: 'exq(-r)', cutoff: 2.5}");
  EXPECT_HAS(function, "unknown function 'exq' (did you mean 'exp'?)");
  EXPECT_HAS(error_of("custom_pair: {energy: '2*k', parameters: {k: 1}, cutoff: 2.5}"),
             "the energy does not depend on r");
}

TEST(ConfigCustomPair, BadParametersAndPairsAreRefusedByName) {
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', parameters: {r: 1}, cutoff: 2.5}"),
             "custom_pair.parameters.r: 'r' is the pair's distance");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', parameters: {exp: 1}, cutoff: 2.5}"),
             "'exp' is a function of the formulas");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', parameters: {2k: 1}, cutoff: 2.5}"),
             "'2k' is not a name a formula can use");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', parameters: {a: x}, cutoff: 2.5}"),
             "custom_pair.parameters.a");
  EXPECT_HAS(error_of("custom_pair: {energy: 'a*r', parameters: {a: 1, b: 1, c: 1, d: 1, e: 1, "
                      "f: 1, g: 1, h: 1, i: 1}, cutoff: 2.5}"),
             "at most 8");
  EXPECT_HAS(error_of("custom_pair: {energy: 'a*r', parameters: {a: 1}, pairs: [{types: [A, B], "
                      "b: 2}], cutoff: 2.5}"),
             "custom_pair.pairs[0]");
  EXPECT_HAS(error_of("custom_pair: {energy: 'a*r', parameters: {a: 1}, pairs: [{types: [A, B], "
                      "a: 2}, {types: [B, A], a: 3}], cutoff: 2.5}"),
             "this species pair is listed twice");
  EXPECT_HAS(error_of("custom_pair: {energy: 'a*r', parameters: {a: 1}, pairs: [{types: [A, C], "
                      "a: 2}], cutoff: 2.5}"),
             "custom_pair.pairs[0].types");
  EXPECT_HAS(error_of("custom_pair: {energy: 'a*r', parameters: {a: 1}, pairs: [{types: [A, B]}], "
                      "cutoff: 2.5}"),
             "this pair sets no parameter");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', pairs: [{types: [A, B]}], cutoff: 2.5}"),
             "the formula has no parameters to set per pair");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r', cutoff: none, shift: force}"),
             "a shift needs a cutoff");
  EXPECT_HAS(error_of("custom_pair: {energy: 'r'}"), "custom_pair.cutoff");
}

TEST(ConfigCustomPair, ARunWithABadFormulaExitsWithCode2AndWritesNothing) {
  TempDir dir;
  dir.write("run.yaml", config_with("custom_pair: {energy: '4*(r^-12 - r^-6', cutoff: 2.5}"));
  const auto r = novamd::test::run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_HAS(r.output, "this parenthesis is not closed");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

TEST(ConfigCustomPair, ARunDescribesItsFormulaAndWritesItsEnergyAsVdw) {
  TempDir dir;
  dir.write("run.yaml", config_with(std::string(kLennardJones) + ", shift: force}"));
  const auto r = novamd::test::run_novamd("run run.yaml --backend cpu", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_HAS(r.output,
             "custom_pair (4*eps*((sigma/r)^12 - (sigma/r)^6); parameters eps, sigma; cutoff 2.5");
  std::ifstream in(dir.path() / "thermo.csv");
  std::string units, header, row;
  std::getline(in, units);
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_HAS(header, "vdw_energy");
  EXPECT_FALSE(row.empty());
}

}  // namespace
