#include "novamd/io/hydrogen_mass.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

/// Each atom's mass as the file gives it (per atom, else its type's).
std::vector<double> atom_masses(const TopologyFile& file) {
  if (!file.mass.empty()) return file.mass;
  std::vector<double> mass(file.type.size());
  for (std::size_t i = 0; i < mass.size(); ++i) mass[i] = file.types[file.type[i]].mass;
  return mass;
}

/// Whether each atom is a hydrogen (element, else mass).
std::vector<bool> hydrogens(const TopologyFile& file, const std::vector<double>& mass) {
  std::vector<bool> h(mass.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    h[i] = constraints::is_hydrogen(file.types[file.type[i]].atomic_number, mass[i]);
  }
  return h;
}

/// Whether each atom belongs to a water: a molecule of three atoms, two of them hydrogens.
std::vector<bool> waters(const TopologyFile& file, const std::vector<bool>& hydrogen) {
  std::vector<bool> water(hydrogen.size(), false);
  for (const auto& m : file.topology.molecules().members()) {
    if (m.size() != 3) continue;
    int light = 0;
    for (const auto id : m) light += hydrogen[std::size_t(id)] ? 1 : 0;
    if (light != 2) continue;
    for (const auto id : m) water[std::size_t(id)] = true;
  }
  return water;
}

/// Adds the coefficients of the copies of each split type: its like coefficients, and every
/// explicit pair it is in, for every combination of the original and its copies.
void copy_lennard_jones(TopologyFile& file, const std::vector<std::vector<std::int32_t>>& copies) {
  if (!file.lj_by_type.empty())
    for (std::size_t t = 0; t < copies.size(); ++t)
      for (const auto c : copies[t]) file.lj_by_type[std::size_t(c)] = file.lj_by_type[t];
  const auto family = [&](int t) {
    std::vector<std::int32_t> all{t};
    all.insert(all.end(), copies[std::size_t(t)].begin(), copies[std::size_t(t)].end());
    return all;
  };
  const std::vector<LennardJonesPairCoefficients> explicit_pairs = file.lj_pairs;
  for (const auto& p : explicit_pairs) {
    for (const auto a : family(p.type_a))
      for (const auto b : family(p.type_b)) {
        if (a == p.type_a && b == p.type_b) continue;  // the original entry
        if (p.type_a == p.type_b && b < a) continue;   // each unordered pair once
        LennardJonesPairCoefficients copy = p;
        copy.type_a = std::min(a, b);
        copy.type_b = std::max(a, b);
        file.lj_pairs.push_back(copy);
      }
  }
}

}  // namespace

TopologyFile repartition_hydrogen_mass(TopologyFile file, double hydrogen_mass,
                                       const std::string& source) {
  std::vector<double> mass = atom_masses(file);
  const std::vector<bool> hydrogen = hydrogens(file, mass);
  const std::vector<bool> water = waters(file, hydrogen);
  std::vector<int> moved_onto(mass.size(), 0);  // hydrogens whose mass each heavy atom gave
  const auto& bonds = file.topology.bonds();
  for (std::size_t b = 0; b < bonds.size(); ++b) {
    const std::int32_t i = bonds.ids[2 * b], j = bonds.ids[2 * b + 1];
    if (hydrogen[std::size_t(i)] == hydrogen[std::size_t(j)]) continue;  // not heavy-hydrogen
    const std::int32_t h = hydrogen[std::size_t(i)] ? i : j,
                       heavy = hydrogen[std::size_t(i)] ? j : i;
    if (water[std::size_t(h)]) continue;
    mass[std::size_t(heavy)] -= hydrogen_mass - mass[std::size_t(h)];
    mass[std::size_t(h)] = hydrogen_mass;
    ++moved_onto[std::size_t(heavy)];
  }
  for (std::size_t i = 0; i < mass.size(); ++i)
    if (!hydrogen[i] && mass[i] < hydrogen_mass)
      throw core::InputError(fmt::format(
          "{}: system.topology.hydrogen_mass: {} would leave atom {} ({}) a mass of {:.6g}, less "
          "than its hydrogens'; expected a hydrogen mass that leaves every heavy atom heavier (3 "
          "to "
          "4 is usual)",
          source, hydrogen_mass, i + 1, file.types[file.type[i]].name, mass[i]));

  // One type per (old type, new mass): the first keeps the old index.
  std::vector<std::map<double, std::int32_t>> type_of_mass(file.types.size());
  std::vector<std::vector<std::int32_t>> copies(file.types.size());
  std::set<std::string> taken;
  for (const auto& t : file.types) taken.insert(t.name);
  const std::size_t original_types = file.types.size();
  for (std::size_t i = 0; i < mass.size(); ++i) {
    const auto t = std::size_t(file.type[i]);
    auto& by_mass = type_of_mass[t];
    if (const auto found = by_mass.find(mass[i]); found != by_mass.end()) {
      file.type[i] = found->second;
      continue;
    }
    if (by_mass.empty()) {  // the type's first mass: the type itself
      by_mass[mass[i]] = std::int32_t(t);
      file.types[t].mass = mass[i];
      continue;
    }
    std::string name = fmt::format("{}_hmr{}", file.types[t].name, moved_onto[i]);
    for (int k = 2; taken.count(name); ++k)
      name = fmt::format("{}_hmr{}_{}", file.types[t].name, moved_onto[i], k);
    taken.insert(name);
    const auto index = std::int32_t(file.types.size());
    file.types.push_back({name, mass[i], file.types[t].atomic_number});
    if (!file.lj_by_type.empty()) file.lj_by_type.push_back(std::nullopt);
    copies[t].push_back(index);
    by_mass[mass[i]] = index;
    file.type[i] = index;
  }
  copies.resize(file.types.size());
  if (file.types.size() > original_types) copy_lennard_jones(file, copies);
  if (!file.mass.empty()) file.mass = mass;
  return file;
}

}  // namespace novamd::io
