// The CUDA pair terms' Verlet lists restricted to a range of targets (CudaForceInput's
// target_begin and target_end: a spatial decomposition's owned particles), on the cases of
// support/force_term_cases.hpp whose terms run over per-particle lists, in every precision,
// through the phases of support/force_term_check.hpp (fresh random input, moves under half the
// skin, a jump, particles removed). Two sets of terms share the particles: one over every
// target, one over a range (a third of the particles from a quarter on, then another range
// after the jump). Each target's list holds the same candidates in the same cell order, and its
// lanes take the same shares, so the restricted terms' forces and energy shares on their
// targets are the whole lists' bit for bit; the entries of other particles are left as they
// were (here: a marker value). lists_due says what the next evaluation does: due before the
// first build and after the jump, not after moves under half the skin. Skipped where no CUDA
// device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "support/force_term_cases.hpp"
#include "support/force_term_check.hpp"

namespace {

using novamd::core::Precision;
using novamd::neighbors::ListLayout;
using novamd::neighbors::NeighborMethod;

constexpr double kMarker = 12345.0;  // the restricted terms' output before each evaluation

template <Precision P>
struct Terms {
  using PairT = novamd::forces::PairTypeOf<P>;
  std::vector<std::unique_ptr<novamd::forces::CudaForceTerm<PairT>>> terms;
  novamd::neighbors::DeviceForceArrays<double> out;
};

template <Precision P>
Terms<P> make_terms(const novamd::backend::BackendSetup& s) {
  Terms<P> t;
  auto neighbors = s.neighbors;
  neighbors.layout = ListLayout::Atoms;
  for (const auto& f : s.forces)
    t.terms.push_back(
        novamd::forces::make_cuda_force_term<P>(f, s.species, s.units, neighbors, s.box));
  return t;
}

struct Output {
  std::vector<double> fx, fy, fz, energy;
};

/// The terms' evaluation over `targets` (begin, end; end -1: every particle), the output
/// filled with kMarker first.
template <Precision P>
Output evaluate(Terms<P>& t, const novamd::forces::CudaForceInput<typename Terms<P>::PairT>& base,
                int begin, int end, novamd::core::CudaStream& stream) {
  auto input = base;
  input.target_begin = begin;
  input.target_end = end;
  const int n = input.n;
  t.out.resize(n);
  const std::vector<double> marker(n, kMarker);
  for (auto* a : {&t.out.fx, &t.out.fy, &t.out.fz, &t.out.energy})
    a->copy_from_host(marker, stream.get());
  for (std::size_t k = 0; k < t.terms.size(); ++k)
    t.terms[k]->add_to(input, t.out.view(), {k > 0, true}, stream.get());
  Output o;
  t.out.fx.copy_to_host(o.fx, stream.get());
  t.out.fy.copy_to_host(o.fy, stream.get());
  t.out.fz.copy_to_host(o.fz, stream.get());
  t.out.energy.copy_to_host(o.energy, stream.get());
  stream.synchronize();
  return o;
}

template <Precision P>
void check_case(const novamd::test::ForceTermCase& c) {
  using PairT = typename Terms<P>::PairT;
  const auto s = novamd::test::setup_of(c, NeighborMethod::NeighborList, P);
  for (const auto& f : s.forces) {  // lists need three cells of their reach along each edge
    const double cutoff = novamd::forces::cutoff_of(f);
    if (!std::isfinite(cutoff) ||
        !novamd::neighbors::holds_three_cells(
            s.box, cutoff + s.neighbors.skin_for(cutoff, s.box.shortest_edge()),
            s.particles.size()))
      GTEST_SKIP() << c.name << ": no per-particle lists in this box";
  }
  auto whole = make_terms<P>(s);
  auto part = make_terms<P>(s);
  for (const auto& term : part.terms)
    if (!term->restricts_targets(static_cast<int>(s.particles.size()), s.box))
      GTEST_SKIP() << c.name << ": a term without per-particle lists";
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions;
  int phase_index = 0;
  for (const auto& phase : novamd::test::phases_of(c, s)) {
    const auto& p = phase.particles;
    const int n = static_cast<int>(p.size());
    std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
    for (int i = 0; i < n; ++i)
      packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                   p.type[i]};
    positions.copy_from_host(packed, stream.get());
    const novamd::forces::CudaForceInput<PairT> input{
        positions.data(), n, s.box.view<PairT>(), s.box, 132, 2 * n, std::nullopt, 0};
    // The range: from a quarter on, a third of the particles; after the jump another one.
    const int begin = phase_index < 2 ? n / 4 : n / 2;
    const int end = std::min(n, begin + n / 3);
    const std::string label = c.name + ", phase " + phase.name;
    auto restricted_input = input;
    restricted_input.target_begin = begin;
    restricted_input.target_end = end;
    bool due = false;
    for (const auto& term : part.terms)
      due = term->lists_due(restricted_input, stream.get()) || due;
    // Due where the lists are new (fresh, a new range, fewer particles) or a particle jumped.
    const bool expect_due = phase_index != 1;
    EXPECT_EQ(due, expect_due) << label;
    const Output all = evaluate<P>(whole, input, 0, -1, stream);
    const Output some = evaluate<P>(part, input, begin, end, stream);
    for (int i = 0; i < n; ++i) {
      const bool target = i >= begin && i < end;
      if (target) {  // the same lists, the same sums: bit for bit
        ASSERT_EQ(some.fx[i], all.fx[i]) << label << ", particle " << i;
        ASSERT_EQ(some.fy[i], all.fy[i]) << label << ", particle " << i;
        ASSERT_EQ(some.fz[i], all.fz[i]) << label << ", particle " << i;
        ASSERT_EQ(some.energy[i], all.energy[i]) << label << ", particle " << i;
        ASSERT_NE(all.fx[i], kMarker) << label;
      } else {  // not a target: untouched
        ASSERT_EQ(some.fx[i], kMarker) << label << ", particle " << i;
        ASSERT_EQ(some.energy[i], kMarker) << label << ", particle " << i;
      }
    }
    ++phase_index;
  }
}

class CudaSpatialLists : public testing::TestWithParam<std::size_t> {};

TEST_P(CudaSpatialLists, RestrictedTargetsGetTheWholeListsForcesBitForBit) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto& c = novamd::test::force_term_cases()[GetParam()];
  check_case<Precision::Double>(c);
  check_case<Precision::Mixed>(c);
  check_case<Precision::Single>(c);
}

INSTANTIATE_TEST_SUITE_P(, CudaSpatialLists,
                         testing::Range<std::size_t>(0, novamd::test::force_term_cases().size()),
                         [](const testing::TestParamInfo<std::size_t>& info) {
                           return novamd::test::force_term_cases()[info.param].name;
                         });

}  // namespace
