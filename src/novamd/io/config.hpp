#pragma once
/// @file config.hpp
/// The run configuration, read from YAML (docs/config.md lists every key). Loading validates
/// every key before anything runs: unknown keys, wrong types and out-of-range values raise
/// core::InputError with the file, line and key path, and the nearest valid key where one exists.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "novamd/core/precision.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"

namespace novamd::io {

/// `system.structure.generate`
struct GenerateSettings {
  std::string lattice = "random";  ///< random | sc | bcc | fcc
  /// Particles per species, in declaration order of the species (from `counts`, or from
  /// `fractions` x `total`, rounded so that the sum is `total`).
  std::vector<std::pair<std::string, std::int64_t>> counts;
  std::optional<std::array<int, 3>> cells;  ///< lattice cells per axis (lattices only)
  double min_separation = 0.0;              ///< random only: no two particles closer (length)
};

/// `system.structure`: exactly one of generate or read.
struct StructureSettings {
  std::optional<GenerateSettings> generate;
  std::optional<std::filesystem::path> read;  ///< extended XYZ; load_config resolves a relative
                                              ///< path against the config file's folder
};

/// `system.velocities`
struct VelocitySettings {
  std::optional<double> temperature;  ///< Maxwell-Boltzmann at this temperature, zero momentum
};

struct SystemSettings {
  /// Box edges; from `box` ([L] or [Lx, Ly, Lz] or a scalar), or derived from `density` and the
  /// particle count (cubic), or from the XYZ file's Lattice. Unset until known.
  std::optional<std::array<double, 3>> box;
  std::optional<double> density;  ///< number density, length^-3 (alternative to box)
  core::SpeciesTable species;
  StructureSettings structure;
  VelocitySettings velocities;
};

struct IntegratorSettings {
  std::string type = "velocity_verlet";
  double timestep = 0.0;
};

struct RunSettings {
  std::int64_t steps = 0;
};

struct ThermoOutputSettings {
  std::int64_t every = 100;
  std::filesystem::path file = "thermo.csv";
};

struct TrajectoryOutputSettings {
  std::int64_t every = 0;  ///< 0: no trajectory
  std::filesystem::path file = "traj.xyz";
  bool velocity = false;
  bool force = false;
};

struct OutputSettings {
  ThermoOutputSettings thermo;
  std::optional<TrajectoryOutputSettings> trajectory;
};

struct Config {
  std::filesystem::path file;  ///< the YAML file it came from ("<string>" for text)
  core::UnitSystem units;
  std::string backend = "auto";  ///< auto | cpu | cuda
  core::Precision precision = core::Precision::Double;
  std::uint64_t seed = 2026;
  SystemSettings system;
  std::vector<forces::ForceSettings> forces;
  neighbors::NeighborSettings neighbors;
  IntegratorSettings integrator;
  RunSettings run;
  OutputSettings output;
};

/// A `--set key.path=value` override, applied to the YAML tree before validation.
struct Override {
  std::string key_path;  ///< dotted path; sequence elements by index: forces.0.yukawa.cutoff
  std::string value;     ///< parsed as YAML: 3, 2.5, none, [1, 2, 3], {a: 1}
};

/// Reads, overrides and validates a config file. Throws core::InputError on bad input.
Config load_config(const std::filesystem::path& file, const std::vector<Override>& overrides = {});

/// Same, from YAML text (tests); `source_name` stands for the file name in messages.
Config parse_config(const std::string& yaml_text, const std::string& source_name,
                    const std::vector<Override>& overrides = {});

}  // namespace novamd::io
