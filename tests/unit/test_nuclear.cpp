// The nuclear-pasta potential: the evaluator against its formula for pp, pn and nn pairs, force
// = -dV/dr, FP32 against FP64, each truncation at the cutoff; a nucleon tetrahedron with
// Coulomb between its protons through the CPU backend on every traversal, against energies,
// forces and virial derived by hand; nuclear + Coulomb on random pasta over all pairs against
// an independent double loop. Every traversal and precision against all pairs: ForceTerms
// (test_force_terms.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/physics/nuclear.hpp"
#include "novamd/physics/truncated.hpp"
#include "support/pasta.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::neighbors::NeighborMethod;
using novamd::physics::Nuclear;
using novamd::physics::Truncation;
using novamd::test::coulomb_formula;
using novamd::test::nuclear_formula;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kEpsFloat = std::numeric_limits<float>::epsilon();
constexpr auto kEnergy = novamd::backend::EnergyRequest::Compute;

/// The evaluator's parameters for isospins (tau_i, tau_j), through the settings' table of a
/// proton (type 0) and neutron (type 1) species with the default (Horowitz) parameters.
template <class T>
typename Nuclear<T>::Params params(int tau_i, int tau_j) {
  const auto table = novamd::forces::NuclearSettings{}.potential_table<T>(
      novamd::test::nucleons(), novamd::core::nuclear_units());
  return table.view()(tau_i == 1 ? 0 : 1, tau_j == 1 ? 0 : 1);
}

struct IsospinPair {
  int tau_i, tau_j;
  const char* name;
};
constexpr IsospinPair kPairs[] = {{1, 1, "pp"}, {1, -1, "pn"}, {-1, 1, "np"}, {-1, -1, "nn"}};

TEST(Nuclear, ContactValuesFromTheParameters) {
  // r = 0: e1 = e2 = 1 exactly, so V = a + b + c tau_i tau_j and force_over_r = (2a + b')/Lambda.
  for (const auto& pair : kPairs) {
    const auto res = Nuclear<double>::evaluate(0.0, params<double>(pair.tau_i, pair.tau_j));
    const bool like = pair.tau_i == pair.tau_j;
    EXPECT_EQ(res.energy, like ? 108.0 : 60.0) << pair.name;  // 110 - 26 +- 24
    // (220 - 2) / 1.25 = 174.4 and (220 - 50) / 1.25 = 136: one rounding of b'/Lambda at most.
    EXPECT_NEAR(res.force_over_r, like ? 174.4 : 136.0, 2 * kEps * 174.4) << pair.name;
  }
}

TEST(Nuclear, EnergyAndForceMatchTheFormulaForEachIsospinPair) {
  for (const auto& pair : kPairs) {
    const auto p = params<double>(pair.tau_i, pair.tau_j);
    for (double r = 0.05; r <= 10.0; r += 0.05) {
      const double r2 = r * r;  // the formula takes the same r2 as the evaluator
      const auto res = Nuclear<double>::evaluate(r2, p);
      const auto exact = nuclear_formula(r2, pair.tau_i, pair.tau_j);
      // x = -r2 / (2 Lambda) carries 1 eps relative (constant and product), which exp turns
      // into |x| eps, plus exp's own 1 ulp; squaring doubles it, a, b' and the FMA add 2 eps:
      // (2|x| + 4) eps of the summed magnitudes. Bound: twice that.
      const double x = r2 / 2.5;
      const double tol = (4 * x + 8) * kEps;
      EXPECT_NEAR(res.energy, static_cast<double>(exact.v), tol * exact.v_scale)
          << pair.name << " r = " << r;
      EXPECT_NEAR(res.force_over_r * r, static_cast<double>(exact.f), (tol + kEps) * exact.f_scale)
          << pair.name << " r = " << r;
    }
  }
}

TEST(Nuclear, LikePairsAgreeAndTheProtonNeutronPairBindsMore) {
  // Isospin enters only through tau_i tau_j: pp = nn, pn = np; the pn attraction b - c = -50 MeV
  // against b + c = -2 MeV makes pn bound (V < 0 near 2 fm) and like pairs unbound there.
  for (double r = 0.5; r < 6; r += 0.5) {
    const double r2 = r * r;
    EXPECT_EQ(Nuclear<double>::evaluate(r2, params<double>(1, 1)).energy,
              Nuclear<double>::evaluate(r2, params<double>(-1, -1)).energy);
    EXPECT_EQ(Nuclear<double>::evaluate(r2, params<double>(1, -1)).energy,
              Nuclear<double>::evaluate(r2, params<double>(-1, 1)).energy);
  }
  EXPECT_LT(Nuclear<double>::evaluate(4.0, params<double>(1, -1)).energy, -5.0);  // -5.61 MeV
  EXPECT_GT(Nuclear<double>::evaluate(4.0, params<double>(1, 1)).energy, 4.0);    // +4.08 MeV
}

TEST(Nuclear, ForceIsMinusTheDerivativeOfTheEnergy) {
  for (const auto& pair : kPairs) {
    const auto p = params<double>(pair.tau_i, pair.tau_j);
    for (double r = 0.2; r <= 8.0; r += 0.1) {
      const double h = 1e-5;
      const double vp = Nuclear<double>::evaluate((r + h) * (r + h), p).energy;
      const double vm = Nuclear<double>::evaluate((r - h) * (r - h), p).energy;
      const double numeric = -(vp - vm) / (2 * h);
      const double force = Nuclear<double>::evaluate(r * r, p).force_over_r * r;
      // Truncation h^2 V'''/6: for a Gaussian g, |g'''/g'| <= 6/Lambda + 4 r^2/Lambda^2 <= 169
      // fm^-2 at r = 8, so <= 2.9e-9 of the summed force magnitudes; round-off eps |V| / h is
      // at most eps Lambda / (r h) <= 1.4e-10 of them: bound 1e-8.
      const double scale =
          static_cast<double>(nuclear_formula(r * r, pair.tau_i, pair.tau_j).f_scale);
      EXPECT_NEAR(numeric, force, 1e-8 * scale) << pair.name << " r = " << r;
    }
  }
}

TEST(Nuclear, SinglePrecisionAgreesToFloatRoundOff) {
  for (const auto& pair : kPairs) {
    const auto pd = params<double>(pair.tau_i, pair.tau_j);
    const auto pf = params<float>(pair.tau_i, pair.tau_j);
    for (double r = 0.1; r <= 9.0; r += 0.1) {
      const float r2f = static_cast<float>(r * r);
      const auto d = Nuclear<double>::evaluate(r2f, pd);  // the same r2 in both precisions
      const auto f = Nuclear<float>::evaluate(r2f, pf);
      const auto exact = nuclear_formula(r2f, pair.tau_i, pair.tau_j);
      // As for double, in FP32 ulp: the constant -1/(2 Lambda) and 2a/Lambda, b'/Lambda rounded
      // to float add 1.5 ulp: (2|x| + 6) eps_f of the summed magnitudes. Bound: twice that.
      const double tol = (4 * r * r / 2.5 + 12) * kEpsFloat;
      EXPECT_NEAR(f.energy, d.energy, tol * exact.v_scale) << pair.name << " r = " << r;
      EXPECT_NEAR(f.force_over_r * r, d.force_over_r * r, tol * exact.f_scale)
          << pair.name << " r = " << r;
    }
  }
}

TEST(Nuclear, EachTruncationAtTheCutoff) {
  // A short cutoff, rc = 3 fm, where V and F are still far from zero, so that the shifts show.
  const double rc = 3.0;
  const auto pn = params<double>(1, -1);
  const auto at_rc = nuclear_formula(rc * rc, 1, -1);
  for (auto mode : {Truncation::Cut, Truncation::ShiftEnergy, Truncation::ShiftForce}) {
    const auto check = [&]<class E>(E) {
      const auto p = E::make_params(pn, rc, mode);
      for (double r : {0.5, 1.7, 2.5, 2.999}) {
        const auto exact = nuclear_formula(r * r, 1, -1);
        long double v = exact.v, f = exact.f;
        if (mode != Truncation::Cut) v -= at_rc.v;  // V - V(rc)
        if (mode == Truncation::ShiftForce) {       // + (r - rc) F(rc), F - F(rc)
          v += (r - rc) * at_rc.f;
          f -= at_rc.f;
        }
        const auto res = E::evaluate(r * r, p);
        // The formula's bound at r and at rc (the shift is evaluated there), plus the shift's
        // own additions: 64 eps of the summed magnitudes, far below any wrong shift (>= 1e-3).
        const double scale =
            static_cast<double>(exact.v_scale + at_rc.v_scale + rc * at_rc.f_scale);
        EXPECT_NEAR(res.energy, static_cast<double>(v), 64 * kEps * scale) << "r = " << r;
        EXPECT_NEAR(res.force_over_r * r, static_cast<double>(f),
                    64 * kEps * static_cast<double>(exact.f_scale + at_rc.f_scale))
            << "r = " << r;
      }
      for (double r : {3.0, 3.001, 5.0}) {  // at and beyond the cutoff: nothing
        EXPECT_EQ(E::evaluate(r * r, p).energy, 0.0) << "r = " << r;
        EXPECT_EQ(E::evaluate(r * r, p).force_over_r, 0.0) << "r = " << r;
      }
    };
    if (mode == Truncation::ShiftForce) {
      check(novamd::physics::Truncated<Nuclear<double>, true>{});
    } else {
      check(novamd::physics::Truncated<Nuclear<double>, false>{});
    }
  }
}

TEST(Nuclear, DefaultCutoffLeavesOnlyDoubleRoundOff) {
  // The default cutoff, 10 fm: the strongest pair (pn) has |V| < 2.2e-16 MeV and |F| < 1.7e-15
  // MeV/fm there, below one ulp of its contact energy (60 MeV): truncating changes nothing.
  const novamd::forces::NuclearSettings defaults;
  EXPECT_EQ(defaults.cutoff, 10.0);
  const auto at_rc = nuclear_formula(100.0L, 1, -1);
  EXPECT_LT(std::abs(at_rc.v), 2.2e-16L);
  EXPECT_LT(std::abs(at_rc.f), 1.7e-15L);
  EXPECT_LT(std::abs(at_rc.v), kEps * 60.0);
}

// --- through the CPU backend ---------------------------------------------------------------

/// A regular tetrahedron of nucleons, vertices (+-q, +-q, +-q) with an even count of minus
/// signs, edge d = 2 sqrt(2) q, centred on the corner of a box of edge 60 fm (so that every pair
/// crosses a periodic boundary): protons at vertices 0 and 1, neutrons at 2 and 3. q = 5/8 fm
/// makes every coordinate, wrapped or not, and every separation exact in binary.
BackendSetup tetrahedron() {
  constexpr double q = 0.625, box = 60.0;
  BackendSetup s;
  s.units = novamd::core::nuclear_units();
  s.species = novamd::test::nucleons();
  s.box = novamd::core::Box(box, box, box);
  const double vertices[4][3] = {{q, q, q}, {q, -q, -q}, {-q, q, -q}, {-q, -q, q}};
  s.particles.resize(4);
  for (int i = 0; i < 4; ++i) {
    const auto wrap = [&](double x) { return x < 0 ? x + box : x; };
    s.particles.position.set(i, {wrap(vertices[i][0]), wrap(vertices[i][1]), wrap(vertices[i][2])});
    s.particles.type[i] = i < 2 ? 0 : 1;
    s.particles.id[i] = i;
  }
  novamd::forces::NuclearSettings nuclear;  // Horowitz's parameters, cutoff 10 fm
  s.forces = {nuclear, novamd::forces::YukawaSettings{10.0, 15.0}};  // lambda 10 fm, cut at 15
  return s;
}

TEST(NuclearBackend, TetrahedronMatchesHandDerivedEnergyForcesAndVirial) {
  // By hand: d^2 = 8 q^2 = 3.125 fm^2, so e1 = exp(-d^2/Lambda) = e^-2.5 and
  // e2 = exp(-d^2/(2 Lambda)) = e^-1.25. Pairs (0,1) pp and (2,3) nn, four pn, all at d:
  //   V_like = 110 e^-2.5 - 2 e^-1.25 = 8.4563 MeV,   V_pn = 110 e^-2.5 - 50 e^-1.25 = -5.2959 MeV,
  //   F = -dV/dr = d (220 e^-2.5 + b' e^-1.25) / 1.25 with b' = -2 (like) or -50 (pn);
  // Coulomb in (0,1) only: V_C = e^2 e^(-d/10) / d, F_C = V_C (1/d + 1/10).
  const long double d = std::sqrt(3.125L);
  const long double e1 = std::exp(-2.5L), e2 = std::exp(-1.25L);
  const long double v_like = 110 * e1 - 2 * e2, v_pn = 110 * e1 - 50 * e2;
  const long double f_like = d * (220 * e1 - 2 * e2) / 1.25L;
  const long double f_pn = d * (220 * e1 - 50 * e2) / 1.25L;
  const long double v_c = novamd::test::kE2 * std::exp(-d / 10) / d;
  const long double f_c = v_c * (1 / d + 0.1L);
  const long double energy = 2 * v_like + 4 * v_pn + v_c;
  const long double virial = d * (2 * f_like + 4 * f_pn + f_c);  // sum of r . f over pairs
  EXPECT_NEAR(static_cast<double>(v_like), 8.4563, 1e-4);        // the numbers quoted above
  EXPECT_NEAR(static_cast<double>(v_pn), -5.2959, 1e-4);
  // Pair force on i from j along (r_i - r_j) / d.
  const auto pair_force = [&](int i, int j) {
    const bool like = (i < 2) == (j < 2);
    return static_cast<double>((like ? f_like : f_pn) + (i < 2 && j < 2 ? f_c : 0.0L));
  };
  const double v_scale = static_cast<double>(2 * std::abs(v_like) + 4 * std::abs(v_pn) + v_c);
  const double f_scale = static_cast<double>(2 * std::abs(f_like) + 4 * std::abs(f_pn) + f_c);
  for (auto method :
       {NeighborMethod::AllPairs, NeighborMethod::CellList, NeighborMethod::NeighborList}) {
    auto setup = tetrahedron();  // 60 fm: 3 cells of 15 fm + skin per axis for the lists
    setup.neighbors.method = method;
    CpuBackend b(setup);
    b.compute_forces(kEnergy);
    const auto o = b.observables();
    // The separations are exact; each of the 7 pair terms is within a few ulp of its formula
    // (the Gaussian argument, exp, the products), and 7 additions: 32 eps of the magnitudes.
    const std::string name = "method " + std::to_string(static_cast<int>(method));
    EXPECT_NEAR(o.potential_energy, static_cast<double>(energy), 32 * kEps * v_scale) << name;
    EXPECT_NEAR(o.virial.trace(), static_cast<double>(virial), 32 * kEps * d * f_scale) << name;
    const auto& p = b.particles_on_host();
    const auto box = setup.box.view<double>();
    for (int i = 0; i < 4; ++i) {
      novamd::core::Vec3<double> expected{0, 0, 0};
      for (int j = 0; j < 4; ++j) {
        if (j == i) continue;
        const auto rij = box.minimum_image(p.position.get(i) - p.position.get(j));
        expected += (pair_force(i, j) / static_cast<double>(d)) * rij;
      }
      const auto got = p.force.get(i);
      EXPECT_NEAR(got.x, expected.x, 32 * kEps * f_scale) << "particle " << i << ", " << name;
      EXPECT_NEAR(got.y, expected.y, 32 * kEps * f_scale) << "particle " << i << ", " << name;
      EXPECT_NEAR(got.z, expected.z, 32 * kEps * f_scale) << "particle " << i << ", " << name;
    }
  }
}

/// Forces, energy and virial of `setup` by a plain double loop over i < j that finds the nearest
/// image among the 27 neighbouring boxes, with both pair formulas written out (nuclear cut at
/// its cutoff, Coulomb force-shifted at its cutoff, as random_pasta sets them).
struct Reference {
  std::vector<novamd::core::Vec3<double>> force;
  double energy = 0, virial = 0, force_max = 0;
  double energy_scale = 0, virial_scale = 0;  ///< sums of the pair terms' magnitudes
};

Reference naive_pasta(const BackendSetup& s) {
  const auto& nuclear = std::get<novamd::forces::NuclearSettings>(s.forces[0]);
  const auto& coulomb = std::get<novamd::forces::YukawaSettings>(s.forces[1]);
  const double rn2 = nuclear.cutoff * nuclear.cutoff, rc = coulomb.cutoff;
  const auto at_rc = coulomb_formula(rc * rc, 1, 1);
  const auto& p = s.particles;
  const auto L = s.box.length();
  Reference ref;
  ref.force.assign(p.size(), {0, 0, 0});
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      novamd::core::Vec3<double> best{0, 0, 0};
      double best2 = std::numeric_limits<double>::infinity();
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int c = -1; c <= 1; ++c) {
            const novamd::core::Vec3<double> dij{p.position.x[i] - p.position.x[j] + a * L.x,
                                                 p.position.y[i] - p.position.y[j] + b * L.y,
                                                 p.position.z[i] - p.position.z[j] + c * L.z};
            if (novamd::core::dot(dij, dij) < best2) {
              best = dij;
              best2 = novamd::core::dot(dij, dij);
            }
          }
      const int ti = p.type[i] == 0 ? 1 : -1, tj = p.type[j] == 0 ? 1 : -1;
      long double v = 0, f = 0;  // f = -dV/dr
      long double v_scale = 0, f_scale = 0;
      if (best2 < rn2) {
        const auto n = nuclear_formula(best2, ti, tj);
        v += n.v;
        f += n.f;
        v_scale += n.v_scale;
        f_scale += n.f_scale;
      }
      if (ti == 1 && tj == 1 && best2 < rc * rc) {
        const long double r = std::sqrt(static_cast<long double>(best2));
        const auto c = coulomb_formula(best2, 1, 1);
        v += c.v - at_rc.v + (r - rc) * at_rc.f;
        f += c.f - at_rc.f;
        v_scale += c.v_scale + at_rc.v_scale + rc * at_rc.f_scale;
        f_scale += c.f_scale + at_rc.f_scale;
      }
      const double r = std::sqrt(best2);
      ref.energy_scale += static_cast<double>(v_scale);
      ref.virial_scale += static_cast<double>(f_scale) * r;
      const auto fij = static_cast<double>(f / r) * best;
      ref.force[i] += fij;
      ref.force[j] -= fij;
      ref.energy += static_cast<double>(v);
      ref.virial += static_cast<double>(f) * r;
    }
  }
  for (const auto& f : ref.force)
    ref.force_max = std::max({ref.force_max, std::abs(f.x), std::abs(f.y), std::abs(f.z)});
  return ref;
}

void expect_matches(CpuBackend& b, const Reference& ref, const std::string& what) {
  b.compute_forces(kEnergy);
  const auto& p = b.particles_on_host();
  // The same pair terms in another order, each within a few ulp of the formula: 4 N eps of the
  // largest force (as for the other traversal comparisons).
  const double tol = 4.0 * static_cast<double>(p.size()) * kEps * ref.force_max;
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_NEAR(p.force.x[i], ref.force[i].x, tol) << what << " particle " << i;
    ASSERT_NEAR(p.force.y[i], ref.force[i].y, tol) << what << " particle " << i;
    ASSERT_NEAR(p.force.z[i], ref.force[i].z, tol) << what << " particle " << i;
  }
  const auto o = b.observables();
  // Energy terms of both signs: bounded relative to the sum of their magnitudes.
  EXPECT_NEAR(o.potential_energy, ref.energy, 4.0 * p.size() * kEps * ref.energy_scale) << what;
  EXPECT_NEAR(o.virial.trace(), ref.virial, 4.0 * p.size() * kEps * ref.virial_scale) << what;
}

TEST(NuclearBackend, NuclearPlusCoulombMatchesADoubleLoop) {
  // 3,000 nucleons at 0.05 fm^-3 (box ~39 x 35 x 43 fm), nuclear cut at 10 fm, Coulomb
  // force-shifted at 11 fm, through the CPU backend over all pairs (the reference of ForceTerms,
  // which compares every traversal and precision with it) against the double loop above.
  const auto setup = novamd::test::random_pasta(3000, 0.05, 11, 0.5, 10.0, 11.0);
  const Reference ref = naive_pasta(setup);
  auto all_pairs = setup;
  all_pairs.neighbors.method = NeighborMethod::AllPairs;
  CpuBackend b(all_pairs);
  expect_matches(b, ref, "all pairs");
}

}  // namespace
