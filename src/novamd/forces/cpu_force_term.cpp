#include "novamd/forces/cpu_force_term.hpp"

#include "novamd/neighbors/all_pairs_cpu.hpp"

namespace novamd::forces {
namespace {

/// A pair force evaluated over all pairs: Evaluator in PairT arithmetic, sums in AccT.
template <class Evaluator, class AccT>
class CpuAllPairsForce final : public CpuForceTerm {
 public:
  explicit CpuAllPairsForce(physics::PairTable<typename Evaluator::Params> table)
      : table_(std::move(table)) {}

  void add_to(const core::ParticleData& particles, const core::Box& box,
              ForceBuffers& out) const override {
    neighbors::all_pairs_cpu<Evaluator, AccT>(particles, box.view<double>(), table_.view(), out);
  }

 private:
  physics::PairTable<typename Evaluator::Params> table_;
};

template <core::Precision P>
std::unique_ptr<CpuForceTerm> make_term(const ForceSettings& settings,
                                        const core::SpeciesTable& species,
                                        const core::UnitSystem& units) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  return with_evaluator<PairT>(
      settings, species, units, [&]<class Evaluator>(auto table) -> std::unique_ptr<CpuForceTerm> {
        return std::make_unique<CpuAllPairsForce<Evaluator, AccT>>(std::move(table));
      });
}

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_force_term(const ForceSettings& settings,
                                                  const core::SpeciesTable& species,
                                                  const core::UnitSystem& units,
                                                  core::Precision precision) {
  switch (precision) {
    case core::Precision::Double:
      return make_term<core::Precision::Double>(settings, species, units);
    case core::Precision::Mixed:
      return make_term<core::Precision::Mixed>(settings, species, units);
    case core::Precision::Single:
      return make_term<core::Precision::Single>(settings, species, units);
  }
  return nullptr;
}

}  // namespace novamd::forces
