#include "novamd/forces/cpu_rigid_molecules.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace novamd::forces {

CpuRigidMolecules::CpuRigidMolecules(RigidModel model, double skin,
                                     const std::optional<CoulombSettings>& kspace)
    : model_(std::move(model)),
      list_(model_.cutoff ? *model_.cutoff : throw std::logic_error("rigid molecules: no cutoff"),
            skin) {
  if (kspace) kspace_.emplace(model_, *kspace);
}

void CpuRigidMolecules::add_to(const core::ParticleData& particles, const core::Box& box,
                               neighbors::ForceBuffers& out, bool with_energy) {
  add_forces_and_torques(particles, box, out.force, out.torque,
                         with_energy ? RigidShares{&out.energy, &out.virial} : RigidShares{});
}

void CpuRigidMolecules::invalidate_lists() {
  earlier_builds_ += list_.builds();
  list_ = neighbors::VerletList(list_.cutoff(), list_.skin());
  list_.set_targets(target_begin_, target_end_);
}

bool CpuRigidMolecules::restrict_targets(std::size_t begin, std::size_t end) {
  if (kspace_ && !kspace_->restrict_targets(begin, end)) return false;
  target_begin_ = begin;
  target_end_ = end;
  list_.set_targets(begin, end);
  return true;
}

void CpuRigidMolecules::share_over_ranks(RankSum sum) {
  if (kspace_) kspace_->share_over_ranks(std::move(sum));
}

neighbors::NeighborState CpuRigidMolecules::neighbor_state() const {
  return {0, list_builds(), list_.built_at(), list_.built_box()};
}

void CpuRigidMolecules::restore_neighbors(const neighbors::NeighborState& state,
                                          const core::ParticleData& particles,
                                          const core::Box& box) {
  earlier_builds_ = 0;
  list_ = neighbors::VerletList(list_.cutoff(), list_.skin());
  list_.set_targets(target_begin_, target_end_);
  if (state.built_at.size() > 0) {
    list_.restore(particles, state.built_at, state.builds, state.built_box, box);
  } else {
    earlier_builds_ = state.builds;
  }
}

namespace {

/// Every target molecule's (slots [begin, end)) force and torque from its full list
/// (thread-owned: j's own visit gives j's torque), and with kEnergy half of each pair's energy
/// and virial into its shares.
template <bool kEnergy>
void add_over_lists(const neighbors::VerletList& list, const PlacedSites& placed,
                    const core::ParticleData& particles, const core::Box& box, double cutoff,
                    const RigidPairParams<double>& params, std::size_t begin, std::size_t end,
                    core::Vec3Array& force, core::Vec3Array& torque, RigidShares shares) {
  const auto view = box.view<double>();
  const double rc2 = cutoff * cutoff;
  const auto& start = list.start();
  const auto& neighbors = list.neighbors();
  const auto first = static_cast<std::int64_t>(std::min(begin, particles.size()));
  const auto last = static_cast<std::int64_t>(std::min(end, particles.size()));
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t ii = first; ii < last; ++ii) {
    const auto i = static_cast<std::size_t>(ii);
    const auto xi = particles.position.get(i);
    core::Vec3<double> f{}, tau{};
    double energy = 0.0;
    core::SymmetricTensor<double> virial;
    for (std::int64_t k = start[i]; k < start[i + 1]; ++k) {
      const auto j = static_cast<std::size_t>(neighbors[static_cast<std::size_t>(k)]);
      const auto r = view.minimum_image(xi - particles.position.get(j));
      if (core::dot(r, r) >= rc2) continue;
      const auto pair = molecule_pair<double, kEnergy, false>(
          placed.of(i), placed.count(i), placed.of(j), placed.count(j), r, params);
      f += pair.force_on_i;
      tau += pair.torque_on_i;
      if constexpr (kEnergy) {
        energy += pair.energy;
        virial.add_symmetrized_outer(r.x, r.y, r.z, pair.force_on_i.x, pair.force_on_i.y,
                                     pair.force_on_i.z);
      }
    }
    force.set(i, force.get(i) + f);
    torque.set(i, torque.get(i) + tau);
    if constexpr (kEnergy) {
      if (shares.energy) (*shares.energy)[i] += 0.5 * energy;
      if (shares.virial)
        for (int c = 0; c < core::kTensorComponents; ++c)
          (*shares.virial)[static_cast<std::size_t>(c)][i] += 0.5 * virial.c[c];
    }
  }
}

}  // namespace

void CpuRigidMolecules::add_forces_and_torques(const core::ParticleData& particles,
                                               const core::Box& box, core::Vec3Array& force,
                                               core::Vec3Array& torque, RigidShares shares) {
  list_.update(particles, box);
  place_all(model_, particles, placed_);
  const RigidPairParams<double> params = model_.params();
  if (shares.energy || shares.virial) {
    add_over_lists<true>(list_, placed_, particles, box, *model_.cutoff, params, target_begin_,
                         target_end_, force, torque, shares);
  } else {
    add_over_lists<false>(list_, placed_, particles, box, *model_.cutoff, params, target_begin_,
                          target_end_, force, torque, shares);
  }
  if (kspace_) kspace_->add_to(particles, placed_, box, force, torque, shares);
}

}  // namespace novamd::forces
