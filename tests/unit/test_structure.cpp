// Structure generation (lattices, random with min_separation), Maxwell-Boltzmann velocities and
// build_initial_system for generated structures. Distances are recomputed here by brute force
// under the minimum image, independently of the code under test.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/structure_generator.hpp"
#include "novamd/io/velocity_init.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::core::Box;
using novamd::core::InputError;
using novamd::core::ParticleData;
using novamd::core::Species;
using novamd::core::SpeciesTable;
using novamd::core::UnitSystem;
using novamd::io::GenerateSettings;

using novamd::test::input_error_of;
using novamd::test::two_species;

double min_image_distance(const ParticleData& p, const Box& box, std::size_t i, std::size_t j) {
  double d2 = 0.0;
  const double L[3] = {box.length().x, box.length().y, box.length().z};
  const double dr[3] = {p.position.x[i] - p.position.x[j], p.position.y[i] - p.position.y[j],
                        p.position.z[i] - p.position.z[j]};
  for (int k = 0; k < 3; ++k) {
    const double d = dr[k] - L[k] * std::round(dr[k] / L[k]);
    d2 += d * d;
  }
  return std::sqrt(d2);
}

double brute_force_min_distance(const ParticleData& p, const Box& box) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j)
      best = std::min(best, min_image_distance(p, box, i, j));
  return best;
}

/// Returns the message of the InputError that `f` throws (fails the test if none).
std::vector<int> count_types(const ParticleData& p, int n_types) {
  std::vector<int> counts(n_types, 0);
  for (auto t : p.type) ++counts.at(t);
  return counts;
}

struct LatticeCase {
  const char* lattice;
  int basis;
  double nn_over_a;  ///< nearest-neighbour distance / lattice constant
  int coordination;
};

void PrintTo(const LatticeCase& c, std::ostream* os) {
  *os << c.lattice;
}

class StructureLattice : public ::testing::TestWithParam<LatticeCase> {};

// 3^3 cells in a cube of edge 6 (a = 2): count, ids, nearest-neighbour distance and
// coordination number from brute force under the minimum image (relative tolerance 1e-12:
// positions are a few products and sums of exact numbers).
TEST_P(StructureLattice, CountsAndNearestNeighbourDistance) {
  const auto& c = GetParam();
  const int total = 27 * c.basis;
  GenerateSettings s{c.lattice, {{"C", total}}, std::nullopt, 0.0};
  const Box box(6.0, 6.0, 6.0);
  const ParticleData p = generate_structure(s, two_species(), box, 1);
  ASSERT_EQ(p.size(), static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p.id[i], static_cast<int>(i));
    EXPECT_EQ(p.type[i], 0);
    EXPECT_EQ(p.velocity.x[i], 0.0);
    // quarter-cell offset: no coordinate closer than a/4 to a face (sc, bcc, fcc alike)
    for (double x : {p.position.x[i], p.position.y[i], p.position.z[i]}) {
      EXPECT_GE(x, 0.5 - 1e-12);
      EXPECT_LE(x, 6.0 - 0.5 + 1e-12);
    }
  }
  const double a = 2.0, nn = c.nn_over_a * a;
  EXPECT_NEAR(brute_force_min_distance(p, box), nn, 1e-12 * nn);
  for (std::size_t i = 0; i < p.size(); ++i) {
    int neighbours = 0;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (j != i && min_image_distance(p, box, i, j) < nn * (1.0 + 1e-9)) ++neighbours;
    EXPECT_EQ(neighbours, c.coordination) << "particle " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Structure, StructureLattice,
                         ::testing::Values(LatticeCase{"sc", 1, 1.0, 6},
                                           LatticeCase{"bcc", 2, std::sqrt(3.0) / 2.0, 8},
                                           LatticeCase{"fcc", 4, 1.0 / std::sqrt(2.0), 12}),
                         [](const auto& info) { return std::string(info.param.lattice); });

// Cells [2, 3, 4] in a box [4, 9, 16]: spacing 2, 3, 4 per axis (an orthorhombic lattice).
TEST(StructureLatticeShape, OrthorhombicBoxGivesOrthorhombicLattice) {
  GenerateSettings s{"sc", {{"C", 24}}, std::array<int, 3>{2, 3, 4}, 0.0};
  const ParticleData p = generate_structure(s, two_species(), Box(4.0, 9.0, 16.0), 1);
  ASSERT_EQ(p.size(), 24u);
  const auto distinct = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  EXPECT_EQ(distinct(p.position.x), (std::vector<double>{0.5, 2.5}));
  EXPECT_EQ(distinct(p.position.y), (std::vector<double>{0.75, 3.75, 6.75}));
  EXPECT_EQ(distinct(p.position.z), (std::vector<double>{1.0, 5.0, 9.0, 13.0}));
}

TEST(StructureLatticeShape, ExactCompositionShuffledBySeed) {
  GenerateSettings s{"fcc", {{"C", 100}, {"O", 156}}, std::nullopt, 0.0};
  const Box box(8.0, 8.0, 8.0);
  const ParticleData a = generate_structure(s, two_species(), box, 7);
  const ParticleData b = generate_structure(s, two_species(), box, 7);
  const ParticleData c = generate_structure(s, two_species(), box, 8);
  EXPECT_EQ(count_types(a, 2), (std::vector<int>{100, 156}));
  EXPECT_EQ(count_types(c, 2), (std::vector<int>{100, 156}));
  EXPECT_EQ(a.type, b.type);              // reproducible from the seed
  EXPECT_NE(a.type, c.type);              // another seed, another arrangement
  EXPECT_EQ(a.position.x, c.position.x);  // the sites themselves do not move
  // shuffled: the first 100 sites are not all C (probability of that ~ 1e-75)
  EXPECT_LT(std::count(a.type.begin(), a.type.begin() + 100, 0), 100);
}

TEST(StructureLatticeShape, TotalThatFillsNoCubeSuggestsNearestTotals) {
  GenerateSettings s{"bcc", {{"C", 60}, {"O", 40}}, std::nullopt, 0.0};
  const std::string msg =
      input_error_of([&] { generate_structure(s, two_species(), Box(5, 5, 5), 1); });
  EXPECT_NE(msg.find("system.structure.generate"), std::string::npos) << msg;
  EXPECT_NE(msg.find("54"), std::string::npos) << msg;   // 3^3 x 2
  EXPECT_NE(msg.find("128"), std::string::npos) << msg;  // 4^3 x 2
  EXPECT_NE(msg.find("cells"), std::string::npos) << msg;
}

TEST(StructureLatticeShape, CellsThatDoNotHoldTheCountsNameTheKey) {
  GenerateSettings s{"fcc", {{"C", 100}}, std::array<int, 3>{2, 2, 2}, 0.0};
  const std::string msg =
      input_error_of([&] { generate_structure(s, two_species(), Box(5, 5, 5), 1); });
  EXPECT_NE(msg.find("system.structure.generate.cells"), std::string::npos) << msg;
  EXPECT_NE(msg.find("32"), std::string::npos) << msg;
}

TEST(StructureLatticeShape, UnknownLatticeAndUndeclaredSpeciesNameTheKey) {
  GenerateSettings bad_lattice{"hcp", {{"C", 10}}, std::nullopt, 0.0};
  EXPECT_NE(input_error_of([&] {
              generate_structure(bad_lattice, two_species(), Box(5, 5, 5), 1);
            }).find("system.structure.generate.lattice"),
            std::string::npos);
  GenerateSettings bad_species{"random", {{"Ne", 10}}, std::nullopt, 0.0};
  const std::string msg =
      input_error_of([&] { generate_structure(bad_species, two_species(), Box(5, 5, 5), 1); });
  EXPECT_NE(msg.find("system.structure.generate.counts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'Ne'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("C, O"), std::string::npos) << msg;
}

// 600 particles in a 12 x 10 x 9 box, min_separation 0.9 (packing fraction 0.21).
TEST(StructureRandom, MinSeparationRespectedAndInsideBox) {
  GenerateSettings s{"random", {{"C", 200}, {"O", 400}}, std::nullopt, 0.9};
  const Box box(12.0, 10.0, 9.0);
  const ParticleData p = generate_structure(s, two_species(), box, 2026);
  ASSERT_EQ(p.size(), 600u);
  EXPECT_GE(brute_force_min_distance(p, box), 0.9);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p.id[i], static_cast<int>(i));
    EXPECT_EQ(p.type[i], i < 200 ? 0 : 1);  // species by species, in declaration order
    EXPECT_GE(p.position.x[i], 0.0);
    EXPECT_LT(p.position.x[i], 12.0);
    EXPECT_GE(p.position.z[i], 0.0);
    EXPECT_LT(p.position.z[i], 9.0);
  }
}

// Fewer than three grid cells per axis (every cell neighbours every other): still exact.
TEST(StructureRandom, MinSeparationInTinyGrid) {
  GenerateSettings s{"random", {{"C", 6}}, std::nullopt, 3.0};
  const Box box(8.0, 8.0, 8.0);
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    EXPECT_GE(brute_force_min_distance(generate_structure(s, two_species(), box, seed), box), 3.0);
}

TEST(StructureRandom, ReproducibleFromSeedDifferentWithAnother) {
  GenerateSettings s{"random", {{"C", 50}}, std::nullopt, 0.5};
  const Box box(6.0, 6.0, 6.0);
  const ParticleData a = generate_structure(s, two_species(), box, 11);
  const ParticleData b = generate_structure(s, two_species(), box, 11);
  const ParticleData c = generate_structure(s, two_species(), box, 12);
  EXPECT_EQ(a.position.x, b.position.x);
  EXPECT_EQ(a.position.y, b.position.y);
  EXPECT_EQ(a.position.z, b.position.z);
  EXPECT_NE(a.position.x, c.position.x);
}

TEST(StructureRandom, ImpossibleMinSeparationNamesKeyAndDensity) {
  // 1000 particles at density 1 with d = 1.5: packing fraction 1.77, impossible
  GenerateSettings s{"random", {{"C", 1000}}, std::nullopt, 1.5};
  const std::string msg =
      input_error_of([&] { generate_structure(s, two_species(), Box(10, 10, 10), 1); });
  EXPECT_NE(msg.find("system.structure.generate.min_separation"), std::string::npos) << msg;
  EXPECT_NE(msg.find("packing fraction"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0.83"), std::string::npos) << msg;  // (0.3 x 6 / pi)^(1/3) = 0.8306
}

// ---------------------------------------------------------------------------------------------
// Maxwell-Boltzmann velocities

struct Moments {
  double momentum[3] = {0, 0, 0};
  double momentum_scale = 0.0;  ///< sum m |v|, the size of the round-off in the momentum
  double kinetic = 0.0;
};

Moments moments(const ParticleData& p, const SpeciesTable& species, const UnitSystem& units) {
  Moments m;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double mass = species[p.type[i]].mass;
    const double v[3] = {p.velocity.x[i], p.velocity.y[i], p.velocity.z[i]};
    for (int d = 0; d < 3; ++d) {
      m.momentum[d] += mass * v[d];
      m.momentum_scale += mass * std::abs(v[d]);
      m.kinetic += 0.5 * mass * v[d] * v[d] * units.mvv_to_energy;
    }
  }
  return m;
}

ParticleData mixture(int n_c, int n_o) {
  GenerateSettings s{"random", {{"C", n_c}, {"O", n_o}}, std::nullopt, 0.0};
  return generate_structure(s, two_species(), Box(20, 20, 20), 5);
}

/// Parameter: the name of a unit system.
class StructureMaxwellBoltzmann : public ::testing::TestWithParam<const char*> {};

// Total momentum zero to round-off (1e-14 of sum m|v|) and T = 2K / ((3N - 3) k_B) equal to the
// target to 1e-12 relative, in each unit system (mvv_to_energy and k_B differ).
TEST_P(StructureMaxwellBoltzmann, ZeroMomentumAndExactTemperature) {
  const UnitSystem units = *novamd::core::find_unit_system(GetParam());
  ParticleData p = mixture(300, 200);
  const double target = 1.7;
  novamd::io::assign_maxwell_boltzmann(p, two_species(), units, target, 2026);
  const Moments m = moments(p, two_species(), units);
  for (double component : m.momentum) EXPECT_NEAR(component, 0.0, 1e-14 * m.momentum_scale);
  const double temperature = 2.0 * m.kinetic / ((3.0 * 500 - 3.0) * units.boltzmann);
  EXPECT_NEAR(temperature, target, 1e-12 * target);
}

INSTANTIATE_TEST_SUITE_P(Structure, StructureMaxwellBoltzmann,
                         ::testing::Values("nuclear", "lj", "real"),
                         [](const auto& info) { return std::string(info.param); });

TEST(StructureMaxwellBoltzmannOrder, SameVelocitiesWhateverTheStorageOrder) {
  const auto units = novamd::core::real_units();
  ParticleData a = mixture(120, 80);
  // b holds the same particles in a shuffled storage order
  std::vector<std::size_t> perm(a.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::shuffle(perm.begin(), perm.end(), std::mt19937(42));
  ParticleData b;
  b.resize(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    b.position.set(k, a.position.get(perm[k]));
    b.type[k] = a.type[perm[k]];
    b.id[k] = a.id[perm[k]];
  }
  novamd::io::assign_maxwell_boltzmann(a, two_species(), units, 300.0, 9);
  novamd::io::assign_maxwell_boltzmann(b, two_species(), units, 300.0, 9);
  for (std::size_t k = 0; k < b.size(); ++k) {  // bitwise equal, compared by id
    EXPECT_EQ(b.velocity.x[k], a.velocity.x[perm[k]]);
    EXPECT_EQ(b.velocity.y[k], a.velocity.y[perm[k]]);
    EXPECT_EQ(b.velocity.z[k], a.velocity.z[perm[k]]);
  }
  novamd::io::assign_maxwell_boltzmann(b, two_species(), units, 300.0, 10);
  EXPECT_NE(b.velocity.x[0], a.velocity.x[perm[0]]);  // another seed, other velocities
}

// Equipartition per species: m <v_d^2> = k_B T for the light and the heavy species. With
// n = 3 x 20000 samples per species the relative sd of the mean square is sqrt(2/n) = 0.58 %;
// the bound is 5 sd.
TEST(StructureMaxwellBoltzmannOrder, EquipartitionPerSpecies) {
  const auto units = novamd::core::nuclear_units();
  ParticleData p = mixture(20000, 20000);
  const SpeciesTable species({Species{"C", 6.0, 1.0, 0}, Species{"O", 8.0, 16.0, 0}});
  const double temperature = 0.5;
  novamd::io::assign_maxwell_boltzmann(p, species, units, temperature, 3);
  double sum[2] = {0, 0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto v = p.velocity.get(i);
    sum[p.type[i]] += species[p.type[i]].mass * dot(v, v);
  }
  const double bound = 5.0 * std::sqrt(2.0 / 60000.0);
  for (int t = 0; t < 2; ++t)
    EXPECT_NEAR(sum[t] / 60000.0 / (units.boltzmann * temperature), 1.0, bound) << "type " << t;
}

TEST(StructureMaxwellBoltzmannOrder, ZeroTemperatureAndSingleParticle) {
  const auto units = novamd::core::lj_units();
  ParticleData p = mixture(10, 0);
  novamd::io::assign_maxwell_boltzmann(p, two_species(), units, 0.0, 1);
  for (double v : p.velocity.x) EXPECT_EQ(v, 0.0);

  ParticleData one = mixture(1, 0);  // dof = 3, momentum kept
  novamd::io::assign_maxwell_boltzmann(one, two_species(), units, 2.0, 1);
  const Moments m = moments(one, two_species(), units);
  EXPECT_NEAR(2.0 * m.kinetic / 3.0, 2.0, 1e-12);
  EXPECT_GT(m.momentum_scale, 0.0);
}

TEST(StructureMaxwellBoltzmannOrder, NegativeTemperatureNamesKey) {
  ParticleData p = mixture(4, 0);
  const std::string msg = input_error_of([&] {
    novamd::io::assign_maxwell_boltzmann(p, two_species(), novamd::core::lj_units(), -1.0, 1);
  });
  EXPECT_NE(msg.find("system.velocities.temperature"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------------
// build_initial_system with generated structures

novamd::io::Config generated_config() {
  novamd::io::Config c;
  c.file = "<test>";
  c.units = novamd::core::lj_units();
  c.seed = 17;
  c.system.box = std::array<double, 3>{6.0, 6.0, 6.0};
  c.system.species = two_species();
  c.system.structure.generate = GenerateSettings{"fcc", {{"C", 54}, {"O", 54}}, std::nullopt, 0.0};
  c.system.velocities.temperature = 1.5;
  c.forces.push_back(novamd::forces::YukawaSettings{1.0, 2.5});
  return c;
}

TEST(InitialSystem, GeneratedStructureWithTemperature) {
  const auto s = novamd::io::build_initial_system(generated_config());
  ASSERT_EQ(s.particles.size(), 108u);
  EXPECT_EQ(s.box.length().x, 6.0);
  EXPECT_EQ(count_types(s.particles, 2), (std::vector<int>{54, 54}));
  const Moments m = moments(s.particles, two_species(), novamd::core::lj_units());
  EXPECT_NEAR(2.0 * m.kinetic / (3.0 * 108 - 3.0), 1.5, 1.5e-12);
}

TEST(InitialSystem, CubicBoxFromDensity) {
  auto c = generated_config();
  c.system.box.reset();
  c.system.density = 0.5;  // 108 / 0.5 = 216 = 6^3
  const auto s = novamd::io::build_initial_system(c);
  EXPECT_NEAR(s.box.length().x, 6.0, 1e-13);
  EXPECT_NEAR(s.box.length().z, 6.0, 1e-13);
}

TEST(InitialSystem, CutoffOverHalfTheBoxNamesKeyValueAndLimit) {
  auto c = generated_config();
  c.forces.push_back(novamd::forces::YukawaSettings{1.0, 3.5});
  const std::string msg = input_error_of([&] { novamd::io::build_initial_system(c); });
  EXPECT_NE(msg.find("forces[1].yukawa.cutoff"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3.5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at most 3"), std::string::npos) << msg;
  c.forces[1] = novamd::forces::YukawaSettings{1.0, novamd::forces::kNoCutoff};
  EXPECT_NO_THROW(novamd::io::build_initial_system(c));  // all pairs: no limit
}

TEST(InitialSystem, MissingBoxOrStructureNamesKey) {
  auto c = generated_config();
  c.system.box.reset();
  EXPECT_NE(input_error_of([&] { novamd::io::build_initial_system(c); }).find("system.box"),
            std::string::npos);
  c = generated_config();
  c.system.structure.generate.reset();
  EXPECT_NE(input_error_of([&] { novamd::io::build_initial_system(c); }).find("system.structure"),
            std::string::npos);
}

}  // namespace
