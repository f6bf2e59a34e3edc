// Ewald and smooth PME for rigid molecules' charges (forces/rigid_kspace.hpp):
// - NIST's SPC/E reference configurations (tests/data/nist-spce/README.md) as rigid molecules,
//   each of E_disp, E_Fourier, E_self and E_intra to NIST's 6 significant figures with NIST's
//   alpha = 5.6/L and wave vectors (|n_i| <= 5, n^2 < 27). E_real differs by convention: NIST
//   cuts each site pair at 10 A, the rigid term every site pair of the molecules whose centres
//   lie within 10 A (MarDyn's), which at NIST's alpha (erfc(alpha r_c) = 7.5e-5) changes E_real
//   by 94 K in cfg 1. The test sums both conventions itself: its site-pair sum reproduces NIST's
//   E_real to 6 figures, and the engine's E_real equals its centres' sum to round-off.
// - On a fluid of charged molecules (ions and three-site waters, reduced units), the forces,
//   torques and virial of Ewald and PME are the derivatives of their energies (central
//   differences), and the term over its lists gives the all-pairs oracle's forces and energy.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/random_orientation.hpp"
#include "novamd/forces/rigid_kspace.hpp"
#include "support/nist_spce.hpp"
#include "support/rigid_molecules.hpp"

namespace {

namespace core = novamd::core;
namespace forces = novamd::forces;
using V = core::Vec3<double>;
using novamd::test::half_unit_in_6th_figure;
using novamd::test::kNistCoulombKelvin;
using novamd::test::lj_site;
using novamd::test::NistConfiguration;

struct NistSpce {
  int cfg;
  double e_disp, e_real, e_fourier, e_self, e_intra;
};

// NIST's values (E/k_B in K), from its page (tests/data/nist-spce/README.md quotes the source).
constexpr NistSpce kNist[] = {
    {1, 9.95387E+04, -5.58889E+05, 6.27009E+03, -2.84469E+06, 2.80999E+06},
    {2, 1.93712E+05, -1.19295E+06, 6.03495E+03, -5.68938E+06, 5.61998E+06},
    {3, 3.54344E+05, -1.96297E+06, 5.24461E+03, -8.53407E+06, 8.42998E+06},
    {4, 4.48593E+05, -3.57226E+06, 7.58785E+03, -1.42235E+07, 1.41483E+07},
};

constexpr double kCharge[3] = {-0.8476, 0.4238, 0.4238};

/// SPC/E in its own frame: O at the origin carrying all the mass (so that the centre is O, as
/// NIST's Lennard-Jones cutoff on O-O distances needs; the inertia is given, which an energy
/// does not use), H at 1 A and 109.47 degrees in the xy plane; with its Lennard-Jones site,
/// its charges, or both.
std::array<V, 3> spce_sites() {
  const double half = 0.5 * 109.47 * std::numbers::pi / 180.0;
  return {V{0, 0, 0}, V{std::sin(half), std::cos(half), 0}, V{-std::sin(half), std::cos(half), 0}};
}

core::ResolvedComponent spce(bool lennard_jones, bool charges) {
  const auto at = spce_sites();
  core::Component c{"SPCE", {}, V{1.0, 1.0, 1.0}};
  if (lennard_jones) c.sites.push_back(lj_site(at[0], 78.19743111, 3.16555789, 15.9994));
  for (int k = 0; charges && k < 3; ++k)
    c.sites.push_back({core::SiteKind::Charge,
                       at[k],
                       {},
                       0.0,
                       0.0,
                       lennard_jones || k > 0 ? 0.0 : 15.9994,
                       kCharge[k]});
  return core::resolve_component(c);
}

/// The molecules at NIST's O positions, each turned so that its body-frame H sites (spce_sites:
/// the body frame is the frame they are given in) land on NIST's H positions.
core::ParticleData molecules_of(const NistConfiguration& c) {
  const auto view = core::Box(c.edge, c.edge, c.edge).view<double>();
  const std::size_t n = c.site.size() / 3;
  core::ParticleData p;
  p.resize(n);
  p.enable(p.orientation);
  const V b1 = spce_sites()[1], b2 = spce_sites()[2];
  const auto frame = [](const V& u1, const V& u2) {  // rows: x along u1 - u2, y along u1 + u2
    const V x = (1.0 / std::sqrt(core::dot(u1 - u2, u1 - u2))) * (u1 - u2);
    const V y = (1.0 / std::sqrt(core::dot(u1 + u2, u1 + u2))) * (u1 + u2);
    return std::array<V, 3>{x, y, core::cross(x, y)};
  };
  const auto body_axes = frame(b1, b2);
  for (std::size_t i = 0; i < n; ++i) {
    const V o = c.site[3 * i];
    const V u1 = view.minimum_image(c.site[3 * i + 1] - o),
            u2 = view.minimum_image(c.site[3 * i + 2] - o);
    const auto space_axes = frame(u1, u2);
    std::array<V, 3> rows{};  // R = S B^T: body axes onto space axes
    for (int r = 0; r < 3; ++r) {
      const double* s[3] = {&space_axes[0].x, &space_axes[1].x, &space_axes[2].x};
      for (int col = 0; col < 3; ++col) {
        double sum = 0.0;
        for (int k = 0; k < 3; ++k) sum += s[k][r] * (&body_axes[k].x)[col];
        (&rows[r].x)[col] = sum;
      }
    }
    const auto q = core::from_rotation_matrix(rows);
    p.position.set(i, o);
    p.orientation.set(i, q);
    p.type[i] = 0;
    p.id[i] = static_cast<std::int32_t>(i);
    const V h1 = core::rotate(q, b1), h2 = core::rotate(q, b2);
    EXPECT_LT(std::sqrt(core::dot(h1 - u1, h1 - u1)), 1e-5) << i;  // NIST's geometry, 1e-6 A
    EXPECT_LT(std::sqrt(core::dot(h2 - u2, h2 - u2)), 1e-5) << i;
  }
  return p;
}

/// NIST's E_real (each site pair of different molecules within r_c) and the rigid term's (every
/// site pair of the molecules whose O sites, their centres, lie within r_c), in K.
std::pair<double, double> real_space_both_ways(const NistConfiguration& c, double alpha,
                                               double rc) {
  const auto view = core::Box(c.edge, c.edge, c.edge).view<double>();
  double by_sites = 0.0, by_centres = 0.0;
  const std::size_t n = c.site.size() / 3;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const V centres = view.minimum_image(c.site[3 * i] - c.site[3 * j]);
      const bool within = core::dot(centres, centres) < rc * rc;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
          const V di = view.minimum_image(c.site[3 * i + a] - c.site[3 * i]);
          const V dj = view.minimum_image(c.site[3 * j + b] - c.site[3 * j]);
          const V through_centres = centres + di - dj;
          const V direct = view.minimum_image(c.site[3 * i + a] - c.site[3 * j + b]);
          const double qq = kNistCoulombKelvin * kCharge[a] * kCharge[b];
          const double r1 = std::sqrt(core::dot(direct, direct));
          const double r2 = std::sqrt(core::dot(through_centres, through_centres));
          if (r1 < rc) by_sites += qq * std::erfc(alpha * r1) / r1;
          if (within) by_centres += qq * std::erfc(alpha * r2) / r2;
        }
    }
  return {by_sites, by_centres};
}

forces::CoulombSettings nist_ewald(double edge) {
  forces::CoulombSettings s;
  s.method = forces::CoulombMethod::Ewald;
  s.ewald.alpha = 5.6 / edge;
  s.ewald.kmax = 5;
  s.ewald.kmax_squared = 26;
  return s;
}

/// Energy of `model`'s pairs (all pairs, minimum image) and, with `kspace`, its reciprocal part.
double energy_of(const forces::RigidModel& model, forces::CpuRigidKspace* kspace,
                 const core::ParticleData& p, const core::Box& box) {
  auto e = novamd::test::zeroed_evaluation(p.size());
  double energy = forces::add_rigid_forces(model, p, box, e.force, e.torque).energy;
  if (kspace) {
    std::vector<double> shares(p.size(), 0.0);
    forces::PlacedSites placed;
    forces::place_all(model, p, placed);
    kspace->add_to(p, placed, box, e.force, e.torque, {&shares, nullptr});
    for (double u : shares) energy += u;
  }
  return energy;
}

TEST(RigidEwaldReference, SpceWaterAsRigidMoleculesAgreesWithNist) {
  for (const NistSpce& ref : kNist) {
    SCOPED_TRACE(fmt::format("cfg {}", ref.cfg));
    const NistConfiguration c = novamd::test::read_nist_spce(ref.cfg);
    const core::Box box(c.edge, c.edge, c.edge);
    const double n = static_cast<double>(c.site.size() / 3), alpha = 5.6 / c.edge, rc = 10.0;
    const auto expect_nist = [&](const char* name, double value, double published) {
      EXPECT_NEAR(value, published, half_unit_in_6th_figure(published)) << name;
    };

    forces::RigidModelSettings settings;
    settings.coulomb_constant = kNistCoulombKelvin;
    settings.cutoff = rc;
    const auto lj = spce(true, false);
    expect_nist("E_disp",
                energy_of(forces::make_rigid_model({lj}, settings), nullptr, molecules_of(c), box),
                ref.e_disp);

    settings.kspace = nist_ewald(c.edge);
    const auto charges = spce(false, true);
    for (int k = 0; k < 3; ++k) {  // the given frame is the body frame
      const V d = charges.sites[static_cast<std::size_t>(k)].position -
                  spce_sites()[static_cast<std::size_t>(k)];
      ASSERT_LT(std::sqrt(core::dot(d, d)), 1e-15);
    }
    const auto model = forces::make_rigid_model({charges}, settings);
    EXPECT_DOUBLE_EQ(model.ewald_alpha, alpha);
    const auto p = molecules_of(c);
    const auto [by_sites, by_centres] = real_space_both_ways(c, alpha, rc);
    expect_nist("E_real (the test's site-pair sum)", by_sites, ref.e_real);
    const double e_real = energy_of(model, nullptr, p, box);
    EXPECT_NEAR(e_real, by_centres, 1e-9 * std::abs(by_centres));  // round-off of 1e5 terms

    const auto resolved = forces::resolved_kspace(settings, box);
    ASSERT_TRUE(resolved);
    EXPECT_EQ(resolved->ewald.kmax_per_axis, (std::array<int, 3>{5, 5, 5}));
    forces::CpuRigidKspace kspace(model, *resolved);
    const double reciprocal_and_constants = energy_of(model, &kspace, p, box) - e_real;
    double sum_q2 = 0.0;
    for (const double q : kCharge) sum_q2 += q * q;
    const double e_self = -kNistCoulombKelvin * alpha / std::sqrt(std::numbers::pi) * sum_q2 * n;
    const double e_intra = forces::charge_slots(model).intramolecular_energy[0] * n;
    expect_nist("E_self", e_self, ref.e_self);
    expect_nist("E_intra", e_intra, ref.e_intra);
    expect_nist("E_Fourier", reciprocal_and_constants - e_self - e_intra, ref.e_fourier);
  }
}

// --- derivatives ----------------------------------------------------------------------------

/// Three-site waters (a Lennard-Jones centre with -0.8 and two +0.4 sites 0.33 off), and single-
/// site ions of +1 and -1 (point masses: they do not turn), in reduced units.
std::vector<core::ResolvedComponent> charged_components() {
  const double s = 0.33 * std::sin(0.955), h = 0.33 * std::cos(0.955);
  const core::Component water{"W",
                              {lj_site({0, 0, 0}, 1.0, 1.0, 0.8),
                               {core::SiteKind::Charge, {0, 0, 0}, {}, 0.0, 0.0, 0.0, -0.8},
                               {core::SiteKind::Charge, {s, h, 0}, {}, 0.0, 0.0, 0.1, 0.4},
                               {core::SiteKind::Charge, {-s, h, 0}, {}, 0.0, 0.0, 0.1, 0.4}},
                              std::nullopt};
  const auto ion = [](const char* name, double q) {
    return core::Component{name,
                           {lj_site({0, 0, 0}, 0.5, 0.9, 1.0),
                            {core::SiteKind::Charge, {0, 0, 0}, {}, 0.0, 0.0, 0.0, q}},
                           std::nullopt};
  };
  return {core::resolve_component(water), core::resolve_component(ion("Na", 1.0)),
          core::resolve_component(ion("Cl", -1.0))};
}

/// 64 molecules (48 waters, 8 of each ion) on a jittered 4^3 lattice in a box of 5.04, turned
/// at random.
core::ParticleData charged_fluid(const core::Box& box) {
  core::ParticleData p;
  p.resize(64);
  p.enable(p.orientation);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> jitter(-0.12, 0.12);
  const double a = box.length().x / 4.0;
  for (std::size_t i = 0; i < 64; ++i) {
    p.type[i] = i % 8 == 0 ? 1 : i % 8 == 4 ? 2 : 0;
    p.id[i] = static_cast<std::int32_t>(i);
    p.position.set(
        i, {a * (i % 4) + jitter(rng), a * (i / 4 % 4) + jitter(rng), a * (i / 16) + jitter(rng)});
    p.orientation.set(i, core::random_orientation(5, static_cast<std::uint32_t>(i)));
  }
  return p;
}

void expect_derivatives(forces::CoulombMethod method) {
  const core::Box box(5.04, 5.04, 5.04);
  const auto components = charged_components();
  forces::RigidModelSettings settings;
  settings.cutoff = 2.4;
  settings.shift = true;
  settings.kspace.emplace();
  settings.kspace->method = method;
  const auto model = forces::make_rigid_model(components, settings);
  const auto resolved = *forces::resolved_kspace(settings, box);
  forces::CpuRigidKspace kspace(model, resolved);
  const auto p = charged_fluid(box);

  // The term over its lists (what runs), against the oracle's pairs plus the reciprocal part.
  forces::CpuRigidMolecules term(model, 0.3, resolved);
  const auto listed = novamd::test::evaluate_rigid(term, p, box);
  auto e = novamd::test::zeroed_evaluation(p.size());
  const auto pairs = forces::add_rigid_forces(model, p, box, e.force, e.torque);
  std::vector<double> shares(p.size(), 0.0);
  std::array<std::vector<double>, core::kTensorComponents> virial;
  for (auto& v : virial) v.assign(p.size(), 0.0);
  forces::PlacedSites placed;
  forces::place_all(model, p, placed);
  kspace.add_to(p, placed, box, e.force, e.torque, {&shares, &virial});
  double energy = pairs.energy;
  for (double u : shares) energy += u;
  core::SymmetricTensor<double> w = pairs.virial;
  for (int c = 0; c < core::kTensorComponents; ++c)
    for (double x : virial[static_cast<std::size_t>(c)]) w.c[c] += x;
  EXPECT_NEAR(listed.energy, energy, 1e-10 * std::abs(energy));
  for (int c = 0; c < core::kTensorComponents; ++c) EXPECT_NEAR(listed.virial.c[c], w.c[c], 1e-9);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_NEAR(listed.force.get(i).x, e.force.get(i).x, 1e-9);
    EXPECT_NEAR(listed.torque.get(i).z, e.torque.get(i).z, 1e-9);
  }

  // Central differences of the energy, h = 1e-5: truncation h^2 E''' and round-off
  // 1e-16 |E| / h both near 1e-7 here; 1e-5 leaves room and catches any missing or misplaced
  // term (a lever arm's torque, a site's force, the molecular virial's correction are each
  // 1e-1 or more).
  const double h = 1e-5, tolerance = 1e-5;
  const auto component = [](const V& v, int axis) {
    return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
  };
  for (const std::size_t i : {0u, 3u, 8u, 12u, 37u, 60u}) {
    for (int axis = 0; axis < 3; ++axis) {
      V step{};
      (&step.x)[axis] = h;
      auto moved = p;
      moved.position.set(i, p.position.get(i) + step);
      const double up = energy_of(model, &kspace, moved, box);
      moved.position.set(i, p.position.get(i) - step);
      const double down = energy_of(model, &kspace, moved, box);
      EXPECT_NEAR(-(up - down) / (2 * h), component(e.force.get(i), axis), tolerance)
          << "force " << i << " axis " << axis;
      const auto turn = [&](double angle) {
        auto turned = p;
        turned.orientation.set(
            i, core::from_axis_angle((1.0 / h) * step, angle) * p.orientation.get(i));
        return energy_of(model, &kspace, turned, box);
      };
      EXPECT_NEAR(-(turn(h) - turn(-h)) / (2 * h), component(e.torque.get(i), axis), tolerance)
          << "torque " << i << " axis " << axis;
    }
  }
  // The molecular virial: W_aa = -dE/d eps_aa, the box and the centres stretched along a.
  for (int axis = 0; axis < 3; ++axis) {
    const auto stretched = [&](double eps) {
      V scale{1, 1, 1};
      (&scale.x)[axis] += eps;
      const core::Box b(box.length().x * scale.x, box.length().y * scale.y,
                        box.length().z * scale.z);
      auto q = p;
      for (std::size_t i = 0; i < q.size(); ++i) {
        const V r = p.position.get(i);
        q.position.set(i, {r.x * scale.x, r.y * scale.y, r.z * scale.z});
      }
      return energy_of(model, &kspace, q, b);
    };
    EXPECT_NEAR(-(stretched(h) - stretched(-h)) / (2 * h), w.c[axis], 100 * tolerance)
        << "virial " << axis;
  }
}

TEST(RigidEwald, EwaldForcesTorquesAndVirialAreTheEnergysDerivatives) {
  expect_derivatives(forces::CoulombMethod::Ewald);
}

TEST(RigidEwald, PmeForcesTorquesAndVirialAreTheEnergysDerivatives) {
  expect_derivatives(forces::CoulombMethod::Pme);
}

TEST(RigidEwald, PmeAgreesWithTheEwaldSumToItsTolerance) {
  const core::Box box(5.04, 5.04, 5.04);
  const auto p = charged_fluid(box);
  const auto evaluate = [&](forces::CoulombMethod method, double tolerance) {
    forces::RigidModelSettings settings;
    settings.cutoff = 2.4;
    settings.kspace.emplace();
    settings.kspace->method = method;
    settings.kspace->ewald.tolerance = tolerance;
    settings.kspace->ewald.alpha = 1.4;  // the same split for both
    const auto model = forces::make_rigid_model(charged_components(), settings);
    forces::CpuRigidMolecules term(model, 0.3, forces::resolved_kspace(settings, box));
    return novamd::test::evaluate_rigid(term, p, box);
  };
  const auto ewald = evaluate(forces::CoulombMethod::Ewald, 1e-10);
  const auto pme = evaluate(forces::CoulombMethod::Pme, 1e-6);
  // The mesh's error at tolerance 1e-6 (relative RMS force error, kspace_parameters.hpp).
  EXPECT_NEAR(pme.energy, ewald.energy, 1e-5 * std::abs(ewald.energy));
  double squared = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const V d = pme.force.get(i) - ewald.force.get(i), f = ewald.force.get(i);
    squared += core::dot(d, d);
    norm += core::dot(f, f);
  }
  EXPECT_LT(std::sqrt(squared / norm), 1e-5);
  EXPECT_GT(std::sqrt(squared / norm), 0.0);  // two different methods
}

TEST(RigidEwald, RefusesMultipolesAndTheReactionField) {
  forces::RigidModelSettings settings;
  settings.cutoff = 2.4;
  settings.kspace.emplace();
  settings.kspace->method = forces::CoulombMethod::Pme;
  const auto expect_refused = [](const auto& components, const forces::RigidModelSettings& s,
                                 const std::string& words) {
    try {
      (void)forces::make_rigid_model(components, s);
      ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const core::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  expect_refused(novamd::test::three_kinds_of_molecule(), settings, "has a point quadrupole");
  auto rf = settings;
  rf.epsilon_rf = 20.0;
  expect_refused(charged_components(), rf, "epsilon_rf with coulomb ewald or pme");
  const std::vector<core::ResolvedComponent> uncharged{spce(true, false)};
  expect_refused(uncharged, settings, "no component has a charge site");
}

}  // namespace
