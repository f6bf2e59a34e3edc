// Every force term of the case table (support/force_term_cases.hpp) on every CUDA traversal and
// in every precision, against the CPU's all-pairs reference in double, through the same body as
// the CPU's ForceTerms (support/force_term_check.hpp): fresh random input, particles moved under
// half the skin, one particle jumped (lists rebuilt), particles removed. Each traversal runs in
// each of its launch shapes (1, 2, 4 or 8 lanes per target for cell and Verlet lists; the chunked
// and the each-pair-once all-pairs kernels; Verlet lists also as cluster pairs, with their
// fixed-point sums in the bounds), and a second set of terms repeats the sequence bitwise. This
// file supplies only the CUDA force terms. Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "support/force_term_cases.hpp"
#include "support/force_term_check.hpp"

namespace {

using novamd::core::Precision;
using novamd::neighbors::ListLayout;
using novamd::neighbors::NeighborMethod;
using novamd::test::Evaluation;

/// How the terms are launched: the lanes per target that the list and cell kernels take
/// (lanes_per_target sees 2 n lanes resident threads), the multiprocessors the all-pairs
/// kernels plan for (132: the chunked kernel for a few hundred particles; 1: each pair once),
/// and the Verlet lists' layout.
struct Launch {
  const char* name;
  int lanes;
  int multiprocessors;
  ListLayout layout = ListLayout::Atoms;
};

std::vector<Launch> launches(NeighborMethod method) {
  if (method == NeighborMethod::AllPairs) return {{"chunked", 1, 132}, {"each pair once", 1, 1}};
  std::vector<Launch> all{
      {"1 lane", 1, 132}, {"2 lanes", 2, 132}, {"4 lanes", 4, 132}, {"8 lanes", 8, 132}};
  if (method == NeighborMethod::NeighborList)
    all.push_back({"clusters", 1, 132, ListLayout::Clusters});
  return all;
}

/// The setup's force terms as the CUDA backend builds them (make_cuda_force_term<P>), kept
/// between evaluations; positions packed in the pair type, as the backend packs them.
template <Precision P>
novamd::test::Evaluate cuda_terms(const novamd::backend::BackendSetup& s, Launch launch) {
  using PairT = novamd::forces::PairTypeOf<P>;
  struct State {
    novamd::core::CudaStream stream;
    std::vector<std::unique_ptr<novamd::forces::CudaForceTerm<PairT>>> terms;
    novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions;
    novamd::neighbors::DeviceForceArrays<double> out;
  };
  auto state = std::make_shared<State>();
  auto neighbors = s.neighbors;
  neighbors.layout = launch.layout;
  for (const auto& f : s.forces) {
    state->terms.push_back(
        novamd::forces::make_cuda_force_term<P>(f, s.species, s.units, neighbors, s.box));
  }
  return [state, launch, box = s.box](const novamd::core::ParticleData& p) {
    const int n = static_cast<int>(p.size());
    std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
    for (int i = 0; i < n; ++i) {
      packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                   p.type[i]};
    }
    auto& st = *state;
    st.positions.copy_from_host(packed, st.stream.get());
    st.out.resize(n);
    const novamd::forces::CudaForceInput<PairT> input{st.positions.data(),
                                                      n,
                                                      box.view<PairT>(),
                                                      box,
                                                      launch.multiprocessors,
                                                      2 * n * launch.lanes,
                                                      std::nullopt,  // the whole matrix
                                                      0};
    for (std::size_t k = 0; k < st.terms.size(); ++k) {  // the first writes, the others add
      st.terms[k]->add_to(input, st.out.view(), {k > 0, true}, st.stream.get());
    }
    Evaluation e;
    std::vector<double> energy;
    std::vector<double> virial[novamd::core::kTensorComponents];
    st.out.fx.copy_to_host(e.fx, st.stream.get());
    st.out.fy.copy_to_host(e.fy, st.stream.get());
    st.out.fz.copy_to_host(e.fz, st.stream.get());
    st.out.energy.copy_to_host(energy, st.stream.get());
    for (int q = 0; q < novamd::core::kTensorComponents; ++q)
      st.out.virial[q].copy_to_host(virial[q], st.stream.get());
    st.stream.synchronize();
    for (int i = 0; i < n; ++i) {  // the per-particle shares in order, as the backend's sums
      e.energy += energy[i];
      for (int q = 0; q < novamd::core::kTensorComponents; ++q) e.virial.c[q] += virial[q][i];
    }
    for (const auto& term : st.terms) e.list_builds += term->list_builds();
    return e;
  };
}

template <Precision P>
void check_every_launch(const novamd::test::ForceTermCase& c, NeighborMethod method) {
  for (const auto& launch : launches(method)) {
    const auto make = [launch](const novamd::backend::BackendSetup& s) {
      return cuda_terms<P>(s, launch);
    };
    const std::string label = std::string("CudaForceTerms (") + launch.name + ")";
    const auto arithmetic = launch.layout == ListLayout::Clusters
                                ? novamd::test::cuda_cluster_arithmetic(P)
                                : novamd::test::cuda_arithmetic(P);
    const auto first = novamd::test::check_force_terms(c, method, P, arithmetic, make, label);
    const auto again = novamd::test::evaluate_phases(c, method, P, make);
    ASSERT_EQ(first.size(), again.size()) << label;
    for (std::size_t k = 0; k < first.size(); ++k) {  // no float atomics: the same bits
      EXPECT_EQ(first[k].fx, again[k].fx) << label << ", phase " << k << ": not bitwise repeatable";
      EXPECT_EQ(first[k].fy, again[k].fy) << label << ", phase " << k << ": not bitwise repeatable";
      EXPECT_EQ(first[k].fz, again[k].fz) << label << ", phase " << k << ": not bitwise repeatable";
      EXPECT_EQ(first[k].energy, again[k].energy) << label << ", phase " << k;
      EXPECT_EQ(first[k].virial, again[k].virial) << label << ", phase " << k;
    }
  }
}

using Param = novamd::test::ForceTermParam;

class CudaForceTerms : public testing::TestWithParam<Param> {};

TEST_P(CudaForceTerms, MatchTheDoubleAllPairsReference) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto [index, method, precision] = GetParam();
  const auto& c = novamd::test::force_term_cases()[index];
  switch (precision) {
    case Precision::Double:
      check_every_launch<Precision::Double>(c, method);
      break;
    case Precision::Mixed:
      check_every_launch<Precision::Mixed>(c, method);
      break;
    case Precision::Single:
      check_every_launch<Precision::Single>(c, method);
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(, CudaForceTerms, novamd::test::every_force_term_param(),
                         novamd::test::force_term_param_name);

}  // namespace
