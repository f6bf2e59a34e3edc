#pragma once
/// @file config_dynamics.hpp
/// The `integrator`, `run`, `output` and `constraints` sections of the config, validated key by
/// key.

#include "novamd/io/config.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// `integrator: {type, timestep, temperature, friction, tau, chain}`.
IntegratorSettings parse_integrator(const YamlReader& node, const core::UnitSystem& units);

/// `barostat: {type, pressure, period, compressibility, coupling, every}` for a run with
/// `integrator` (which must have a thermostat).
integrate::BarostatSettings parse_barostat(const YamlReader& node, const core::UnitSystem& units,
                                           const IntegratorSettings& integrator);

/// `run: {steps, walltime}`.
/// `run`, with its stages' integrators starting from `integrator` (and each checked against
/// `barostat`, which needs a thermostat throughout).
RunSettings parse_run(const YamlReader& node, const core::UnitSystem& units,
                      const IntegratorSettings& integrator,
                      const integrate::BarostatSettings& barostat);

/// `constraints: {bonds: none | h_bonds | all_bonds | [bond types], water: settle | none,
/// tolerance}`.
constraints::ConstraintSettings parse_constraints(const YamlReader& node);

/// `output: {thermo, console, trajectory, checkpoint}`.
OutputSettings parse_output(const YamlReader& node);

/// "23:50:00", "50:00" or "90" (seconds) as seconds; nullopt if malformed.
std::optional<double> parse_duration(const std::string& text);

}  // namespace novamd::io
