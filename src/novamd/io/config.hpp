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

#include "novamd/analysis/analysis_settings.hpp"
#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/core/components.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/rigid_model.hpp"
#include "novamd/integrate/barostat.hpp"
#include "novamd/integrate/integrator_settings.hpp"
#include "novamd/io/topology_settings.hpp"
#include "novamd/io/trajectory_files.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"
#include "novamd/parallel/parallel_settings.hpp"

namespace novamd::io {

/// `system.structure.generate`
struct GenerateSettings {
  std::string lattice = "random";  ///< random | sc | bcc | fcc
  /// Particles per species, in declaration order of the species (from `counts`, or from
  /// `fractions` x `total`, rounded so that the sum is `total`).
  std::vector<std::pair<std::string, std::int64_t>> counts;
  std::optional<std::array<int, 3>> cells;  ///< lattice cells per axis (lattices only)
  double min_separation = 0.0;              ///< random only: no two particles closer (length)
  /// The key as messages name it, with the file and line where the config gives it.
  std::string key = "system.structure.generate";
};

/// `system.structure`: exactly one of generate or read.
struct StructureSettings {
  std::optional<GenerateSettings> generate;
  std::optional<std::filesystem::path> read;  ///< extended XYZ; load_config resolves a relative
                                              ///< path against the config file's folder
  /// `format` of `read`: "xyz" (extended XYZ), or "ls1" (ls1-mardyn's phase-space file, rigid
  /// molecules); by default from the extension (.inp: ls1).
  std::string format = "xyz";
  /// Where the config has no `structure` (particles given as arrays by a library user need
  /// none): the message that names the missing key; empty where it is there.
  std::string missing;
};

/// `system.velocities`
struct VelocitySettings {
  std::optional<double> temperature;  ///< Maxwell-Boltzmann at this temperature, zero momentum
};

struct SystemSettings {
  /// Box edges; from `box` ([L] or [Lx, Ly, Lz] or a scalar), or derived from `density` and the
  /// particle count (cubic), or from the XYZ file's Lattice. Unset until known.
  std::optional<std::array<double, 3>> box;
  std::optional<double> density;       ///< number density, length^-3 (alternative to box)
  std::optional<double> mass_density;  ///< g/cm^3 (alternative to box and density)
  core::SpeciesTable species;          ///< declared, or the atom types of the topology file
  StructureSettings structure;         ///< neither generate nor read with a topology file
  VelocitySettings velocities;
  /// A molecular system from a file (`system.topology`): species, positions, box, charges and
  /// bonded terms come from it.
  std::optional<TopologySettings> topology;
  /// Rigid multi-centre molecules (`system.components`), each resolved into its body frame; the
  /// species are then the components (same names and order, each molecule's mass), and every
  /// particle is a molecule at its centre of mass. Empty: none.
  std::vector<core::ResolvedComponent> components;
};

using IntegratorSettings = integrate::IntegratorSettings;

/// One stage of a run in stages (`run.stages`): its steps, its integrator (the stage before's,
/// or `integrator`, where it names none) and the thermostat's target, constant or ramped.
struct RunStage {
  std::int64_t steps = 0;
  integrate::IntegratorSettings integrator;
  /// `temperature: [T0, T1]`: the target goes linearly from T0 at the stage's first step to T1
  /// at its last (temperature units); none: the integrator's own, constant.
  std::optional<std::array<double, 2>> ramp;
};

struct RunSettings {
  std::int64_t steps = 0;  ///< the last step: a restart continues up to it
  /// Stages in order (empty: one stage, `integrator` throughout). `steps` is at most their sum
  /// (by default the sum): a run cut short ends in the stage that holds its last step.
  std::vector<RunStage> stages;
  /// Wall-clock seconds the run may take (`walltime: "23:50:00"`): the run stops cleanly, with
  /// a checkpoint, when the next steps would not fit.
  std::optional<double> walltime;
  /// The largest change of the conserved energy, relative to the energy scale of the first
  /// thermo state (the largest of |E_conserved|, |U| and K there), before the run stops as
  /// blown up (`max_energy_drift: none`: never).
  std::optional<double> max_energy_drift = 1.0;
};

struct ThermoOutputSettings {
  std::int64_t every = 100;
  std::filesystem::path file = "thermo.csv";
  std::vector<std::string> columns;  ///< extra columns after the standard ones
  bool columns_given = false;        ///< `columns` was in the config (else defaults apply)
};

/// The thermo table printed on the console.
struct ConsoleOutputSettings {
  std::int64_t every = 0;  ///< steps between rows; 0: no rows
};

/// One trajectory file. Fields are written every `*_every` steps (0: never); XYZ and DCD write
/// all their fields in every frame, H5MD each field at its own interval.
struct TrajectoryOutputSettings {
  std::filesystem::path file = "traj.xyz";
  TrajectoryFormat format = TrajectoryFormat::Xyz;
  std::int64_t every = 0;  ///< steps between frames: the smallest field interval
  std::int64_t position_every = 0;
  std::int64_t velocity_every = 0;
  std::int64_t force_every = 0;
  /// Every site of each rigid molecule (system.components) as a particle of its own, named
  /// <component>_<k>, instead of the molecules' centres: positions only, XYZ only (for VMD).
  bool sites = false;
};

struct CheckpointOutputSettings {
  std::int64_t every = 0;                  ///< steps between checkpoints; 0: at the end only
  std::filesystem::path file = "run.chk";  ///< also where SIGTERM and walltime checkpoints go
  bool configured = false;                 ///< output.checkpoint was given: write at the end
};

struct OutputSettings {
  ThermoOutputSettings thermo;
  ConsoleOutputSettings console;
  std::vector<TrajectoryOutputSettings> trajectories;
  CheckpointOutputSettings checkpoint;
  /// `output.topology.file`: the PSF of a molecular system, written at the start (by default
  /// beside the first trajectory, with its name and the extension .psf).
  std::optional<std::filesystem::path> topology_file;
  /// `output.data.file`: the final state as a LAMMPS data file (molecular systems).
  std::optional<std::filesystem::path> data_file;
};

struct Config {
  std::filesystem::path file;  ///< the YAML file it came from ("<string>" for text)
  core::UnitSystem units;
  std::string backend = "auto";  ///< auto | cpu | cuda
  core::Precision precision = core::Precision::Double;
  std::uint64_t seed = 2026;
  SystemSettings system;
  std::vector<forces::ForceSettings> forces;
  /// The one force term of a system of components (`forces: [{rigid_sites: ...}]`), whose
  /// `forces` list is then empty; none otherwise.
  std::optional<forces::RigidModelSettings> rigid_sites;
  neighbors::NeighborSettings neighbors;
  IntegratorSettings integrator;
  /// Constant pressure (`barostat`); type empty: none.
  integrate::BarostatSettings barostat;
  RunSettings run;
  OutputSettings output;
  analysis::AnalysisSettings analysis;  ///< g(r), S(q), MSD; none by default
  parallel::ParallelSettings parallel;  ///< the force-matrix grid over MPI ranks
  /// Distances held fixed (`constraints`); none when the section is absent. Needs a topology.
  std::optional<constraints::ConstraintSettings> constraints;
  /// The document after --set overrides, as YAML: what a checkpoint records of the config.
  std::string effective_yaml;
  /// Each force term's cutoff key as messages name it, with the file and line where the config
  /// gives it ("run.yaml:14: forces[0].yukawa.cutoff"; the term's line where it has no cutoff
  /// key): for checks against a box that is known only once a density or a file gives it.
  std::vector<std::string> cutoff_keys;
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
