// The CUDA bonded terms and smooth PME restricted to a range of targets (CudaForceInput's
// target_begin and target_end: a spatial decomposition's owned particles), against the same
// terms over every target, on fresh random input, in double and mixed precision.
//
// - Bonded terms (every family: bonds, angles, dihedrals, impropers on 2,000 random chains of 5
//   across the box's faces): each target's row sums the same term forces in the same order, so
//   its force, energy share and virial share are the whole term's bit for bit; the other
//   entries are left as they were (a marker value).
// - PME on 510 random ions (order 5, a grid of unequal edges): two "ranks" over complementary
//   ranges, each spreading its own charges into the fixed-point mesh, the meshes summed through
//   the term's FixedRankSum (here: a host copy of the other rank's mesh added in). Integers add
//   exactly, so each rank's mesh is the whole one's, and its targets' forces and energy and
//   virial shares are bit for bit those of one term over every particle; the others untouched.
// - Both with an empty range (a brick without particles): nothing written, no launch refused.
//
// Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_bonded_force.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/cuda_kspace_term.cuh"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "support/bonded_molecules.hpp"
#include "support/systems.hpp"

namespace {

using novamd::core::Precision;

constexpr double kMarker = 12345.0;  // the output's entries before each evaluation

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

/// The particles' fields on the device, and the input of an evaluation over [begin, end).
template <class PairT>
struct DeviceInput {
  novamd::core::DeviceBuffer<double> x, y, z, q;
  novamd::core::DeviceBuffer<std::int32_t> id;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> packed;
  novamd::core::Box box;

  DeviceInput(const novamd::core::ParticleData& p, const novamd::core::Box& b, cudaStream_t stream)
      : box(b) {
    x.copy_from_host(p.position.x, stream);
    y.copy_from_host(p.position.y, stream);
    z.copy_from_host(p.position.z, stream);
    if (!p.charge.empty()) q.copy_from_host(p.charge, stream);
    id.copy_from_host(p.id, stream);
    std::vector<novamd::neighbors::PairPosition<PairT>> pack(p.size());
    for (std::size_t i = 0; i < p.size(); ++i)
      pack[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]), p.type[i]};
    packed.copy_from_host(pack, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  novamd::forces::CudaForceInput<PairT> input(int begin, int end) const {
    const int n = static_cast<int>(x.size());
    novamd::forces::DeviceFieldView fields{
        x.data(), y.data(), z.data(), id.data(), q.size() > 0 ? q.data() : nullptr, {}};
    return {packed.data(), n,  box.view<PairT>(), box, 132, 2 * n, std::nullopt, 0, fields,
            begin,         end};
  }
};

/// Forces, energy and virial shares of one evaluation (every entry kMarker before it).
struct Output {
  std::vector<double> value[10];  // fx, fy, fz, energy, the six virial components
};

template <class PairT>
Output evaluate(novamd::forces::CudaForceTerm<PairT>& term,
                const novamd::forces::CudaForceInput<PairT>& in, bool accumulate,
                novamd::core::CudaStream& stream) {
  novamd::neighbors::DeviceForceArrays<double> out;
  out.resize(in.n);
  const std::vector<double> marker(static_cast<std::size_t>(in.n), kMarker);
  const std::vector<double> zero(static_cast<std::size_t>(in.n), 0.0);
  const int begin = in.target_begin, end = in.target_end < 0 ? in.n : in.target_end;
  std::vector<novamd::core::DeviceBuffer<double>*> arrays{&out.fx, &out.fy, &out.fz, &out.energy};
  for (auto& component : out.virial) arrays.push_back(&component);
  for (auto* a : arrays) {
    // Targets start at zero where the term adds to its output; the rest at the marker.
    std::vector<double> start = marker;
    if (accumulate)
      for (int i = begin; i < end; ++i) start[static_cast<std::size_t>(i)] = 0.0;
    a->copy_from_host(start, stream.get());
  }
  term.add_to(in, out.view(), {accumulate, true}, stream.get());
  Output o;
  for (std::size_t k = 0; k < arrays.size(); ++k) arrays[k]->copy_to_host(o.value[k], stream.get());
  stream.synchronize();
  return o;
}

/// The restricted evaluation's targets equal the whole's bit for bit; the rest untouched.
void expect_targets_match(const Output& some, const Output& all, int begin, int end,
                          const std::string& label) {
  for (int k = 0; k < 10; ++k) {
    const auto& got = some.value[k];
    const auto& want = all.value[k];
    for (std::size_t i = 0; i < got.size(); ++i) {
      const bool target = static_cast<int>(i) >= begin && static_cast<int>(i) < end;
      if (target) {
        ASSERT_EQ(got[i], want[i]) << label << ": array " << k << ", particle " << i;
        ASSERT_NE(want[i], kMarker) << label;
      } else {
        ASSERT_EQ(got[i], kMarker)
            << label << ": array " << k << ", particle " << i << " is not a target";
      }
    }
  }
}

template <Precision P>
void check_bonded() {
  using PairT = novamd::forces::PairTypeOf<P>;
  auto s = novamd::test::random_chains(2000, 5, 24.0, 43);
  novamd::test::add_angles_and_torsions(s.topology, 2000, 5);
  for (const auto& family : novamd::test::angle_and_torsion_families()) s.bonded.push_back(family);
  novamd::core::CudaStream stream;
  const DeviceInput<PairT> device(s.particles, s.box, stream.get());
  auto whole = novamd::forces::make_cuda_bonded_terms<P>(s.bonded, s.topology, nullptr);
  auto part = novamd::forces::make_cuda_bonded_terms<P>(s.bonded, s.topology, nullptr);
  const int n = static_cast<int>(s.particles.size());
  ASSERT_TRUE(part->restricts_targets(n, s.box));
  const Output all = evaluate(*whole, device.input(0, -1), false, stream);
  for (const auto& [begin, end] :
       {std::pair{n / 4, n / 4 + n / 3}, std::pair{0, n / 2}, std::pair{n / 2, n},
        std::pair{n, n}}) {  // the last: a rank without particles
    const Output some = evaluate(*part, device.input(begin, end), false, stream);
    expect_targets_match(some, all, begin, end,
                         "bonded [" + std::to_string(begin) + ", " + std::to_string(end) + ")");
  }
}

TEST(CudaSpatialMolecular, BondedTermsOfATargetRangeMatchTheWholeBitwise) {
  SKIP_WITHOUT_GPU();
  check_bonded<Precision::Double>();
  check_bonded<Precision::Mixed>();
}

/// 510 random ions with a net charge in a 24 x 25 x 26 A box, and PME's settings resolved.
struct Ions {
  novamd::core::UnitSystem units;
  novamd::core::ParticleData particles;
  novamd::core::Box box;
  novamd::forces::CoulombSettings coulomb;
};

Ions random_ions() {
  const auto config = novamd::io::parse_config(
      "units: real\n"
      "seed: 29\n"
      "system:\n"
      "  box: [24.0, 25.0, 26.0]\n"
      "  species: [{name: Na, charge: 1, mass: 22.99}, {name: Cl, charge: -1, mass: 35.45}]\n"
      "  structure: {generate: {lattice: random, counts: {Na: 260, Cl: 250}, "
      "min_separation: 2.2}}\n"
      "forces:\n"
      "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1.0e-5, order: 5}\n"
      "integrator: {type: velocity_verlet, timestep: 1.0}\n"
      "run: {steps: 0}\n",
      "ions.yaml");
  auto initial = novamd::io::build_initial_system(config);
  auto forces = config.forces;
  novamd::forces::resolve_kspace(forces, initial.box);
  return {config.units, std::move(initial.particles), initial.box,
          std::get<novamd::forces::CoulombSettings>(forces[0])};
}

template <Precision P>
void check_pme() {
  using PairT = novamd::forces::PairTypeOf<P>;
  const Ions ions = random_ions();
  novamd::core::CudaStream stream;
  const DeviceInput<PairT> device(ions.particles, ions.box, stream.get());
  const auto& q = ions.particles.charge;
  const auto make = [&] {
    return novamd::forces::make_cuda_kspace_term<P>(nullptr, ions.coulomb, ions.units, q);
  };
  auto whole = make();
  const Output all = evaluate(*whole, device.input(0, -1), true, stream);
  const int n = static_cast<int>(q.size()), cut = n / 3;
  ASSERT_TRUE(make()->restricts_targets(n, ions.box));
  // Rank 1's mesh alone first (kept), then rank 0 with rank 1's added (its own kept), then
  // rank 1 with rank 0's added: each sum is the whole mesh.
  std::vector<std::uint64_t> mesh_of[2];
  const auto rank_term = [&](int rank, int other, bool add) {
    auto term = make();
    term->share_over_ranks([&, rank, other, add](std::uint64_t* data, std::size_t count) {
      mesh_of[rank].assign(data, data + count);
      if (add)
        for (std::size_t i = 0; i < count; ++i) data[i] += mesh_of[other][i];
    });
    return term;
  };
  auto first_pass = rank_term(1, 0, false);
  evaluate(*first_pass, device.input(cut, n), true, stream);
  auto rank0 = rank_term(0, 1, true);
  const Output some0 = evaluate(*rank0, device.input(0, cut), true, stream);
  auto rank1 = rank_term(1, 0, true);
  const Output some1 = evaluate(*rank1, device.input(cut, n), true, stream);
  expect_targets_match(some0, all, 0, cut, "PME, rank 0");
  expect_targets_match(some1, all, cut, n, "PME, rank 1");
  // A third rank without particles: its (empty) mesh summed with the others', nothing written.
  auto empty = make();
  empty->share_over_ranks([&](std::uint64_t* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) data[i] += mesh_of[0][i] + mesh_of[1][i];
  });
  const Output none = evaluate(*empty, device.input(n, n), true, stream);
  expect_targets_match(none, all, n, n, "PME, a rank without particles");
}

TEST(CudaSpatialMolecular, PmeOverTwoRangesWithTheirMeshesSummedMatchesTheWholeBitwise) {
  SKIP_WITHOUT_GPU();
  check_pme<Precision::Double>();
  check_pme<Precision::Mixed>();
}

}  // namespace
