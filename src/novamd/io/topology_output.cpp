/// @file topology_output.cpp
/// The inputs of the topology writers (see topology_output.hpp).

#include "novamd/io/topology_output.hpp"

#include <fmt/format.h>

#include <span>

#include "novamd/core/error.hpp"
#include "novamd/io/binary_io.hpp"

namespace novamd::io {

TopologyOutput topology_output_of(const TopologyFile& file) {
  std::vector<core::Species> species;
  for (const AtomType& t : file.types)
    species.push_back(core::Species{t.name, 0.0, t.mass, 0, t.atomic_number});
  TopologyOutput out;
  out.species = core::SpeciesTable(std::move(species));
  out.topology = file.topology;
  out.atom_name = file.atom_name;
  out.residue_name = file.residue_name;
  out.coefficients = ForceFieldCoefficients{file.pair_style, file.lj_by_type, file.bond,
                                            file.angle,      file.dihedral,   file.improper};
  return out;
}

namespace {

/// Storage indices by id; throws unless the ids are exactly 0..N-1.
std::vector<std::size_t> id_order_checked(const core::ParticleData& p,
                                          const std::filesystem::path& file) {
  const std::size_t n = p.size();
  std::vector<std::size_t> order(n, n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t id = p.id[k];
    if (id < 0 || static_cast<std::size_t>(id) >= n || order[static_cast<std::size_t>(id)] != n)
      throw core::InputError(fmt::format(
          "{}: particle id {} (storage index {}) is out of range or repeated; expected the ids "
          "0 to {}, each once",
          file.string(), id, k, n - 1));
    order[static_cast<std::size_t>(id)] = k;
  }
  return order;
}

void check_names(const std::vector<std::string>& names, std::size_t n, const char* what,
                 const std::filesystem::path& file) {
  if (!names.empty() && names.size() != n)
    throw core::InputError(
        fmt::format("{}: {} {} names given for {} particles; expected one per "
                    "particle, or none",
                    file.string(), names.size(), what, n));
}

}  // namespace

OrderedAtoms ordered_atoms(const TopologyOutput& topology, const core::ParticleData& particles,
                           const std::filesystem::path& file) {
  const std::size_t n = particles.size();
  if (static_cast<std::size_t>(topology.topology.particle_count()) != n)
    throw core::InputError(fmt::format(
        "{}: the topology describes {} particles, the state holds {}; expected the same count",
        file.string(), topology.topology.particle_count(), n));
  check_names(topology.atom_name, n, "atom", file);
  check_names(topology.residue_name, n, "residue", file);
  OrderedAtoms atoms;
  atoms.order = id_order_checked(particles, file);
  const bool has_charge = particles.has(particles.charge);
  const bool has_mass = particles.has(particles.mass);
  const bool has_molecule = particles.has(particles.molecule);
  const core::Molecules components =
      has_molecule ? core::Molecules{} : topology.topology.molecules();
  atoms.molecule.resize(n);
  atoms.charge.resize(n);
  atoms.mass.resize(n);
  for (std::size_t id = 0; id < n; ++id) {
    const std::size_t i = atoms.order[id];
    const int type = particles.type[i];
    if (type < 0 || type >= topology.species.size())
      throw core::InputError(fmt::format(
          "{}: particle id {} has type {}, but {} species are declared; expected 0 to {}",
          file.string(), id, type, topology.species.size(), topology.species.size() - 1));
    const core::Species& s = topology.species[type];
    atoms.charge[id] = has_charge ? particles.charge[i] : s.charge;
    atoms.mass[id] = has_mass ? particles.mass[i] : s.mass;
    atoms.molecule[id] = has_molecule ? particles.molecule[i]
                                      : components.molecule_of(static_cast<std::int32_t>(id)) + 1;
  }
  return atoms;
}

void write_text_atomically(const std::filesystem::path& file, const std::string& text) {
  write_file_atomically(
      file, std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

}  // namespace novamd::io
