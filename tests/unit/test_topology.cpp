// core::Topology (bonded terms by particle id, exclusions and 1-4 pairs by shortest bond path,
// molecules as connected components) and core::IdIndexMap (id -> storage index). Every expected
// list is worked out by hand in the comments, never by calling the code under test.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/id_index_map.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/topology.hpp"

namespace {

using novamd::core::Bond;
using novamd::core::ExclusionLists;
using novamd::core::IdIndexMap;
using novamd::core::InputError;
using novamd::core::Topology;
using Ids = std::vector<std::int32_t>;
using Pairs = std::vector<std::array<std::int32_t, 2>>;

/// A topology of n particles with the given bonds, all of type 0.
Topology with_bonds(std::int32_t n, const std::vector<std::pair<int, int>>& bonds) {
  Topology t(n);
  for (const auto& [i, j] : bonds) t.add_bond({0, {i, j}});
  return t;
}

Ids row(const ExclusionLists& lists, std::int32_t id) {
  const auto r = lists.of(id);
  return Ids(r.begin(), r.end());
}

/// Pairs (i < j) at separation 1..k: half the entries of the full rows.
std::size_t pair_count(const Topology& t, int k) {
  return t.exclusions(k).ids.size() / 2;
}

/// The message of the InputError that `action` throws ("" and a failure if none).
std::string input_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

/// Expects every one of `parts` in `message`.
void expect_mentions(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

// n-butane, all atoms: carbons 0-1-2-3; hydrogens 4,5,6 on C0, 7,8 on C1, 9,10 on C2, 11,12,13
// on C3. 13 bonds, given out of order and one of them reversed.
Topology butane() {
  return with_bonds(14, {{2, 3},
                         {0, 4},
                         {1, 0},
                         {0, 5},
                         {0, 6},
                         {1, 7},
                         {1, 8},
                         {1, 2},
                         {2, 9},
                         {2, 10},
                         {3, 11},
                         {12, 3},
                         {3, 13}});
}

TEST(Topology, ButaneCountsBySeparation) {
  const Topology t = butane();
  // 1-2: the 13 bonds. 1-3: C(deg, 2) per vertex; the four carbons have 4 neighbours each,
  // 6 pairs each, 24 in all. 1-4: 3 x 3 across each of the three C-C bonds, 27 (no rings, so
  // every dihedral's ends are a distinct 1-4 pair).
  EXPECT_EQ(pair_count(t, 1), 13u);
  EXPECT_EQ(pair_count(t, 2), 13u + 24u);
  EXPECT_EQ(pair_count(t, 3), 13u + 24u + 27u);
  EXPECT_EQ(t.pairs_14().size(), 27u);
  EXPECT_EQ(t.exclusions(0).ids.size(), 0u);
  EXPECT_EQ(t.exclusions(0).offsets, Ids(15, 0));
}

TEST(Topology, ButaneExactMembers) {
  const Topology t = butane();
  const ExclusionLists x3 = t.exclusions(3);
  ASSERT_EQ(x3.offsets.size(), 15u);
  EXPECT_EQ(x3.offsets.front(), 0);
  EXPECT_EQ(x3.offsets.back(), 128);  // 2 x 64 pairs
  // C1: bonded to 0, 2, 7, 8; through them 4, 5, 6 and 3, 9, 10; through C3 11, 12, 13: all
  // but itself.
  EXPECT_EQ(row(x3, 1), (Ids{0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  // H4: C0; then C1, H5, H6; then C2, H7, H8.
  EXPECT_EQ(row(x3, 4), (Ids{0, 1, 2, 5, 6, 7, 8}));
  EXPECT_EQ(row(t.exclusions(2), 4), (Ids{0, 1, 5, 6}));
  EXPECT_EQ(row(t.exclusions(1), 4), (Ids{0}));
  // H11: C3; then C2, H12, H13; then C1, H9, H10.
  EXPECT_EQ(row(x3, 11), (Ids{1, 2, 3, 9, 10, 12, 13}));
  EXPECT_TRUE(x3.contains(4, 8));
  EXPECT_TRUE(x3.contains(8, 4));
  EXPECT_FALSE(x3.contains(4, 9));  // H4-C0-C1-C2-H9: 4 bonds
  // Across C0-C1: {4,5,6} x {2,7,8}; across C1-C2: {0,7,8} x {3,9,10}; across C2-C3:
  // {1,9,10} x {11,12,13}; each as (low, high), sorted.
  EXPECT_EQ(t.pairs_14(), (Pairs{{0, 3},  {0, 9},  {0, 10}, {1, 11},  {1, 12},  {1, 13}, {2, 4},
                                 {2, 5},  {2, 6},  {3, 7},  {3, 8},   {4, 7},   {4, 8},  {5, 7},
                                 {5, 8},  {6, 7},  {6, 8},  {7, 9},   {7, 10},  {8, 9},  {8, 10},
                                 {9, 11}, {9, 12}, {9, 13}, {10, 11}, {10, 12}, {10, 13}}));
}

// A chain 0-1-2-3-4-5: 1-5 and 1-6 pairs stay out of the lists.
TEST(Topology, ChainStopsAtThreeBonds) {
  const ExclusionLists x = with_bonds(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}).exclusions(3);
  // Rows 0: 1,2,3 | 1: 0,2,3,4 | 2: 0,1,3,4,5 | 3: 0,1,2,4,5 | 4: 1,2,3,5 | 5: 2,3,4.
  EXPECT_EQ(x.offsets, (Ids{0, 3, 7, 12, 17, 21, 24}));
  EXPECT_EQ(x.ids, (Ids{1, 2, 3, 0, 2, 3, 4, 0, 1, 3, 4, 5, 0, 1, 2, 4, 5, 1, 2, 3, 5, 2, 3, 4}));
}

// The span bounds |i - j| over excluded pairs: the chain's 3 at separation 3, 1 at separation
// 1; a bond between far ids widens it; none without bonds. A pair further apart than the span is
// never in a row, so the lists' filter (neighbors::ExclusionView::span) drops nothing.
TEST(Topology, ExclusionSpanIsTheWidestExcludedPair) {
  const Topology chain = with_bonds(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
  EXPECT_EQ(chain.exclusions(3).span(), 3);
  EXPECT_EQ(chain.exclusions(1).span(), 1);
  EXPECT_EQ(with_bonds(9, {{0, 1}, {1, 8}}).exclusions(2).span(), 8);
  EXPECT_EQ(with_bonds(4, {}).exclusions(3).span(), 0);
  const ExclusionLists x = chain.exclusions(3);
  for (std::int32_t i = 0; i < 6; ++i)
    for (std::int32_t j = 0; j < 6; ++j)
      if (std::abs(i - j) > x.span()) EXPECT_FALSE(x.contains(i, j)) << i << " " << j;
}

// Cyclobutane's carbons 0-1-2-3-0: 0-1-2-3 is a path of 3 bonds, but 0 and 3 are bonded, so
// they are 1-2; every pair is within 2 bonds and there is no 1-4 pair.
TEST(Topology, FourRingHasNoOneFourPairs) {
  const Topology t = with_bonds(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  EXPECT_TRUE(t.pairs_14().empty());
  EXPECT_EQ(pair_count(t, 1), 4u);
  EXPECT_EQ(pair_count(t, 2), 6u);  // all 4 x 3 / 2 pairs
  EXPECT_EQ(row(t.exclusions(1), 0), (Ids{1, 3}));
}

// A 5-ring 0-1-2-3-4-0: the longest shortest path is 2 bonds (0-3 via 4), so the five paths of
// 3 bonds (0-1-2-3, ...) all join 1-3 pairs: no 1-4 pairs, and 1..2 already excludes all pairs.
TEST(Topology, FiveRingHasNoOneFourPairs) {
  const Topology t = with_bonds(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  EXPECT_TRUE(t.pairs_14().empty());
  EXPECT_EQ(pair_count(t, 1), 5u);
  EXPECT_EQ(pair_count(t, 2), 10u);  // 5 x 4 / 2: every pair
  EXPECT_EQ(pair_count(t, 3), 10u);
  EXPECT_EQ(row(t.exclusions(1), 0), (Ids{1, 4}));
  EXPECT_EQ(row(t.exclusions(2), 0), (Ids{1, 2, 3, 4}));
}

// A 6-ring 0..5: the opposite pairs (0,3), (1,4), (2,5) are 3 bonds apart both ways round; each
// is one 1-4 pair, listed once.
TEST(Topology, SixRingOppositePairsAreOneFourOnce) {
  const Topology t = with_bonds(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}});
  EXPECT_EQ(t.pairs_14(), (Pairs{{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_EQ(pair_count(t, 1), 6u);
  EXPECT_EQ(pair_count(t, 2), 12u);
  EXPECT_EQ(pair_count(t, 3), 15u);  // every pair
  EXPECT_EQ(row(t.exclusions(2), 0), (Ids{1, 2, 4, 5}));
}

// Benzene: carbons 0..5 in a ring, hydrogen 6 + m on carbon m. Separations: C-C the ring
// distance d; C-H(m) d(c, m) + 1; H(m)-H(n) d(m, n) + 2.
TEST(Topology, BenzeneShortestPaths) {
  const Topology t = with_bonds(12, {{0, 1},
                                     {1, 2},
                                     {2, 3},
                                     {3, 4},
                                     {4, 5},
                                     {5, 0},
                                     {0, 6},
                                     {1, 7},
                                     {2, 8},
                                     {3, 9},
                                     {4, 10},
                                     {5, 11}});
  // 1-2: 12 bonds. 1-3: C-C at d = 2 (6) and each H with the 2 carbons next to its own (12).
  // 1-4: C-C at d = 3 (3), each H with the 2 carbons at d = 2 from its own (12), H-H on
  // neighbouring carbons (6).
  EXPECT_EQ(pair_count(t, 1), 12u);
  EXPECT_EQ(pair_count(t, 2), 12u + 18u);
  EXPECT_EQ(pair_count(t, 3), 12u + 18u + 21u);
  // C-C: (0,3) (1,4) (2,5). C-H: H6 with C2, C4; H7 with C3, C5; H8 with C4, C0; H9 with C5, C1;
  // H10 with C0, C2; H11 with C1, C3. H-H: (6,7) (7,8) (8,9) (9,10) (10,11) (6,11).
  EXPECT_EQ(t.pairs_14(), (Pairs{{0, 3}, {0, 8},  {0, 10}, {1, 4},  {1, 9}, {1, 11}, {2, 5},
                                 {2, 6}, {2, 10}, {3, 7},  {3, 11}, {4, 6}, {4, 8},  {5, 7},
                                 {5, 9}, {6, 7},  {6, 11}, {7, 8},  {8, 9}, {9, 10}, {10, 11}}));
  const ExclusionLists x = t.exclusions(3);
  // C0: 1, 5, 6; then 2, 4, 7, 11; then 3, 8, 10 (H9, on the opposite carbon, is 4 away).
  EXPECT_EQ(row(x, 0), (Ids{1, 2, 3, 4, 5, 6, 7, 8, 10, 11}));
  // H6: C0; then C1, C5; then C2, C4, H7, H11.
  EXPECT_EQ(row(x, 6), (Ids{0, 1, 2, 4, 5, 7, 11}));
}

// A bond given twice (as some files list a bond once per bond type) is one edge of the graph.
TEST(Topology, RepeatedBondIsOneEdge) {
  const Topology t = with_bonds(3, {{0, 1}, {1, 0}, {1, 2}});
  EXPECT_EQ(t.bonds().size(), 3u);  // the terms are kept as given
  EXPECT_EQ(row(t.exclusions(1), 1), (Ids{0, 2}));
  EXPECT_EQ(row(t.exclusions(2), 0), (Ids{1, 2}));
}

TEST(Topology, TermsKeepTheirOrderInFlatArrays) {
  Topology t(5);
  t.add_bond({2, {3, 1}});
  t.add_bond({0, {0, 2}});
  t.add_angle({1, {4, 0, 2}});
  t.add_dihedral({3, {0, 1, 2, 3}});
  t.add_improper({2, {2, 0, 1, 3}});
  EXPECT_EQ(t.bonds().ids, (Ids{3, 1, 0, 2}));  // stride 2, order within each bond kept
  EXPECT_EQ(t.bonds().type, (Ids{2, 0}));
  EXPECT_EQ(t.bonds()[1], (Bond{0, {0, 2}}));
  EXPECT_EQ(t.angles().ids, (Ids{4, 0, 2}));
  EXPECT_EQ(t.dihedrals().ids, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(t.impropers().ids, (Ids{2, 0, 1, 3}));
  EXPECT_EQ(t.impropers().type, (Ids{2}));
  EXPECT_EQ(t.particle_count(), 5);
}

// Molecules {1,3,6} and {0,4,5} and the isolated particle 2. Numbered by lowest id: {0,4,5} is
// molecule 0, {1,3,6} molecule 1, {2} molecule 2, whatever the order of the bonds.
TEST(Topology, MoleculesNumberedByLowestId) {
  const auto m = with_bonds(7, {{6, 3}, {3, 1}, {5, 4}, {0, 5}}).molecules();
  EXPECT_EQ(m.count, 3);
  EXPECT_EQ(m.of_id, (Ids{0, 1, 2, 1, 0, 0, 1}));
  EXPECT_EQ(m.molecule_of(2), 2);
  EXPECT_EQ(m.molecule_of(6), 1);
}

TEST(Topology, WithoutBondsEveryParticleIsAMolecule) {
  const Topology t(4);
  EXPECT_EQ(t.molecules().of_id, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(t.molecules().count, 4);
  EXPECT_EQ(t.exclusions(3).offsets, (Ids{0, 0, 0, 0, 0}));
  EXPECT_TRUE(t.pairs_14().empty());
  EXPECT_EQ(Topology().exclusions(3).offsets, (Ids{0}));  // no particles
}

TEST(Topology, OutOfRangeIdsAreInputErrors) {
  Topology t(4);
  expect_mentions(input_error([&] {
                    t.add_bond({0, {1, 4}});
                  }),
                  {"bond 0", "particle id 4", "out of range", "0 to 3", "4 particles"});
  expect_mentions(input_error([&] { t.add_bond({0, {-1, 2}}); }), {"bond 0", "particle id -1"});
  t.add_dihedral({0, {0, 1, 2, 3}});
  t.add_dihedral({0, {3, 2, 1, 0}});
  // The third dihedral is dihedral 2.
  expect_mentions(input_error([&] {
                    t.add_dihedral({0, {0, 1, 2, 7}});
                  }),
                  {"dihedral 2", "particle id 7", "out of range"});
  EXPECT_EQ(t.bonds().size(), 0u);  // rejected terms are not added
  EXPECT_EQ(t.dihedrals().size(), 2u);
  EXPECT_EQ(t.dihedrals().ids.size(), 8u);
}

TEST(Topology, RepeatedIdsAndBadTypesAreInputErrors) {
  Topology t(4);
  expect_mentions(input_error([&] {
                    t.add_bond({0, {2, 2}});
                  }),
                  {"bond 0", "particle id 2", "appears twice", "2 distinct ids"});
  expect_mentions(input_error([&] {
                    t.add_angle({0, {1, 3, 1}});
                  }),
                  {"angle 0", "particle id 1", "appears twice", "3 distinct ids"});
  t.add_improper({0, {0, 1, 2, 3}});
  expect_mentions(input_error([&] {
                    t.add_improper({0, {0, 1, 3, 3}});
                  }),
                  {"improper 1", "particle id 3", "appears twice", "4 distinct ids"});
  expect_mentions(input_error([&] {
                    t.add_bond({-2, {0, 1}});
                  }),
                  {"bond 0", "type -2", "negative"});
  expect_mentions(input_error([] { Topology(-1); }), {"particle count -1", "negative"});
  expect_mentions(input_error([&] { t.exclusions(4); }), {"separation 4", "0 (none) to 3"});
  EXPECT_THROW(t.exclusions(-1), InputError);
  EXPECT_EQ(t.bonds().size(), 0u);
  EXPECT_EQ(t.angles().size(), 0u);
  EXPECT_EQ(t.impropers().size(), 1u);
}

TEST(IdIndexMap, FollowsAPermutation) {
  IdIndexMap map;
  const Ids stored{3, 0, 4, 1, 2};  // storage index k holds id stored[k]
  map.rebuild(stored.data(), stored.size());
  ASSERT_EQ(map.size(), 5u);
  // id 0 at k = 1, id 1 at 3, id 2 at 4, id 3 at 0, id 4 at 2.
  EXPECT_EQ(map.indices(), (Ids{1, 3, 4, 0, 2}));
  EXPECT_EQ(map.index_of(3), 0);
  EXPECT_EQ(map.index_of(2), 4);
}

// A bond between ids 1 and 3 finds its particles after the store is reordered.
TEST(IdIndexMap, FindsBondedParticlesAfterReordering) {
  novamd::core::ParticleData p;
  p.resize(4);
  for (int k = 0; k < 4; ++k) {
    p.id[k] = k;
    p.position.x[k] = 10.0 * k;  // id k at x = 10 k
  }
  novamd::core::permute(p, std::vector<int>{2, 3, 0, 1});  // now ids 2, 3, 0, 1
  IdIndexMap map;
  map.rebuild(p.id.data(), p.size());
  Topology t(4);
  t.add_bond({0, {1, 3}});
  const auto bond = t.bonds()[0];
  EXPECT_EQ(map.index_of(bond.ids[0]), 3);  // id 1 is stored last
  EXPECT_EQ(map.index_of(bond.ids[1]), 1);
  EXPECT_EQ(p.position.x[map.index_of(bond.ids[0])], 10.0);
  EXPECT_EQ(p.position.x[map.index_of(bond.ids[1])], 30.0);
}

TEST(IdIndexMap, RejectsRepeatedAndOutOfRangeIds) {
  IdIndexMap map;
  const Ids repeated{0, 2, 1, 2};
  expect_mentions(input_error([&] { map.rebuild(repeated.data(), repeated.size()); }),
                  {"id 2", "storage indices 1 and 3", "each id once"});
  EXPECT_EQ(map.size(), 0u);  // left empty
  const Ids too_big{0, 3, 1};
  expect_mentions(input_error([&] { map.rebuild(too_big.data(), too_big.size()); }),
                  {"id 3", "storage index 1", "out of range", "0 to 2"});
  const Ids negative{0, -1};
  expect_mentions(input_error([&] { map.rebuild(negative.data(), negative.size()); }),
                  {"id -1", "storage index 1"});
  map.rebuild(nullptr, 0);
  EXPECT_EQ(map.size(), 0u);
}

}  // namespace
