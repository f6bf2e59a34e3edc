#include "novamd/forces/cpu_force_term.hpp"

#include <cmath>

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

/// With no cutoff the bare potential is evaluated; with one, the truncated potential.
template <core::Precision P, class Settings>
std::unique_ptr<CpuForceTerm> make_term(const Settings& settings, const core::SpeciesTable& species,
                                        const core::UnitSystem& units) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  if (std::isinf(settings.cutoff)) {
    using Potential = typename Settings::template Potential<PairT>;
    return std::make_unique<CpuAllPairsForce<Potential, AccT>>(
        settings.template potential_table<PairT>(species, units));
  }
  using Evaluator = typename Settings::template Evaluator<PairT>;
  return std::make_unique<CpuAllPairsForce<Evaluator, AccT>>(
      settings.template pair_table<PairT>(species, units));
}

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_force_term(const ForceSettings& settings,
                                                  const core::SpeciesTable& species,
                                                  const core::UnitSystem& units,
                                                  core::Precision precision) {
  return std::visit(
      [&](const auto& s) -> std::unique_ptr<CpuForceTerm> {
        switch (precision) {
          case core::Precision::Double: return make_term<core::Precision::Double>(s, species, units);
          case core::Precision::Mixed: return make_term<core::Precision::Mixed>(s, species, units);
          case core::Precision::Single: return make_term<core::Precision::Single>(s, species, units);
        }
        return nullptr;
      },
      settings);
}

}  // namespace novamd::forces
