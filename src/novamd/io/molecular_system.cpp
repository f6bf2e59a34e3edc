#include "novamd/io/molecular_system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/core/error.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/bonded_styles.hpp"
#include "novamd/io/config_topology.hpp"

namespace novamd::io {
namespace {

/// A pair computed apart, before its parameters are settled.
struct PendingPair {
  std::int32_t a, b;
  double lj_scale, coulomb_scale;
  bool charmm_14;  ///< with the 1-4 Lennard-Jones parameters of the types
};

const forces::LennardJonesSettings* lennard_jones_of(const Config& config) {
  for (const auto& f : config.forces)
    if (const auto* lj = std::get_if<forces::LennardJonesSettings>(&f)) return lj;
  return nullptr;
}

const forces::CoulombSettings* coulomb_of(const Config& config) {
  for (const auto& f : config.forces)
    if (const auto* c = std::get_if<forces::CoulombSettings>(&f)) return c;
  return nullptr;
}

core::Topology topology_with_exclusions(const TopologyFile& file) {
  core::Topology topology = file.topology;
  for (const auto& [a, b] : file.extra_exclusions) topology.add_exclusion(a, b);
  return topology;
}

bool is_charmm_dihedral(const TopologyFile& file) {
  return file.dihedral && (file.dihedral->style == "charmm" || file.dihedral->style == "charmmfsw");
}

/// The pairs of CHARMM dihedrals, of special_bonds and of the file's own list.
std::vector<PendingPair> pending_pairs(const TopologyFile& file,
                                       const std::optional<SpecialBonds>& special) {
  std::vector<PendingPair> pairs;
  if (is_charmm_dihedral(file)) {
    const auto& dihedrals = file.topology.dihedrals();
    for (std::size_t t = 0; t < dihedrals.size(); ++t) {
      const double w = file.dihedral->by_type[dihedrals.type[t]][3];
      if (w > 0.0) pairs.push_back({dihedrals.ids[4 * t], dihedrals.ids[4 * t + 3], w, w, true});
    }
  }
  if (special) {
    // separations 1..3 with a non-zero factor: the pairs at exactly that separation
    const core::ExclusionLists within[3] = {
        file.topology.exclusions(1), file.topology.exclusions(2), file.topology.exclusions(3)};
    for (int s = 0; s < 3; ++s) {
      const double w_lj = special->lj[s], w_c = special->coulomb[s];
      if (w_lj == 0.0 && w_c == 0.0) continue;
      for (std::int32_t i = 0; i < file.topology.particle_count(); ++i)
        for (const std::int32_t j : within[s].of(i))
          if (i < j && (s == 0 || !within[s - 1].contains(i, j)))
            pairs.push_back({i, j, w_lj, w_c, false});
    }
  }
  for (const auto& p : file.scaled_pairs)
    pairs.push_back({p.id_a, p.id_b, p.lj_scale, p.coulomb_scale, false});
  return pairs;
}

/// Epsilon and sigma of the 1-4 pair of types a and b: the file's explicit pair, else the
/// mixing of the types' 1-4 parameters (their ordinary ones where they have none).
std::pair<double, double> charmm_14_parameters(const TopologyFile& file, int a, int b,
                                               forces::Mixing mixing) {
  for (const auto& p : file.lj_pairs) {
    if ((p.type_a == a && p.type_b == b) || (p.type_a == b && p.type_b == a)) {
      const auto& c = p.coefficients;
      return {c.epsilon_14.value_or(c.epsilon), c.sigma_14.value_or(c.sigma)};
    }
  }
  const auto like = [&](int t) -> std::pair<double, double> {
    const auto& c = file.lj_by_type[t];
    if (!c) return {0.0, 0.0};
    return {c->epsilon_14.value_or(c->epsilon), c->sigma_14.value_or(c->sigma)};
  };
  const auto [ea, sa] = like(a);
  const auto [eb, sb] = like(b);
  const double sigma = mixing == forces::Mixing::Geometric ? std::sqrt(sa * sb) : 0.5 * (sa + sb);
  return {std::sqrt(ea * eb), sigma};
}

/// The scaled pairs' terms: both parts for every pair, in one list of the topology.
void add_scaled_pairs(const Config& config, const TopologyFile& file, MolecularSystem& system) {
  const auto pairs = pending_pairs(file, config.system.topology->special_bonds);
  if (pairs.empty()) return;
  const auto* lj = lennard_jones_of(config);
  const auto* coulomb = coulomb_of(config);
  forces::LennardJonesPair14Settings lj_terms;
  forces::CoulombPair14Settings coulomb_terms;
  const auto mixed = lj ? lj->mixed(config.system.species) : forces::LennardJonesSettings::Mixed{};
  const int n_types = config.system.species.size();
  const double k = coulomb ? config.units.coulomb / coulomb->dielectric : 0.0;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto& pair = pairs[p];
    system.topology.add_scaled_pair({static_cast<std::int32_t>(p), {pair.a, pair.b}});
    const int ta = file.type[pair.a], tb = file.type[pair.b];
    double epsilon = 0.0, sigma = 0.0;
    if (lj && pair.charmm_14) {
      std::tie(epsilon, sigma) = charmm_14_parameters(file, ta, tb, lj->mixing);
    } else if (lj) {
      epsilon = mixed.epsilon[ta * n_types + tb];
      sigma = mixed.sigma[ta * n_types + tb];
    }
    lj_terms.types.push_back(
        physics::LennardJonesPair14::make_params(epsilon, sigma, pair.lj_scale));
    coulomb_terms.types.push_back(
        {pair.coulomb_scale * k * file.charge[pair.a] * file.charge[pair.b]});
  }
  if (lj) system.bonded.push_back(std::move(lj_terms));
  if (coulomb) system.bonded.push_back(std::move(coulomb_terms));
}

/// With the Ewald method, the corrections of the excluded pairs (each pair its own charge
/// product), which the reciprocal sum includes and the pair terms leave out.
void add_ewald_corrections(const Config& config, const TopologyFile& file,
                           MolecularSystem& system) {
  const auto* coulomb = coulomb_of(config);
  if (!coulomb || !coulomb->ewald_split()) return;
  const double k = config.units.coulomb / coulomb->dielectric;
  const double alpha = forces::ewald_alpha(*coulomb);
  const core::ExclusionLists excluded = system.topology.exclusions(core::kExcludedSeparations);
  forces::EwaldExcludedPairSettings corrections;
  for (std::int32_t i = 0; i < system.topology.particle_count(); ++i) {
    for (const std::int32_t j : excluded.of(i)) {
      if (j <= i) continue;
      const double product = k * file.charge[i] * file.charge[j];
      if (product == 0.0) continue;
      system.topology.add_correction_pair(
          {static_cast<std::int32_t>(corrections.types.size()), {i, j}});
      corrections.types.push_back({product, alpha});
    }
  }
  if (!corrections.types.empty()) system.bonded.push_back(std::move(corrections));
}

void add_bonded_terms(const TopologyFile& file, const std::filesystem::path& source,
                      MolecularSystem& system) {
  const auto add = [&](TermKind kind, std::size_t count,
                       const std::optional<StyleCoefficients>& coefficients) {
    if (count == 0) return;
    if (!coefficients)
      throw core::InputError(
          fmt::format("{}: the file has {} {} terms but no coefficients for them", source.string(),
                      count, kind_name(kind)));
    system.bonded.push_back(bonded_settings_from(kind, *coefficients));
  };
  add(TermKind::Bond, file.topology.bonds().size(), file.bond);
  add(TermKind::Angle, file.topology.angles().size(), file.angle);
  add(TermKind::Dihedral, file.topology.dihedrals().size(), file.dihedral);
  add(TermKind::Improper, file.topology.impropers().size(), file.improper);
}

}  // namespace

MolecularSystem molecular_system(const Config& config) {
  const TopologySettings& settings = *config.system.topology;
  const TopologyFile& file = *settings.file;
  MolecularSystem system{topology_with_exclusions(file), {}};
  add_bonded_terms(file, settings.read, system);
  add_scaled_pairs(config, file, system);
  add_ewald_corrections(config, file, system);
  for (const auto& b : system.bonded) forces::check_term_types(b, system.topology);
  return system;
}

core::Box box_of(const TopologyFile& file, const std::filesystem::path& source) {
  if (!file.box_edges)
    throw core::InputError(
        fmt::format("{}: the file has no periodic box; expected one (NovaMD runs periodic systems)",
                    source.string()));
  const auto& L = *file.box_edges;
  return core::Box(L.x, L.y, L.z);
}

core::ParticleData particles_of(const TopologyFile& file, const core::Box& box) {
  const std::size_t n = file.position.size();
  core::ParticleData p;
  p.resize(n);
  p.enable(p.charge);
  p.enable(p.molecule);
  p.enable(p.image);
  const auto& L = box.length();
  for (std::size_t i = 0; i < n; ++i) {
    p.id[i] = static_cast<std::int32_t>(i);
    p.type[i] = file.type[i];
    p.charge[i] = file.charge[i];
    p.molecule[i] = file.molecule.empty() ? 0 : file.molecule[i];
    const core::Vec3<double> r = file.position[i] - file.box_low;
    // the box images a position lies beyond, added to the file's image flags
    const double shift[3] = {std::floor(r.x / L.x), std::floor(r.y / L.y), std::floor(r.z / L.z)};
    const std::array<std::int32_t, 3> flags =
        file.image.empty() ? std::array<std::int32_t, 3>{0, 0, 0} : file.image[i];
    core::Vec3<double> wrapped{r.x - shift[0] * L.x, r.y - shift[1] * L.y, r.z - shift[2] * L.z};
    // a coordinate that rounds onto L lands on 0 (one image further)
    int extra[3] = {wrapped.x >= L.x, wrapped.y >= L.y, wrapped.z >= L.z};
    if (extra[0]) wrapped.x = 0.0;
    if (extra[1]) wrapped.y = 0.0;
    if (extra[2]) wrapped.z = 0.0;
    p.position.set(i, wrapped);
    p.image.x[i] = flags[0] + static_cast<std::int32_t>(shift[0]) + extra[0];
    p.image.y[i] = flags[1] + static_cast<std::int32_t>(shift[1]) + extra[1];
    p.image.z[i] = flags[2] + static_cast<std::int32_t>(shift[2]) + extra[2];
    p.velocity.set(i, file.velocity ? (*file.velocity)[i] : core::Vec3<double>{0.0, 0.0, 0.0});
  }
  p.force.fill_zero();
  return p;
}

}  // namespace novamd::io
