#include "novamd/app/backend_setup.hpp"

#include <utility>

namespace novamd::app {

backend::BackendSetup backend_setup_of(const io::Config& config, const core::Box& box,
                                       core::ParticleData particles, io::MolecularSystem molecular,
                                       std::shared_ptr<const parallel::Communicator> communicator) {
  backend::BackendSetup setup{config.units,
                              config.system.species,
                              box,
                              std::move(particles),
                              config.forces,
                              config.precision,
                              config.neighbors,
                              std::move(communicator),
                              std::move(molecular.topology),
                              std::move(molecular.bonded)};
  setup.components = config.system.components;
  if (config.rigid_sites) setup.rigid_sites = *config.rigid_sites;
  return setup;
}

}  // namespace novamd::app
