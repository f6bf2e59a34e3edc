// A constraint plan held on host particles (constraints/host_constraints.hpp), on fresh random
// input: rigid waters and methyl-like hydrogen clusters scattered over a box (some across its
// periodic faces, in a shuffled storage order), moved by a random drift. After the drift every
// held distance is within the tolerance (SHAKE) or exact to round-off (SETTLE), the positions
// are wrapped into the box with the images crossed counted, the velocities have moved by the
// same displacements over dt, and no particle moves along a constraint; the total momentum is kept
// and the kinetic-energy change counts as heat where asked. The virial of the instantaneous
// constraint forces, on a rigid C-H pair rotating freely, is the centripetal one, r . G = -mu u^2
// (mu the reduced mass, u the relative speed), and on a pair at rest pulled apart by F it is -d F.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "novamd/constraints/host_constraints.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"

namespace {

using novamd::constraints::ConstraintPlan;
using novamd::constraints::HostConstraints;
using novamd::constraints::HydrogenCluster;
using novamd::constraints::RigidWater;
using novamd::core::Vec3;

constexpr double kOH = 1.0, kCH = 1.09, kMassO = 15.9994, kMassC = 12.011, kMassH = 1.008;
const double kHH = 2.0 * kOH * std::sin(0.5 * 109.47 * std::numbers::pi / 180.0);  // SPC/E
constexpr double kTolerance = 1e-10;

struct Scene {
  novamd::core::Box box{20.0, 22.0, 24.0};
  novamd::core::ParticleData particles;
  ConstraintPlan plan;
  std::vector<double> inverse_mass{1.0 / kMassO, 1.0 / kMassH, 1.0 / kMassC};  // types 0, 1, 2
};

Vec3<double> get(const novamd::core::ParticleData& p, std::size_t i) {
  return {p.position.x[i], p.position.y[i], p.position.z[i]};
}
Vec3<double> velocity(const novamd::core::ParticleData& p, std::size_t i) {
  return {p.velocity.x[i], p.velocity.y[i], p.velocity.z[i]};
}

/// 40 waters and 30 clusters of a carbon with 1 to 4 hydrogens, in their rigid geometry with
/// random orientations, near random points (positions wrapped into the box), random velocities
/// that satisfy no constraint, stored in a shuffled order.
Scene make_scene(std::mt19937_64& rng) {
  Scene s;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto direction = [&] {
    const Vec3<double> v{normal(rng), normal(rng), normal(rng)};
    return (1.0 / std::sqrt(dot(v, v))) * v;
  };
  std::vector<Vec3<double>> x;
  std::vector<int> type;
  const auto centre = [&] {
    const auto& L = s.box.length();
    return Vec3<double>{L.x * unit(rng), L.y * unit(rng), L.z * unit(rng)};
  };
  for (int w = 0; w < 40; ++w) {
    const Vec3<double> o = centre(), a = direction();
    Vec3<double> b = direction();
    b = b - dot(a, b) * a;
    b = (1.0 / std::sqrt(dot(b, b))) * b;  // perpendicular to a
    const double half = 0.5 * 109.47 * std::numbers::pi / 180.0;
    const std::int32_t id = std::int32_t(x.size());
    x.push_back(o);
    x.push_back(o + kOH * (std::cos(half) * a + std::sin(half) * b));
    x.push_back(o + kOH * (std::cos(half) * a - std::sin(half) * b));
    type.insert(type.end(), {0, 1, 1});
    s.plan.waters.push_back(RigidWater{id, id + 1, id + 2, {kOH, kHH, kMassO, kMassH}});
  }
  for (int c = 0; c < 30; ++c) {
    HydrogenCluster cluster;
    cluster.central = std::int32_t(x.size());
    cluster.count = 1 + c % 4;
    const Vec3<double> carbon = centre();
    x.push_back(carbon);
    type.push_back(2);
    for (int h = 0; h < cluster.count; ++h) {
      cluster.hydrogen[h] = std::int32_t(x.size());
      cluster.length[h] = kCH;
      x.push_back(carbon + kCH * direction());
      type.push_back(1);
    }
    s.plan.clusters.push_back(cluster);
  }
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  auto& p = s.particles;
  p.resize(x.size());
  p.enable(p.image);
  const auto view = s.box.view<double>();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t id = order[k];
    Vec3<std::int32_t> image{0, 0, 0};
    p.position.set(k, view.wrap(x[id], image));
    p.image.set(k, image);
    p.velocity.set(k, {0.01 * normal(rng), 0.01 * normal(rng), 0.01 * normal(rng)});
    p.type[k] = type[id];
    p.id[k] = std::int32_t(id);
  }
  return s;
}

/// The storage index of each id.
std::vector<std::size_t> index_of(const novamd::core::ParticleData& p) {
  std::vector<std::size_t> index(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) index[std::size_t(p.id[i])] = i;
  return index;
}

/// Every held pair of the plan (ids) and its length.
struct Held {
  std::int32_t i, j;
  double length;
};
std::vector<Held> held_pairs(const ConstraintPlan& plan) {
  std::vector<Held> pairs;
  for (const auto& w : plan.waters)
    pairs.insert(pairs.end(), {{w.o, w.h1, kOH}, {w.o, w.h2, kOH}, {w.h1, w.h2, kHH}});
  for (const auto& c : plan.clusters)
    for (int h = 0; h < c.count; ++h) pairs.push_back({c.central, c.hydrogen[h], c.length[h]});
  return pairs;
}

Vec3<double> momentum(const Scene& s) {
  Vec3<double> sum{0, 0, 0};
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    sum += (1.0 / s.inverse_mass[std::size_t(s.particles.type[i])]) * velocity(s.particles, i);
  return sum;
}

/// A drift's start `before`, kept where `constraints` reads it (as a backend's drift keeps it).
void keep_before_drift(HostConstraints& constraints, const std::vector<Vec3<double>>& before) {
  const auto kept = constraints.positions_before_drift(before.size());
  for (std::size_t i = 0; i < before.size(); ++i) kept.set(static_cast<int>(i), before[i]);
}

TEST(HostConstraints, DriftKeepsEveryDistanceAndLeavesNoVelocityAlongOne) {
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    Scene s = make_scene(rng);
    HostConstraints constraints(s.plan, kTolerance);
    constraints.locate(s.particles);
    EXPECT_EQ(constraints.constraint_count(), 40u * 3 + 73u);  // 30 clusters of 1, 2, 3, 4, ... H
    auto& p = s.particles;
    const auto view = s.box.view<double>();
    // A drift: every particle moved by dt v, v random (as after a kick), wrapped.
    const double dt = 0.5;
    std::vector<Vec3<double>> before(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      before[i] = get(p, i);
      const Vec3<double> v{0.05 * normal(rng), 0.05 * normal(rng), 0.05 * normal(rng)};
      p.velocity.set(i, v);
      Vec3<std::int32_t> image = p.image.get(i);
      p.position.set(i, view.wrap(before[i] + dt * v, image));
      p.image.set(i, image);
    }
    const auto drifted = p;
    keep_before_drift(constraints, before);
    constraints.after_drift(p, dt, view, s.inverse_mass, true);
    const auto index = index_of(p);
    for (const auto& h : held_pairs(s.plan)) {
      const std::size_t i = index[std::size_t(h.i)], j = index[std::size_t(h.j)];
      const Vec3<double> d = view.minimum_image(get(p, i) - get(p, j));
      // SHAKE: within the tolerance of the length; SETTLE exact (1e-12 of it, round-off).
      EXPECT_NEAR(std::sqrt(dot(d, d)), h.length, kTolerance * h.length * 1.01) << trial;
      const Vec3<double> dv = velocity(p, i) - velocity(p, j);
      EXPECT_LT(std::abs(dot(d, dv)), 1e-12) << trial;  // no motion along the constraint
    }
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Vec3<double> x = get(p, i);
      ASSERT_GE(x.x, 0.0);
      ASSERT_LT(x.x, s.box.length().x);
      // The unwrapped position and the velocity moved by the same displacement over dt (before
      // the velocity condition, which only the velocities see: compared through the unwrapped
      // positions, the images counted).
      const auto& L = s.box.length();
      const Vec3<double> unwrapped{x.x + L.x * p.image.x[i], x.y + L.y * p.image.y[i],
                                   x.z + L.z * p.image.z[i]};
      const Vec3<double> old{drifted.position.x[i] + L.x * drifted.image.x[i],
                             drifted.position.y[i] + L.y * drifted.image.y[i],
                             drifted.position.z[i] + L.z * drifted.image.z[i]};
      const Vec3<double> moved = unwrapped - old;
      ASSERT_LT(std::sqrt(dot(moved, moved)), 0.5) << i;  // a correction, not an image jump
    }
  }
}

// A drift that leaves the velocity condition to the next kick (integrate::VelocityCondition::
// Deferred) ends that kick with the velocities of one that applied it: RATTLE's projection at the
// same positions is linear and idempotent. The positions do not depend on it at all.
TEST(HostConstraints, AVelocityConditionLeftToTheNextKickGivesTheSameVelocities) {
  std::mt19937_64 rng(17);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Scene s = make_scene(rng);
    auto& p = s.particles;
    const auto view = s.box.view<double>();
    const double dt = 0.5;
    std::vector<Vec3<double>> before(p.size()), kick(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      before[i] = get(p, i);
      p.velocity.set(i, {0.05 * normal(rng), 0.05 * normal(rng), 0.05 * normal(rng)});
      Vec3<std::int32_t> image = p.image.get(i);
      p.position.set(i, view.wrap(before[i] + dt * velocity(p, i), image));
      p.image.set(i, image);
      kick[i] = {0.01 * normal(rng), 0.01 * normal(rng), 0.01 * normal(rng)};
    }
    const auto drift_then_kick = [&](bool velocity_condition, bool check_deferred) {
      novamd::core::ParticleData q = p;
      HostConstraints constraints(s.plan, kTolerance);
      constraints.locate(q);
      keep_before_drift(constraints, before);
      constraints.after_drift(q, dt, view, s.inverse_mass, velocity_condition);
      if (check_deferred) {  // some held pair still moves along itself
        double along = 0.0;
        const auto index = index_of(q);
        for (const auto& h : held_pairs(s.plan)) {
          const std::size_t i = index[std::size_t(h.i)], j = index[std::size_t(h.j)];
          const Vec3<double> d = view.minimum_image(get(q, i) - get(q, j));
          along = std::max(along, std::abs(dot(d, velocity(q, i) - velocity(q, j))));
        }
        EXPECT_GT(along, 1e-6);
      }
      for (std::size_t i = 0; i < q.size(); ++i) {
        q.velocity.set(i, velocity(q, i) + kick[i]);
      }
      constraints.constrain_velocities(q, view, s.inverse_mass);
      return q;
    };
    const auto applied = drift_then_kick(true, false);
    const auto deferred = drift_then_kick(false, true);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Vec3<double> dx = get(applied, i) - get(deferred, i);
      EXPECT_EQ(dot(dx, dx), 0.0) << i;
      // Speeds of order 0.1; the two projections round differently (some ulps of 0.1).
      const Vec3<double> dv = velocity(applied, i) - velocity(deferred, i);
      EXPECT_LT(std::sqrt(dot(dv, dv)), 1e-14) << i;
    }
  }
}

TEST(HostConstraints, VelocityConditionKeepsMomentumAndCountsItsHeat) {
  std::mt19937_64 rng(7);
  Scene s = make_scene(rng);
  HostConstraints constraints(s.plan, kTolerance);
  constraints.locate(s.particles);
  const auto view = s.box.view<double>();
  const Vec3<double> p0 = momentum(s);
  double kinetic0 = 0.0;
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    kinetic0 += 0.5 * dot(velocity(s.particles, i), velocity(s.particles, i)) /
                s.inverse_mass[std::size_t(s.particles.type[i])];
  std::vector<double> heat(s.particles.size(), 0.0);
  constraints.constrain_velocities(s.particles, view, s.inverse_mass, heat.data());
  const Vec3<double> p1 = momentum(s);
  EXPECT_NEAR(p1.x, p0.x, 1e-14);
  EXPECT_NEAR(p1.y, p0.y, 1e-14);
  EXPECT_NEAR(p1.z, p0.z, 1e-14);
  double kinetic1 = 0.0;
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    kinetic1 += 0.5 * dot(velocity(s.particles, i), velocity(s.particles, i)) /
                s.inverse_mass[std::size_t(s.particles.type[i])];
  const double counted = std::accumulate(heat.begin(), heat.end(), 0.0);
  EXPECT_LT(kinetic1, kinetic0);  // the motion along the bonds is gone
  EXPECT_NEAR(kinetic1 - kinetic0, counted, 1e-14 * kinetic0);
}

TEST(HostConstraints, ConstraintVirialIsCentripetalAndBalancesPullingForces) {
  // One C-H pair in a large box, the hydrogen moving at u perpendicular to the bond, no force:
  // velocity Verlet's B/2 A F B/2 with RATTLE, 0.05 rad of rotation a step. The constraint force
  // at each step is the centripetal one: r . G = -mu u^2 (u the relative speed now).
  ConstraintPlan plan;
  HydrogenCluster ch;
  ch.central = 0;
  ch.count = 1;
  ch.hydrogen[0] = 1;
  ch.length[0] = kCH;
  plan.clusters.push_back(ch);
  novamd::core::Box box(50.0, 50.0, 50.0);
  const auto view = box.view<double>();
  novamd::core::ParticleData p;
  p.resize(2);
  p.type = {2, 1};
  p.id = {0, 1};
  const double u = 0.02;  // A/fs
  p.position.x = {25.0, 25.0 + kCH};
  p.position.y = {25.0, 25.0};
  p.position.z = {25.0, 25.0};
  p.velocity.x = {0.0, 0.0};
  p.velocity.y = {-u * kMassH / (kMassC + kMassH), u * kMassC / (kMassC + kMassH)};
  p.velocity.z = {0.0, 0.0};
  const std::vector<double> inverse_mass{1.0 / kMassO, 1.0 / kMassH, 1.0 / kMassC};
  HostConstraints constraints(plan, 1e-12);
  constraints.locate(p);
  const double dt = 0.05 * kCH / u;
  const double mu = kMassC * kMassH / (kMassC + kMassH);
  for (int step = 0; step < 200; ++step) {
    constraints.constrain_velocities(p, view, inverse_mass);
    const std::vector<Vec3<double>> before{get(p, 0), get(p, 1)};
    for (int i = 0; i < 2; ++i) {
      p.position.x[i] += dt * p.velocity.x[i];
      p.position.y[i] += dt * p.velocity.y[i];
      p.position.z[i] += dt * p.velocity.z[i];
    }
    keep_before_drift(constraints, before);
    constraints.after_drift(p, dt, view, inverse_mass, true);
    constraints.constrain_velocities(p, view, inverse_mass);
    const Vec3<double> relative = velocity(p, 1) - velocity(p, 0);
    const double expected = -mu * dot(relative, relative);
    ASSERT_NEAR(constraints.virial(p, view, inverse_mass).trace(), expected,
                1e-12 * std::abs(expected))
        << step;
    ASSERT_NEAR(std::abs(expected), mu * u * u, 0.01 * mu * u * u) << step;  // u kept
    const Vec3<double> d = get(p, 1) - get(p, 0);
    ASSERT_NEAR(std::sqrt(dot(d, d)), kCH, 1e-11) << step;
  }
  // At rest, forces pulling the pair apart along its bond: the constraint force balances them,
  // G = -F on each, and r_H . G_H = -d F (the carbon at the origin of the pair's frame).
  p.velocity.x = {0.0, 0.0};
  p.velocity.y = {0.0, 0.0};
  const Vec3<double> d = get(p, 1) - get(p, 0);
  const Vec3<double> pull = (3.0 / std::sqrt(dot(d, d))) * d;  // 3 force units along the bond
  p.force.x = {-pull.x, pull.x};
  p.force.y = {-pull.y, pull.y};
  p.force.z = {-pull.z, pull.z};
  EXPECT_NEAR(constraints.virial(p, view, inverse_mass).trace(), -3.0 * std::sqrt(dot(d, d)),
              1e-12);
}

}  // namespace

// A spatial decomposition's share (keep_to): only the groups whose first particle is stored in
// the range are solved; the others keep the drifted positions exactly, and the virial counts
// the kept groups alone, so that the shares of two complementary ranges add up to the whole.
// anchors names each group's first particle for its members and each particle's own id
// otherwise.
TEST(HostConstraints, KeptRangeSolvesOnlyItsGroupsAndAnchorsNameTheirFirstParticle) {
  std::mt19937_64 rng(77);
  std::normal_distribution<double> normal(0.0, 1.0);
  Scene s = make_scene(rng);
  auto& p = s.particles;
  const std::size_t n = p.size();
  const auto anchor = HostConstraints(s.plan, kTolerance).anchors(n + 2);  // two free ids
  ASSERT_EQ(anchor.size(), n + 2);
  for (const auto& w : s.plan.waters) {
    EXPECT_EQ(anchor[std::size_t(w.o)], w.o);
    EXPECT_EQ(anchor[std::size_t(w.h1)], w.o);
    EXPECT_EQ(anchor[std::size_t(w.h2)], w.o);
  }
  for (const auto& c : s.plan.clusters)
    for (int h = 0; h < c.count; ++h) EXPECT_EQ(anchor[std::size_t(c.hydrogen[h])], c.central);
  EXPECT_EQ(anchor[n], std::int32_t(n));
  EXPECT_EQ(anchor[n + 1], std::int32_t(n + 1));

  const auto view = s.box.view<double>();
  const double dt = 0.5;
  std::vector<Vec3<double>> before(n);
  for (std::size_t i = 0; i < n; ++i) {
    before[i] = get(p, i);
    p.velocity.set(i, {0.05 * normal(rng), 0.05 * normal(rng), 0.05 * normal(rng)});
    Vec3<std::int32_t> image = p.image.get(i);
    p.position.set(i, view.wrap(before[i] + dt * velocity(p, i), image));
    p.image.set(i, image);
    p.force.set(i, {normal(rng), normal(rng), normal(rng)});
  }
  const auto drifted = p;
  const std::size_t half = n / 2;
  HostConstraints whole(s.plan, kTolerance), low(s.plan, kTolerance), high(s.plan, kTolerance);
  for (auto* c : {&whole, &low, &high}) c->locate(p);
  low.keep_to(0, half);
  high.keep_to(half, n);
  auto solved = drifted;
  keep_before_drift(low, before);
  low.after_drift(solved, dt, view, s.inverse_mass, true);
  const auto index = index_of(p);
  const auto first_of = [&](std::int32_t id) {
    return index[std::size_t(anchor[std::size_t(id)])];
  };
  for (const auto& h : held_pairs(s.plan)) {
    const std::size_t i = index[std::size_t(h.i)], j = index[std::size_t(h.j)];
    const Vec3<double> d = view.minimum_image(get(solved, i) - get(solved, j));
    if (first_of(h.i) < half) {  // kept: held
      EXPECT_NEAR(std::sqrt(dot(d, d)), h.length, kTolerance * h.length * 1.01);
    } else {  // left to another rank: exactly as drifted
      for (const std::size_t k : {i, j}) {
        EXPECT_EQ(get(solved, k).x, get(drifted, k).x);
        EXPECT_EQ(velocity(solved, k).y, velocity(drifted, k).y);
      }
    }
  }
  // The virial's shares: the kept groups' sums, which add up to the whole's to round-off.
  auto at = drifted;
  const auto all = whole.virial(at, view, s.inverse_mass);
  const auto a = low.virial(at, view, s.inverse_mass);
  const auto b = high.virial(at, view, s.inverse_mass);
  for (int c = 0; c < novamd::core::kTensorComponents; ++c) {
    EXPECT_NE(a.c[c], 0.0);
    EXPECT_NE(b.c[c], 0.0);
    // Two partial sums of ~100 group terms against one: 1e-13 of the largest share covers the
    // reassociation (~100 u of each term).
    EXPECT_NEAR(a.c[c] + b.c[c], all.c[c], 1e-13 * std::max(std::abs(a.c[c]), std::abs(b.c[c])));
  }
}
