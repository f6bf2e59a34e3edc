// What a partition over spatial bricks keeps together (backend/brick_groups.hpp), without MPI:
// - bonded_partners: every pair of a term's members, both ways, once, from every term list
//   (an angle whose ends are bonded to nothing counts: a coarse-grained topology's);
// - check_partners_within_halo: a partner across the periodic face within the halo passes, one
//   beyond it ends the run naming both ids and the distance, and partners of particles outside
//   the owned range are not checked;
// - constraint_anchors: each particle's anchor slot, and the farthest any particle lies from its
//   anchor under the minimum image.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "novamd/backend/brick_groups.hpp"
#include "novamd/core/error.hpp"

namespace {

using novamd::backend::bonded_partners;
using novamd::backend::check_partners_within_halo;
using novamd::core::Box;
using novamd::core::ParticleData;

ParticleData particles_at(const std::vector<novamd::core::Vec3<double>>& r) {
  ParticleData p;
  p.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    p.position.set(i, r[i]);
    p.id[i] = static_cast<std::int32_t>(i);
  }
  return p;
}

std::vector<std::int32_t> row(const novamd::core::ExclusionLists& lists, std::int32_t id) {
  const auto r = lists.of(id);
  return {r.begin(), r.end()};
}

TEST(BrickGroups, BondedPartnersHoldEveryTermsMembersOnce) {
  novamd::core::Topology t(6);
  t.add_bond({0, {0, 1}});
  t.add_angle({0, {0, 1, 2}});  // 0-1 twice: once in the row
  t.add_angle({0, {3, 4, 5}});  // no bonds among 3, 4, 5: partners all the same
  const auto found = bonded_partners(t);
  ASSERT_TRUE(found.has_value());
  const auto& partners = *found;
  EXPECT_EQ(row(partners, 0), (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(row(partners, 1), (std::vector<std::int32_t>{0, 2}));
  EXPECT_EQ(row(partners, 3), (std::vector<std::int32_t>{4, 5}));
  EXPECT_EQ(row(partners, 5), (std::vector<std::int32_t>{3, 4}));
  EXPECT_FALSE(bonded_partners(novamd::core::Topology(3)).has_value());  // no terms: nothing
}

TEST(BrickGroups, PartnersBeyondTheHaloEndTheRunNamingThem) {
  const Box box(10.0, 10.0, 10.0);
  novamd::core::Topology t(4);
  t.add_bond({0, {0, 1}});      // across the x face: 1.0 apart under the minimum image
  t.add_angle({0, {1, 2, 3}});  // 2 and 3 lie 4.0 apart, 1 and 3 4.03
  const auto partners = *bonded_partners(t);
  const auto p = particles_at({{0.5, 5, 5}, {9.5, 5, 5}, {9.0, 5, 5}, {9.0, 9.0, 5}});
  EXPECT_NO_THROW(check_partners_within_halo(p, partners, {0, 1}, box, 3.0));
  EXPECT_NO_THROW(check_partners_within_halo(p, partners, {0, 4}, box, 4.5));
  try {
    check_partners_within_halo(p, partners, {2, 4}, box, 3.0);
    FAIL() << "a partner 4 apart passed a halo of 3";
  } catch (const novamd::core::RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("particles 2 and 3"), std::string::npos) << what;
    EXPECT_NE(what.find("4 apart"), std::string::npos) << what;
  }
}

TEST(BrickGroups, AnchorsNameTheGroupsFirstSlotAndTheirReach) {
  const Box box(10.0, 10.0, 10.0);
  // Storage order 2, 0, 1: ids 1 and 2 anchored at id 0 (slot 1).
  const std::vector<std::int32_t> id{2, 0, 1};
  const std::vector<std::int32_t> anchor_of_id{0, 0, 0};
  ParticleData p = particles_at({{9.0, 5, 5}, {0.5, 5, 5}, {1.5, 5, 5}});
  const auto [anchor, reach] =
      novamd::backend::constraint_anchors(id, anchor_of_id, p.position, box);
  EXPECT_EQ(anchor, (std::vector<std::size_t>{1, 1, 1}));
  EXPECT_DOUBLE_EQ(reach, 1.5);  // slot 0 at 9.0 lies 1.5 from 0.5 across the face
}

}  // namespace
