#include "novamd/forces/cpu_bonded_force.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "novamd/core/id_index_map.hpp"
#include "novamd/forces/bonded_gather.hpp"
#include "novamd/forces/held_terms.hpp"

namespace novamd::forces {
namespace {

template <class Evaluator>
class CpuBondedForce final : public CpuForceTerm {
 public:
  static constexpr int K = Evaluator::kParticles;

  CpuBondedForce(HeldSplit<K> split, std::vector<typename Evaluator::Params> params,
                 std::int32_t particle_count)
      : terms_(std::move(split.evaluated)),
        held_energy_(std::move(split.held_energy)),
        params_(std::move(params)),
        rows_(core::memberships_of(terms_, particle_count)) {}

  void add_to(const core::ParticleData& particles, const core::Box& box,
              neighbors::ForceBuffers& out, bool with_energy) override {
    if (map_stale_ || map_.size() != particles.size()) {
      map_.rebuild(particles.id.data(), particles.size());
      map_stale_ = false;
    }
    const BondedGather<Evaluator> gather{
        {terms_.type.data(), terms_.ids.data(), static_cast<std::int32_t>(terms_.size())},
        params_.data(),
        rows_.offsets.data(),
        rows_.entries.data(),
        particles.position.x.data(),
        particles.position.y.data(),
        particles.position.z.data(),
        particles.id.data(),
        map_.indices().data(),
        box.view<double>()};
    const auto n = static_cast<std::ptrdiff_t>(particles.size());
    const std::ptrdiff_t begin = std::min(targets_.first, n), end = std::min(targets_.second, n);
    if (with_energy) {
      add_shares<true>(gather, begin, end, out);
      add_held_energy(particles, begin, end, out);
    } else {
      add_shares<false>(gather, begin, end, out);
    }
  }

  /// Each particle gathers its own share: restricted, the others are left out (their partners
  /// must be current: spatial_domain.hpp's halo holds them).
  bool restrict_targets(std::size_t begin, std::size_t end) override {
    targets_ = {static_cast<std::ptrdiff_t>(begin), static_cast<std::ptrdiff_t>(end)};
    return true;
  }

  // The storage order changed: the id map is rebuilt at the next evaluation.
  void invalidate_lists() override { map_stale_ = true; }
  void follow_box(const core::Box&) override {}  // the map knows no positions
  void restore_neighbors(const neighbors::NeighborState&, const core::ParticleData&,
                         const core::Box&) override {
    map_stale_ = true;
  }

 private:
  template <bool WithEnergy>
  static void add_shares(const BondedGather<Evaluator>& gather, std::ptrdiff_t begin,
                         std::ptrdiff_t end, neighbors::ForceBuffers& out) {
#pragma omp parallel for schedule(static) if (end - begin >= 4096)
    for (std::ptrdiff_t i = begin; i < end; ++i) {
      const BondedShare s = gather.template share<WithEnergy>(static_cast<int>(i));
      out.force.x[i] += s.force.x;
      out.force.y[i] += s.force.y;
      out.force.z[i] += s.force.z;
      if constexpr (WithEnergy) {
        out.energy[i] += s.energy;
        for (int k = 0; k < core::kTensorComponents; ++k) out.virial[k][i] += s.virial.c[k];
      }
    }
  }

  /// Each particle's share of the held terms' constant energy (held_terms.hpp).
  void add_held_energy(const core::ParticleData& particles, std::ptrdiff_t begin,
                       std::ptrdiff_t end, neighbors::ForceBuffers& out) const {
    if (held_energy_.empty()) return;
    for (std::ptrdiff_t i = begin; i < end; ++i)
      out.energy[i] += held_energy_[std::size_t(particles.id[i])];
  }

  core::TermList<K> terms_;  ///< those not held
  std::vector<double> held_energy_;
  std::vector<typename Evaluator::Params> params_;
  core::TermMemberships rows_;
  core::IdIndexMap map_;
  bool map_stale_ = true;
  /// The slots whose shares are computed (restrict_targets): every slot by default.
  std::pair<std::ptrdiff_t, std::ptrdiff_t> targets_{0, PTRDIFF_MAX};
};

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_bonded_force(const BondedSettings& settings,
                                                    const core::Topology& topology,
                                                    const core::HeldDistances* held) {
  check_term_types(settings, topology);
  return std::visit(
      [&](const auto& s) -> std::unique_ptr<CpuForceTerm> {
        using Evaluator = typename std::decay_t<decltype(s)>::Evaluator;
        return std::make_unique<CpuBondedForce<Evaluator>>(
            split_held_terms<Evaluator>(s.terms_of(topology), s.types, held,
                                        topology.particle_count()),
            s.types, topology.particle_count());
      },
      settings);
}

}  // namespace novamd::forces
