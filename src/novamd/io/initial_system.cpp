/// @file initial_system.cpp
/// The initial box and particles of a run (see initial_system.hpp).

#include "novamd/io/initial_system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/physical_scales.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/io/ls1_phase_space.hpp"
#include "novamd/io/molecular_system.hpp"
#include "novamd/io/rigid_start.hpp"
#include "novamd/io/structure_generator.hpp"
#include "novamd/io/velocity_init.hpp"
#include "novamd/io/xyz.hpp"

namespace novamd::io {
namespace {

/// Relative difference below which a config box and a file's Lattice agree.
constexpr double kBoxTolerance = 1e-9;

std::string format_box(const core::Box& box) {
  const auto& L = box.length();
  return fmt::format("[{}, {}, {}]", L.x, L.y, L.z);
}

/// The structure file. load_config has already resolved it against the config file's folder
/// (config.cpp), so it is used as it stands; joining the folder again would double it.
const std::filesystem::path& structure_path(const Config& config) {
  return *config.system.structure.read;
}

/// Particles of each type, in declaration order.
std::vector<std::int64_t> generated_counts(const GenerateSettings& settings,
                                           const core::SpeciesTable& species) {
  std::vector<std::int64_t> count(species.size(), 0);
  for (const auto& [name, n] : settings.counts) count[*species.find(name)] += n;
  return count;
}

/// Particles per volume for a mass density in g/cm^3: rho = sum_i n_i (m_i + Z_i m_e), the
/// ions and the electrons that neutralise them.
double number_density_of(double grams_per_cm3, const core::SpeciesTable& species,
                         const std::vector<std::int64_t>& count, const core::UnitSystem& units) {
  const core::PhysicalScales scales = *core::physical_scales(units);  // parse_density checked
  double mass = 0.0;
  std::int64_t n = 0;
  for (int t = 0; t < species.size(); ++t) {
    mass += static_cast<double>(count[t]) *
            (species[t].mass + std::max(species[t].charge, 0.0) * scales.electron_mass);
    n += count[t];
  }
  const double grams_per_particle = mass / static_cast<double>(n) * scales.grams_per_mass;
  return grams_per_cm3 / grams_per_particle * std::pow(scales.centimetres_per_length, 3);
}

/// The box from system.box, or from the density (number or mass) and the particle counts;
/// nothing when the config has neither.
std::optional<core::Box> config_box(const Config& config, const std::vector<std::int64_t>& count) {
  const SystemSettings& system = config.system;
  if (system.box) {
    const auto& b = *system.box;
    for (double edge : b)
      if (!(edge > 0.0) || !std::isfinite(edge))
        throw core::InputError(fmt::format(
            "system.box: [{}, {}, {}]; expected three positive edge lengths", b[0], b[1], b[2]));
    return core::Box(b[0], b[1], b[2]);
  }
  if (!system.density && !system.mass_density) return std::nullopt;
  const double density =
      system.density ? *system.density
                     : number_density_of(*system.mass_density, system.species, count, config.units);
  if (!(density > 0.0) || !std::isfinite(density))
    throw core::InputError(
        fmt::format("system.density: {}; expected a positive number density", density));
  std::int64_t n = 0;
  for (auto c : count) n += c;
  const double edge = std::cbrt(static_cast<double>(n) / density);
  return core::Box(edge, edge, edge);
}

bool same_box(const core::Box& a, const core::Box& b) {
  const auto close = [](double x, double y) {
    return std::abs(x - y) <= kBoxTolerance * std::max(std::abs(x), std::abs(y));
  };
  return close(a.length().x, b.length().x) && close(a.length().y, b.length().y) &&
         close(a.length().z, b.length().z);
}

/// Reads the structure file and settles the box from the config and the file's Lattice.
InitialSystem read_structure(const Config& config) {
  const std::filesystem::path& file = structure_path(config);
  XyzFrame frame = read_xyz(file, config.system.species);
  const std::optional<core::Box> from_config =
      config_box(config, core::count_by_type(frame.particles, config.system.species.size()));
  if (!from_config && !frame.lattice)
    throw core::InputError(fmt::format(
        "{}:2: the comment line has no Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\", and the config gives "
        "neither system.box nor system.density; expected one of them",
        file.string()));
  if (from_config && frame.lattice && !same_box(*from_config, *frame.lattice)) {
    const char* key = config.system.box ? "system.box" : "system.density";
    throw core::InputError(fmt::format(
        "{}: the box {} differs from the Lattice {} of {}:2; expected them to agree (within "
        "{} relative), or leave {} out to take the box from the file",
        key, format_box(*from_config), format_box(*frame.lattice), file.string(), kBoxTolerance,
        key));
  }
  if (!frame.has_velocities) frame.particles.velocity.fill_zero();
  return {from_config ? *from_config : *frame.lattice, std::move(frame.particles)};
}

/// Reads ls1-mardyn's phase-space file: each molecule moved into its component's body frame
/// (to_body_frame), in the run's units (the file's numbers as they stand; angular momenta, mass x
/// length^2 / time there, times mvv_to_energy). The box is the config's: the file has none.
InitialSystem read_ls1_structure(const Config& config) {
  const std::filesystem::path& file = structure_path(config);
  const auto molecules = read_ls1_phase_space(file);
  const auto& components = config.system.components;
  core::ParticleData p;
  p.resize(molecules.size());
  p.enable(p.orientation);
  p.enable(p.angular_momentum);
  for (std::size_t i = 0; i < molecules.size(); ++i) {
    const Ls1Molecule& m = molecules[i];
    if (m.component < 0 || static_cast<std::size_t>(m.component) >= components.size())
      throw core::InputError(fmt::format(
          "{}: molecule {} has component {}; expected 1 to {} (system.components, in order)",
          file.string(), m.id, m.component + 1, components.size()));
    const BodyState body = to_body_frame(m, components[static_cast<std::size_t>(m.component)]);
    p.type[i] = m.component;
    p.id[i] = static_cast<std::int32_t>(i);
    p.position.set(i, body.centre);
    p.velocity.set(i, m.velocity);
    p.force.set(i, {});
    p.orientation.set(i, body.orientation);
    p.angular_momentum.set(i, config.units.mvv_to_energy * body.angular_momentum);
  }
  const std::optional<core::Box> box =
      config_box(config, core::count_by_type(p, config.system.species.size()));
  if (!box)
    throw core::InputError(fmt::format(
        "system: the box is unknown; expected system.box (ls1-mardyn keeps it in its XML "
        "config, not in {})",
        file.string()));
  return {*box, std::move(p)};
}

InitialSystem generate(const Config& config) {
  const GenerateSettings& settings = *config.system.structure.generate;
  const std::optional<core::Box> box =
      config_box(config, generated_counts(settings, config.system.species));
  if (!box)
    throw core::InputError(
        "system: the box is unknown; expected system.box ([Lx, Ly, Lz]) or system.density "
        "(particles per volume) with a generated structure");
  core::ParticleData particles =
      generate_structure(settings, config.system.species, *box, config.seed);
  return {*box, std::move(particles)};
}

/// Wraps every position into [0, L): a coordinate that rounds onto L lands on 0.
void wrap_positions(const core::Box& box, core::ParticleData& particles) {
  const auto view = box.view<double>();
  const auto& L = box.length();
  for (std::size_t i = 0; i < particles.size(); ++i) {
    core::Vec3<double> r = view.wrap(particles.position.get(i));
    r.x = (r.x >= 0.0 && r.x < L.x) ? r.x : 0.0;
    r.y = (r.y >= 0.0 && r.y < L.y) ? r.y : 0.0;
    r.z = (r.z >= 0.0 && r.z < L.z) ? r.z : 0.0;
    particles.position.set(i, r);
  }
}

void check_cutoffs(const Config& config, const core::Box& box) {
  const auto& terms = config.forces;
  const double limit = 0.5 * box.shortest_edge();
  if (config.rigid_sites && *config.rigid_sites->cutoff > limit)
    throw core::InputError(fmt::format(
        "forces[0].rigid_sites.cutoff: {} exceeds half the shortest box edge of {} ({}); "
        "expected at most {} (the minimum image convention), or a larger box",
        *config.rigid_sites->cutoff, format_box(box), box.shortest_edge(), limit));
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const double cutoff = forces::cutoff_of(terms[i]);
    const std::string key = i < config.cutoff_keys.size()
                                ? config.cutoff_keys[i]
                                : fmt::format("forces[{}].{}.cutoff", i, forces::name_of(terms[i]));
    if (!forces::cutoff_fits(cutoff, box.shortest_edge()))
      throw core::InputError(
          fmt::format("{}: {} exceeds half the shortest box edge of {} ({}); expected at "
                      "most {} (the minimum image convention){}",
                      key, cutoff, format_box(box), box.shortest_edge(), limit,
                      forces::cutoff_may_be_none(terms[i]) ? ", a larger box, or cutoff: none"
                                                           : ", or a larger box"));
  }
}

/// Two particles at one wrapped position (distance 0 under the minimum image) are an error.
/// `file`, when the structure was read, adds the two atom lines (line = id + 3) to the message.
void check_duplicates(const core::ParticleData& p,
                      const std::optional<std::filesystem::path>& file) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto key = [&](std::size_t i) {
    return std::make_tuple(p.position.x[i], p.position.y[i], p.position.z[i]);
  };
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return key(a) < key(b); });
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (key(order[k - 1]) != key(order[k])) continue;
    const std::int32_t a = std::min(p.id[order[k - 1]], p.id[order[k]]);
    const std::int32_t b = std::max(p.id[order[k - 1]], p.id[order[k]]);
    const auto r = p.position.get(order[k]);
    const std::string source =
        file ? fmt::format(" (atom lines {} and {} of {})", a + 3, b + 3, file->string()) : "";
    throw core::InputError(fmt::format(
        "system.structure: particles {} and {}{} are at the same position ({}, {}, {}) after "
        "wrapping into the box (distance 0 under the minimum image); expected distinct positions",
        a, b, source, r.x, r.y, r.z));
  }
}

/// Each particle's charge from its species, where a force term reads per-particle charges and
/// the structure gave none.
void charges_from_species(const Config& config, core::ParticleData& particles) {
  const bool needed = std::any_of(config.forces.begin(), config.forces.end(),
                                  [](const auto& f) { return forces::uses_particle_charges(f); });
  if (!needed || particles.has(particles.charge)) return;
  particles.enable(particles.charge);
  for (std::size_t i = 0; i < particles.size(); ++i)
    particles.charge[i] = config.system.species[particles.type[i]].charge;
}

}  // namespace

/// The box and particles of a topology file; Maxwell-Boltzmann velocities where the config asks.
InitialSystem from_topology(const Config& config) {
  const TopologySettings& topology = *config.system.topology;
  const core::Box box = box_of(*topology.file, topology.read);
  InitialSystem system{box, particles_of(*topology.file, box)};
  if (system.particles.size() == 0)
    throw core::InputError(
        fmt::format("{}: the file has no atoms; expected at least one", topology.read.string()));
  if (config.system.velocities.temperature)
    assign_maxwell_boltzmann(system.particles, config.system.species, config.units,
                             *config.system.velocities.temperature, config.seed);
  check_cutoffs(config, system.box);
  check_duplicates(system.particles, std::nullopt);
  return system;
}

namespace {

/// The particles a library user gave, checked.
InitialSystem from_given(const Config& config, const GivenParticles& given) {
  const std::size_t n = given.type.size();
  if (given.position.size() != 3 * n || (!given.velocity.empty() && given.velocity.size() != 3 * n))
    throw core::InputError(fmt::format(
        "particles: {} types, {} position and {} velocity values; expected 3 values of each per "
        "particle",
        n, given.position.size(), given.velocity.size()));
  const auto species = static_cast<std::int32_t>(config.system.species.size());
  core::ParticleData p;
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (given.type[i] < 0 || given.type[i] >= species)
      throw core::InputError(fmt::format(
          "particles: particle {} has type {}; expected an index into system.species (0 to {})", i,
          given.type[i], species - 1));
    p.type[i] = given.type[i];
    p.id[i] = static_cast<std::int32_t>(i);
    for (int a = 0; a < 3; ++a) {
      const double r = given.position[3 * i + a];
      const double v = given.velocity.empty() ? 0.0 : given.velocity[3 * i + a];
      if (!std::isfinite(r) || !std::isfinite(v))
        throw core::InputError(fmt::format(
            "particles: particle {} has a position or velocity that is not finite; expected "
            "finite numbers",
            i));
      p.position.components()[a]->at(i) = r;
      p.velocity.components()[a]->at(i) = v;
    }
  }
  p.force.fill_zero();
  const std::optional<core::Box> box =
      config_box(config, core::count_by_type(p, config.system.species.size()));
  if (!box)
    throw core::InputError(
        "system: the box is unknown; expected system.box ([Lx, Ly, Lz]) or system.density");
  return {*box, std::move(p)};
}

/// What every structure goes through once built: velocities, wrapping, charges, rigid bodies,
/// and the checks.
InitialSystem finished(const Config& config, InitialSystem system,
                       const std::optional<std::filesystem::path>& file) {
  if (system.particles.size() == 0)
    throw core::InputError(
        "system.structure: the structure has no particles; expected at least "
        "one");
  if (config.system.velocities.temperature)
    assign_maxwell_boltzmann(system.particles, config.system.species, config.units,
                             *config.system.velocities.temperature, config.seed);
  wrap_positions(system.box, system.particles);
  charges_from_species(config, system.particles);
  if (!config.system.components.empty())
    start_rigid_molecules(system.particles, config.system.components, config.units,
                          config.system.velocities.temperature, config.seed);
  check_cutoffs(config, system.box);
  check_duplicates(system.particles, file);
  return system;
}

}  // namespace

InitialSystem build_initial_system(const Config& config) {
  if (config.system.topology) return from_topology(config);
  const StructureSettings& structure = config.system.structure;
  if (!structure.missing.empty()) throw core::InputError(structure.missing);
  if (structure.generate.has_value() == structure.read.has_value())
    throw core::InputError(
        "system.structure: expected exactly one of generate ({lattice, counts}) or read (an "
        "extended XYZ file)");
  InitialSystem system = !structure.read             ? generate(config)
                         : structure.format == "ls1" ? read_ls1_structure(config)
                                                     : read_structure(config);
  return finished(config, std::move(system),
                  structure.read ? std::optional(structure_path(config)) : std::nullopt);
}

InitialSystem build_initial_system(const Config& config, const GivenParticles& given) {
  if (config.system.topology)
    throw core::InputError(
        "particles: given as arrays together with system.topology; expected one of the two");
  return finished(config, from_given(config, given), std::nullopt);
}

}  // namespace novamd::io
