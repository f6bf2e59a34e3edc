// The Monte Carlo barostat (integrate/monte_carlo_barostat.hpp) on step operations whose
// potential energy is a function of the volume alone: its moves sample the isobaric ensemble's
// V^N exp(-(U + P0 V) / kT) (an ideal gas: <V> = (N + 1) kT / P0, var V = (N + 1) (kT / P0)^2),
// undo what they reject, adapt their size, account their energy exactly and restart alike; the
// molecules' moves (integrate/molecule_scaling.hpp) keep each molecule's shape.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/integrate/molecule_scaling.hpp"
#include "novamd/integrate/monte_carlo_barostat.hpp"
#include "support/force_scale.hpp"
#include "support/restart_check.hpp"
#include "support/sample_statistics.hpp"

namespace {

using novamd::core::Box;
using novamd::core::Vec3;
using novamd::integrate::BarostatSettings;
using novamd::integrate::MonteCarloBarostat;
using novamd::integrate::PressureCoupling;
using novamd::integrate::PressureSample;

/// Step operations with a box and a potential energy U(V); they count what a trial does.
class TrialOperations final : public novamd::integrate::StepOperations {
 public:
  TrialOperations(Box box, std::function<double(double)> energy)
      : box_(box), energy_(std::move(energy)) {}
  void compute_forces(novamd::integrate::EnergyRequest) override { ++evaluations; }
  void kick(double) override {}
  void drift(double, novamd::integrate::VelocityCondition) override {}
  void scale_velocities(double) override {}
  void thermalize(const novamd::integrate::VelocityNoise&) override {}
  double langevin_heat() override { return 0.0; }
  double kinetic_energy() override { return 0.0; }
  const Box& box() const override { return box_; }
  void rescale_box(const Box& box) override { box_ = box; }
  double potential_energy() override { return energy_(box_.volume()); }
  bool takes_box(const Box&) const override { return !refuses_boxes; }
  void keep_configuration() override {
    kept_ = box_;
    ++keeps;
  }
  void restore_configuration() override {
    box_ = kept_;
    ++restores;
  }
  void release_configuration() override { ++releases; }
  double energy_now() const { return energy_(box_.volume()); }

  int evaluations = 0, keeps = 0, restores = 0, releases = 0;
  bool refuses_boxes = false;  ///< every trial box too small for a cutoff

 private:
  Box box_, kept_;
  std::function<double(double)> energy_;
};

BarostatSettings settings(PressureCoupling coupling, double pressure) {
  BarostatSettings s;
  s.type = "monte_carlo";
  s.pressure = pressure;
  s.coupling = coupling;
  s.every = 4;
  return s;
}

struct Moves {
  std::vector<Vec3<double>> edges;  ///< after each move
  double energy_account = 0.0;      ///< the barostat's energy()
};

/// `moves` moves of `barostat` (steps 4, 8, ...), each after a sample of U at the box then.
Moves run_moves(MonteCarloBarostat& barostat, TrialOperations& ops, int moves) {
  Moves run;
  for (int k = 1; k <= moves; ++k) {
    PressureSample sample;
    sample.potential_energy = ops.energy_now();
    EXPECT_TRUE(barostat.samples_after(4 * k - 1));
    barostat.sample(sample);
    barostat.move(ops, 4 * k);
    run.edges.push_back(ops.box().length());
  }
  run.energy_account = barostat.energy();
  return run;
}

using novamd::test::mean_of;

/// The standard error of the mean from 20 block means.
double block_error(const std::vector<double>& v) {
  return novamd::test::block_error(v, 20);
}

// An ideal gas of N = 20 (U = 0) at kT = 1, P0 = 2: <V> = 21 / 2 = 10.5 and var V = 5.25. Over
// 200,000 moves after 2,000 of settling, the mean within 5 block errors (the 20 blocks' own;
// some 0.01) and the variance within 3%; both wrong if N, P0 V or the kT ln(V'/V) term were.
TEST(MonteCarloBarostat, IdealGasSamplesTheIsobaricVolumeDistribution) {
  MonteCarloBarostat barostat(settings(PressureCoupling::Isotropic, 2.0), 1.0, 5, {20, 0.0});
  TrialOperations ops(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
  run_moves(barostat, ops, 2000);
  const Moves run = run_moves(barostat, ops, 200000);
  std::vector<double> volume;
  for (const auto& L : run.edges) volume.push_back(L.x * L.y * L.z);
  const double mean = mean_of(volume);
  double square = 0.0;
  for (const double v : volume) square += (v - mean) * (v - mean);
  const double variance = square / static_cast<double>(volume.size() - 1);
  EXPECT_NEAR(mean, 10.5, 5.0 * block_error(volume)) << "block error " << block_error(volume);
  EXPECT_LT(block_error(volume), 0.05);
  EXPECT_NEAR(variance, 5.25, 0.03 * 5.25);
  // Every trial evaluated once; the rejected ones given back, the kept ones released.
  EXPECT_EQ(ops.evaluations, ops.keeps);
  EXPECT_EQ(ops.keeps, ops.restores + ops.releases);
  EXPECT_EQ(barostat.kept(), ops.releases);
  EXPECT_EQ(barostat.tried(), 202000);
  // The step size adapted to keep between a quarter and three quarters of the moves.
  const double kept = static_cast<double>(barostat.kept()) / static_cast<double>(barostat.tried());
  EXPECT_GT(kept, 0.2);
  EXPECT_LT(kept, 0.8);
  EXPECT_NE(barostat.step_sizes()[0], 0.01 * 8.0);
}

// U = a V adds a to the pressure: <V> = (N + 1) kT / (P0 + a) = 21 / 3 = 7. The barostat's energy
// is exactly what its kept moves changed U + P0 V by: (U + P0 V) now less at the start.
TEST(MonteCarloBarostat, EnergyEntersTheCriterionAndTheAccount) {
  const double a = 1.0;
  MonteCarloBarostat barostat(settings(PressureCoupling::Isotropic, 2.0), 1.0, 6, {20, 0.0});
  TrialOperations ops(Box(2.0, 2.0, 2.0), [a](double v) { return a * v; });
  const double start = ops.energy_now() + 2.0 * 8.0;
  run_moves(barostat, ops, 2000);
  const Moves run = run_moves(barostat, ops, 100000);
  std::vector<double> volume;
  for (const auto& L : run.edges) volume.push_back(L.x * L.y * L.z);
  EXPECT_NEAR(mean_of(volume), 7.0, 5.0 * block_error(volume));
  const double now = ops.energy_now() + 2.0 * ops.box().volume();
  EXPECT_NEAR(run.energy_account, now - start, 1e-9 * std::abs(start));
}

// The tail correction's energy, tail_energy_volume / V, joins the trial's energy: with U = 0 and
// a tail of -c / V the pressure is P0 - c / V^2 lower on the system, so <V> grows.
TEST(MonteCarloBarostat, TailCorrectionJoinsTheTrialEnergy) {
  MonteCarloBarostat plain(settings(PressureCoupling::Isotropic, 2.0), 1.0, 7, {20, 0.0});
  MonteCarloBarostat tail(settings(PressureCoupling::Isotropic, 2.0), 1.0, 7, {20, -20.0});
  TrialOperations a(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
  TrialOperations b(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
  std::vector<double> va, vb;
  for (int k = 1; k <= 50000; ++k) {
    PressureSample sa, sb;
    sb.potential_energy = -20.0 / b.box().volume();
    plain.sample(sa);
    tail.sample(sb);
    plain.move(a, 4 * k);
    tail.move(b, 4 * k);
    va.push_back(a.box().volume());
    vb.push_back(b.box().volume());
  }
  // -c / V with c = 20 near V = 10 acts as an extra 0.2 of attraction: <V> some 10% lower.
  EXPECT_LT(mean_of(vb), mean_of(va) - 5.0 * (block_error(va) + block_error(vb)));
}

// Each coupling moves its own edges: semi-isotropic moves x and y together or z alone,
// anisotropic one edge; an ideal gas gives each edge the same mean under anisotropic coupling.
TEST(MonteCarloBarostat, CouplingsMoveTheirEdges) {
  for (const auto coupling : {PressureCoupling::SemiIsotropic, PressureCoupling::Anisotropic}) {
    MonteCarloBarostat barostat(settings(coupling, 2.0), 1.0, 8, {20, 0.0});
    TrialOperations ops(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
    Vec3<double> before = ops.box().length();
    int moved_xy_only = 0, moved_z_only = 0;
    for (const auto& L : run_moves(barostat, ops, 2000).edges) {
      const bool x = L.x != before.x, y = L.y != before.y, z = L.z != before.z;
      if (coupling == PressureCoupling::SemiIsotropic) {
        EXPECT_FALSE((x || y) && z);
        EXPECT_EQ(x, y);
        EXPECT_NEAR(L.x / L.y, 1.0, 1e-12);
      } else {
        EXPECT_LE(int(x) + int(y) + int(z), 1);
      }
      moved_xy_only += x && !z;
      moved_z_only += z && !x;
      before = L;
    }
    EXPECT_GT(moved_xy_only, 200);
    EXPECT_GT(moved_z_only, 200);
  }
  MonteCarloBarostat barostat(settings(PressureCoupling::Anisotropic, 2.0), 1.0, 9, {20, 0.0});
  TrialOperations ops(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
  run_moves(barostat, ops, 2000);
  std::vector<double> x, z;
  for (const auto& L : run_moves(barostat, ops, 100000).edges) {
    x.push_back(L.x);
    z.push_back(L.z);
  }
  EXPECT_NEAR(mean_of(x), mean_of(z), 5.0 * (block_error(x) + block_error(z)));
}

// A barostat restored from another's state moves as that one does; another type's state and a
// wrong length are refused.
TEST(MonteCarloBarostat, StateRoundTripsAndContinuesAlike) {
  MonteCarloBarostat barostat(settings(PressureCoupling::Anisotropic, 2.0), 1.0, 10, {20, 0.0});
  TrialOperations ops(Box(2.0, 2.0, 2.0), [](double v) { return 0.3 * v * v; });
  run_moves(barostat, ops, 500);
  PressureSample sample;
  sample.potential_energy = ops.energy_now();
  barostat.sample(sample);  // a sample pending at the checkpoint
  const auto state = barostat.save();
  MonteCarloBarostat again(settings(PressureCoupling::Anisotropic, 2.0), 1.0, 10, {20, 0.0});
  again.restore(state);
  EXPECT_EQ(again.save().values, state.values);
  EXPECT_THROW(again.restore({"c_rescale", state.values}), novamd::core::InputError);
  EXPECT_THROW(again.restore({"monte_carlo", {1.0, 2.0}}), novamd::core::InputError);
  TrialOperations copy = ops;
  barostat.move(ops, 2004);
  again.move(copy, 2004);
  const Moves a = run_moves(barostat, ops, 300), b = run_moves(again, copy, 300);
  for (std::size_t k = 0; k < a.edges.size(); ++k) {
    EXPECT_EQ(a.edges[k].x, b.edges[k].x);
    EXPECT_EQ(a.edges[k].z, b.edges[k].z);
  }
  EXPECT_EQ(a.energy_account, b.energy_account);
}

// Two rigid three-particle molecules across the box's boundaries: each centre of
// mass (the first particle is heavier) scales with the edges, each molecule keeps its shape
// under the minimum image, and its particles come out wrapped into the new box with their
// crossings counted.
TEST(MoleculeScaling, CentresScaleAndShapesStay) {
  const Box from(10.0, 10.0, 10.0), to(10.5, 10.2, 9.9);
  std::vector<double> x{9.8, 0.3, 9.5, 0.3, 9.99, 0.6}, y{5.0, 5.2, 5.4, 2.0, 2.1, 2.9},
      z{9.95, 0.05, 9.9, 7.0, 7.4, 6.9};
  std::vector<std::int32_t> type{0, 1, 1, 0, 1, 1}, id{3, 4, 5, 0, 1, 2};  // storage order
  std::vector<std::int32_t> ix(6, 0), iy(6, 0), iz(6, 0);
  const std::vector<double> mass{16.0, 1.0};
  novamd::core::Molecules molecules;
  molecules.of_id = {0, 0, 0, 1, 1, 1};
  molecules.count = 2;
  const auto rows = novamd::integrate::MoleculeRows::of(molecules);
  std::vector<std::int32_t> slot_of_id(6);
  for (int i = 0; i < 6; ++i) novamd::integrate::SlotsOfIds{id.data(), slot_of_id.data()}(i);
  const novamd::integrate::Vec3Pointers position{x.data(), y.data(), z.data()};
  const auto at = [&](int i) { return Vec3<double>{x[i], y[i], z[i]}; };
  std::vector<Vec3<double>> old;
  for (int i = 0; i < 6; ++i) old.push_back(at(i));
  std::vector<Vec3<double>> centre(2), unwrapping(6);
  const auto ratio = novamd::integrate::edge_ratios(from, to);
  for (int m = 0; m < 2; ++m)
    novamd::integrate::MoleculeCentre{
        rows.offset.data(), rows.member_id.data(), slot_of_id.data(), type.data(),      mass.data(),
        position,           from.view<double>(),   centre.data(),     unwrapping.data()}(m);
  // Molecule 1 (ids 3-5, slots 0-2) unwrapped around slot 0: x at 9.8, 10.3, 9.5; z at 9.95,
  // 10.05, 9.9.
  const Vec3<double> c{(16.0 * 9.8 + 10.3 + 9.5) / 18.0, (16.0 * 5.0 + 5.2 + 5.4) / 18.0,
                       (16.0 * 9.95 + 10.05 + 9.9) / 18.0};
  EXPECT_NEAR(centre[1].x, c.x, 1e-12);
  EXPECT_NEAR(centre[1].y, c.y, 1e-12);
  EXPECT_NEAR(centre[1].z, c.z, 1e-12);
  for (int i = 0; i < 6; ++i)
    novamd::integrate::MoveWithMolecule{
        id.data(), rows.molecule_of_id.data(),        centre.data(),     unwrapping.data(),
        position,  {ix.data(), iy.data(), iz.data()}, to.view<double>(), ratio}(i);
  for (int i = 0; i < 6; ++i) {
    EXPECT_GE(x[i], 0.0);
    EXPECT_LT(x[i], to.length().x);
    EXPECT_GE(z[i], 0.0);
    EXPECT_LT(z[i], to.length().z);
    for (int j = i + 1; j < 6; ++j) {
      if (molecules.of_id[id[i]] != molecules.of_id[id[j]]) continue;
      const auto a = from.view<double>().minimum_image(old[i] - old[j]);
      const auto b = to.view<double>().minimum_image(at(i) - at(j));
      EXPECT_NEAR(a.x, b.x, 1e-12) << i << " " << j;
      EXPECT_NEAR(a.y, b.y, 1e-12) << i << " " << j;
      EXPECT_NEAR(a.z, b.z, 1e-12) << i << " " << j;
    }
  }
  // The first particle moved with the centre: (ratio - 1) c; the second, stored one image
  // below the molecule in x, by the centre's image there, (ratio - 1)(c - L).
  EXPECT_NEAR(x[0], 9.8 + (ratio.x - 1.0) * c.x, 1e-12);
  EXPECT_NEAR(x[1], 0.3 + (ratio.x - 1.0) * (c.x - 10.0), 1e-12);
  EXPECT_NEAR(z[1], 0.05 + (ratio.z - 1.0) * (c.z - 10.0), 1e-12);
  // Molecule 0 (slots 3-5) sits at x = 0.3, 9.99 - 10, 0.6: the particle at 9.99 sees the centre
  // one image up, at c + 10, moves past the new edge 10.5 and wraps to the bottom, one crossing.
  EXPECT_NEAR(x[4], 9.99 + (ratio.x - 1.0) * (centre[0].x + 10.0) - to.length().x, 1e-12);
  EXPECT_EQ(ix[4], 1);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(iy[i], 0);
    EXPECT_EQ(iz[i], 0);
    if (i != 4) EXPECT_EQ(ix[i], 0);
  }
}

// A chain of 8 particles 1 apart along x spans 7 of a box of 10: farther than half the box from
// its first particle, each bond shorter than half. Unwrapped bond by bond, its centre is at 3.5
// from the first particle (not 2.5, as the minimum image from the first one would put it) and
// every bond stays 1 long after the move.
TEST(MoleculeScaling, MoleculesLongerThanHalfTheBoxKeepTheirBonds) {
  const Box from(10.0, 10.0, 10.0), to(10.1, 10.1, 10.1);
  std::vector<double> x, y(8, 5.0), z(8, 5.0);
  for (int k = 0; k < 8; ++k) x.push_back(std::fmod(6.0 + k, 10.0));  // 6, 7, ..., 9, 0, 1, 2, 3
  std::vector<std::int32_t> type(8, 0), id{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::int32_t> ix(8, 0), iy(8, 0), iz(8, 0);
  const std::vector<double> mass{1.0};
  novamd::core::Molecules molecules;
  molecules.of_id.assign(8, 0);
  molecules.count = 1;
  const auto rows = novamd::integrate::MoleculeRows::of(molecules);
  std::vector<std::int32_t> slot_of_id(8);
  for (int i = 0; i < 8; ++i) novamd::integrate::SlotsOfIds{id.data(), slot_of_id.data()}(i);
  const novamd::integrate::Vec3Pointers position{x.data(), y.data(), z.data()};
  std::vector<Vec3<double>> centre(1), unwrapping(8);
  novamd::integrate::MoleculeCentre{
      rows.offset.data(), rows.member_id.data(), slot_of_id.data(), type.data(),      mass.data(),
      position,           from.view<double>(),   centre.data(),     unwrapping.data()}(0);
  EXPECT_NEAR(centre[0].x, 9.5, 1e-12);  // 6 + 3.5
  const auto ratio = novamd::integrate::edge_ratios(from, to);
  for (int i = 0; i < 8; ++i)
    novamd::integrate::MoveWithMolecule{
        id.data(), rows.molecule_of_id.data(),        centre.data(),     unwrapping.data(),
        position,  {ix.data(), iy.data(), iz.data()}, to.view<double>(), ratio}(i);
  for (int k = 0; k + 1 < 8; ++k) {
    const double bond = to.view<double>().minimum_image({x[k + 1] - x[k], 0.0, 0.0}).x;
    EXPECT_NEAR(bond, 1.0, 1e-12) << k;
  }
  EXPECT_NEAR(x[0], 6.0 + 0.01 * 9.5, 1e-12);  // the centre moved by (ratio - 1) c
}

// A trial box too small for a cutoff is a rejected try, not an evaluation (nor a stopped run).
TEST(MonteCarloBarostat, BoxesTooSmallForTheCutoffAreRejectedUntried) {
  TrialOperations ops(Box(2.0, 2.0, 2.0), [](double) { return 0.0; });
  ops.refuses_boxes = true;
  MonteCarloBarostat barostat(settings(PressureCoupling::Isotropic, 2.0), 1.0, 11, {20, 0.0});
  for (int k = 1; k <= 20; ++k) {
    barostat.sample({});
    barostat.move(ops, 4 * k);
  }
  EXPECT_EQ(ops.evaluations, 0);
  EXPECT_EQ(barostat.tried(), 20);
  EXPECT_EQ(barostat.kept(), 0);
  EXPECT_EQ(ops.box().volume(), 8.0);
}

// A rejected trial on the CPU backend: keep, move the box (particle by particle, or by the
// centres of molecules of two particles), evaluate there, give back. Positions, image counts,
// forces and the box come back bit for bit, and the next evaluation (lists rebuilt) gives the
// kept forces again.
TEST(CpuBackendTrial, GivenBackConfigurationIsTheKeptOneBitwise) {
  for (const bool molecules : {false, true}) {
    auto setup = novamd::test::lj_mixture(300, novamd::core::Precision::Double,
                                          novamd::forces::Truncation::Cut);
    setup.particles.enable(setup.particles.image);
    if (molecules) {
      for (std::size_t i = 0; i < setup.particles.size(); ++i)
        setup.scaled_molecules.of_id.push_back(static_cast<std::int32_t>(i / 2));
      setup.scaled_molecules.count = static_cast<std::int32_t>(setup.particles.size() / 2);
    }
    novamd::backend::CpuBackend b(setup);
    b.compute_forces(novamd::integrate::EnergyRequest::Compute);
    const auto before = b.particles_on_host();
    const Box box = b.box();
    const Box trial(box.length().x * 1.02, box.length().y * 0.99, box.length().z * 1.01);
    ASSERT_TRUE(b.takes_box(trial));
    EXPECT_FALSE(b.takes_box(Box(4.0, 4.0, 4.0)));  // the cutoff 2.5 exceeds half of 4
    b.keep_configuration();
    b.rescale_box(trial);
    b.compute_forces(novamd::integrate::EnergyRequest::Compute);
    EXPECT_NE(b.particles_on_host().position.x, before.position.x) << molecules;
    b.restore_configuration();
    const auto after = b.particles_on_host();
    EXPECT_EQ(b.box().length().x, box.length().x);
    EXPECT_EQ(b.box().length().y, box.length().y);
    EXPECT_TRUE(novamd::test::bitwise_equal(after.position, before.position)) << molecules;
    EXPECT_TRUE(novamd::test::bitwise_equal(after.force, before.force)) << molecules;
    EXPECT_EQ(after.image.x, before.image.x);
    b.compute_forces(novamd::integrate::EnergyRequest::Compute);
    EXPECT_TRUE(novamd::test::bitwise_equal(b.particles_on_host().force, before.force))
        << molecules;
  }
}

}  // namespace
