// Lennard-Jones and real-space Coulomb in one pass over one Verlet list on the GPU
// (forces/pair_sum_terms.hpp): the kernels of physics::PairSum for each Lennard-Jones cutoff
// form (cut or energy shift, force shift, CHARMM switch) with the Ewald split's erfc-screened
// Coulomb, in every precision.
#include "novamd/forces/cuda_pair_force.cuh"
#include "novamd/forces/pair_sum_terms.hpp"

namespace novamd::forces {

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_lj_coulomb_force(
    const LennardJonesSettings& lj, const CoulombSettings& coulomb,
    const core::SpeciesTable& species, const core::UnitSystem& units,
    const neighbors::NeighborSettings& neighbors, const core::Box& box, bool excluded_pairs) {
  using PairT = PairTypeOf<P>;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  const double cutoff = lj.cutoff;
  const auto method = neighbors::resolve_method(neighbors, cutoff, box.shortest_edge());
  return with_lj_coulomb_sum<PairT>(
      lj, coulomb, species, units,
      [&]<class Sum>(const auto& table) -> std::unique_ptr<CudaForceTerm<PairT>> {
        auto term = std::make_unique<CudaPairForce<Sum, AccT>>(
            table, method, cutoff, neighbors.skin_for(cutoff, box.shortest_edge()),
            neighbors.check_every, neighbors.layout, excluded_pairs);
        term->set_separate_terms(
            make_cuda_pair_force<P>(lj, species, units, neighbors, box, excluded_pairs),
            make_cuda_pair_force<P>(coulomb, species, units, neighbors, box, excluded_pairs));
        return term;
      });
}

#define NOVAMD_LJ_COULOMB_FORCE(P)                                                      \
  template std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_lj_coulomb_force<P>( \
      const LennardJonesSettings&, const CoulombSettings&, const core::SpeciesTable&,   \
      const core::UnitSystem&, const neighbors::NeighborSettings&, const core::Box&, bool);
NOVAMD_LJ_COULOMB_FORCE(core::Precision::Double)
NOVAMD_LJ_COULOMB_FORCE(core::Precision::Mixed)
NOVAMD_LJ_COULOMB_FORCE(core::Precision::Single)
#undef NOVAMD_LJ_COULOMB_FORCE

}  // namespace novamd::forces
