#pragma once
/// @file run_command.hpp
/// `novamd run CONFIG [--backend] [--precision] [--steps] [--set key.path=value ...]
///  [--restart FILE]`

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "novamd/app/simulation.hpp"
#include "novamd/io/config.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace novamd::app {

/// `novamd run`'s input: the config, --set overrides and --restart.
using RunOptions = SimulationInput;

/// Loads and validates the config, runs it, prints the summary. Returns the exit code;
/// throws core::InputError (exit 2) or core::RunError (exit 1). Under MPI every rank of
/// `session` calls it: they run the force-matrix decomposition (parallel/), rank 0 writes the
/// files; a failure while setting up is agreed by all ranks (app/rank_agreement.hpp).
int run_command(const RunOptions& options, const parallel::MpiSession& session);
/// One rank, without MPI.
int run_command(const RunOptions& options);

/// "key.path=value" -> Override; throws core::InputError on a missing '='.
io::Override parse_override(const std::string& text);

}  // namespace novamd::app
