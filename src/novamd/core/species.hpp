#pragma once
/// @file species.hpp
/// Particle species: name, charge number Z, mass and (for nucleons) isospin.

#include <optional>
#include <string>
#include <vector>

namespace novamd::core {

struct Species {
  std::string name;
  double charge = 0.0;  ///< charge number Z (units of the elementary charge)
  double mass = 1.0;    ///< in the unit system's mass unit
  int isospin = 0;      ///< tau_z: +1 proton, -1 neutron, 0 not a nucleon
  /// The chemical element's atomic number where a topology file tells or implies it (an AMBER
  /// prmtop's ATOMIC_NUMBER, else its atom names); 0 where unknown.
  int atomic_number = 0;
};

/// The declared species, indexed by type id (the order of declaration).
class SpeciesTable {
 public:
  SpeciesTable() = default;
  explicit SpeciesTable(std::vector<Species> species) : species_(std::move(species)) {}

  int size() const { return static_cast<int>(species_.size()); }
  const Species& operator[](int type) const { return species_[type]; }
  const std::vector<Species>& all() const { return species_; }

  /// Type id of the named species, or nothing if it was not declared.
  std::optional<int> find(const std::string& name) const {
    for (int t = 0; t < size(); ++t)
      if (species_[t].name == name) return t;
    return std::nullopt;
  }

 private:
  std::vector<Species> species_;
};

}  // namespace novamd::core
