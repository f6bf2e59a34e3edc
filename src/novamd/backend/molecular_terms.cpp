#include "novamd/backend/molecular_terms.hpp"

#include <algorithm>
#include <string>

#include "novamd/core/error.hpp"

namespace novamd::backend {

bool has_excluded_pairs(const BackendSetup& setup, bool decomposed) {
  const bool excluded = setup.topology.excludes_pairs();
  if (decomposed && (excluded || !setup.bonded.empty()))
    throw core::InputError(
        "bonded terms and bonds are not supported with the force-matrix decomposition "
        "(parallel.grid); run molecular systems on one rank");
  return excluded;
}

core::HeldDistances held_distances_for(const BackendSetup& setup) {
  return setup.leave_out_held_terms ? constraints::held_distances_of(setup.constraint_plan)
                                    : core::HeldDistances{};
}

void prepare_rigid_fields(core::ParticleData& particles, bool decomposed, const char* what) {
  if (decomposed)
    throw core::InputError(std::string("system.components: rigid molecules run on one ") + what +
                           "; this run has a force-matrix grid over several (run it on one " +
                           what + ")");
  if (!particles.has(particles.orientation)) {
    particles.enable(particles.orientation);
    std::fill(particles.orientation.w.begin(), particles.orientation.w.end(), 1.0);
  }
  if (!particles.has(particles.angular_momentum)) particles.enable(particles.angular_momentum);
  if (!particles.has(particles.torque)) particles.enable(particles.torque);
}

}  // namespace novamd::backend
