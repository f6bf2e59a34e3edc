#pragma once
/// @file check_command.hpp
/// `novamd check CONFIG`: the forces of the config's first step against a reference computed
/// from the same positions, as seed 001's CPU-versus-GPU comparison mode does. Prints the RMS
/// force error (absolute and relative to the RMS force), the worst particle (id, error, force),
/// and the potential energy and virial of both.
///
///   --against ewald   smooth PME against the exact Ewald sum of the same alpha (wave vectors to
///                     a relative size of 1e-12), on the same backend and precision
///   --against cpu     the config's backend and precision against the CPU backend in double
///   --against auto    ewald where a coulomb term uses pme, else cpu (the default)
///
/// With --tolerance X the command fails (exit code 1) when the relative RMS force error exceeds
/// X, so that scripts can use it.

#include <optional>
#include <string>

#include "novamd/app/simulation.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace novamd::app {

struct CheckOptions {
  SimulationInput input;
  std::string against = "auto";     ///< auto | ewald | cpu
  std::optional<double> tolerance;  ///< the relative RMS force error allowed
};

/// Returns the exit code; throws core::InputError (exit 2) on bad input. One rank.
int check_command(const CheckOptions& options, const parallel::MpiSession& session);

}  // namespace novamd::app
