#pragma once
/// @file backend_setup.hpp
/// The backend's setup from a config, as every command that builds a backend fills it (run,
/// check, bench): units, species, force terms, precision and neighbour settings, the topology's
/// terms, and the rigid molecules' components and their `rigid_sites` term where the config has
/// them. Constraints and the barostat's molecules are the run's own (simulation.cpp adds them).

#include <memory>

#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/molecular_system.hpp"

namespace novamd::app {

backend::BackendSetup backend_setup_of(
    const io::Config& config, const core::Box& box, core::ParticleData particles,
    io::MolecularSystem molecular = {},
    std::shared_ptr<const parallel::Communicator> communicator = nullptr);

}  // namespace novamd::app
