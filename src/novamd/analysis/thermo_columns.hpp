#pragma once
/// @file thermo_columns.hpp
/// The thermo output's columns: the standard ones (DESIGN contract, plus the conserved
/// quantity) and the extra columns a user may add with `output.thermo.columns`.

#include <string>
#include <vector>

namespace novamd::analysis {

/// Always written, in this order.
inline const std::vector<std::string> kStandardThermoColumns{
    "step",         "time",     "temperature",     "kinetic_energy", "potential_energy",
    "total_energy", "pressure", "conserved_energy"};

/// May be added, in the order the user lists them:
///   thermostat_energy       energy the thermostat has taken out (conserved - total)
///   conserved_energy_drift  (conserved - conserved at the run's first row) / |conserved there|
///   virial                  sum over pairs of r_ij . f_ij (the virial tensor's trace)
///   pxx, pyy, pzz, pxy, pxz, pyz  the pressure tensor (2 K_ab + W_ab) / V (analysis/thermo.hpp)
///   volume, density         box volume and number density
///   mass_density            total mass over volume: g/cm^3 in real and nuclear units, m/sigma^3
///                           in lj units (LAMMPS's `density`)
///   kinetic_energy_per_particle, potential_energy_per_particle, total_energy_per_particle
///   neighbor_list_builds    list builds so far, over all force terms
///   wall_time               seconds since the run started (this process)
///   plasma                  gamma_<species> for each charged species and kappa
///                           (analysis/plasma.hpp); the default for ion plasmas
///   bond_energy, angle_energy, dihedral_energy, improper_energy, vdw_energy, coulomb_energy
///                           the energy of each kind of term (kTermEnergyColumns)
///   rotational_kinetic_energy, translational_temperature, rotational_temperature
///                           rigid molecules' rotation and translation apart (analysis/thermo.hpp)
inline const std::vector<std::string> kExtraThermoColumns{"thermostat_energy",
                                                          "conserved_energy_drift",
                                                          "virial",
                                                          "pxx",
                                                          "pyy",
                                                          "pzz",
                                                          "pxy",
                                                          "pxz",
                                                          "pyz",
                                                          "volume",
                                                          "density",
                                                          "mass_density",
                                                          "kinetic_energy_per_particle",
                                                          "potential_energy_per_particle",
                                                          "total_energy_per_particle",
                                                          "neighbor_list_builds",
                                                          "wall_time",
                                                          "plasma",
                                                          "bond_energy",
                                                          "angle_energy",
                                                          "dihedral_energy",
                                                          "improper_energy",
                                                          "vdw_energy",
                                                          "coulomb_energy",
                                                          "rotational_kinetic_energy",
                                                          "translational_temperature",
                                                          "rotational_temperature"};

/// The columns of term energies: each force term counts in one (forces::energy_column), or in
/// none but the potential energy (Yukawa, nuclear). 1-4 pairs count in vdw_energy and
/// coulomb_energy, the Lennard-Jones tail correction in vdw_energy.
inline const std::vector<std::string> kTermEnergyColumns{"bond_energy",     "angle_energy",
                                                         "dihedral_energy", "improper_energy",
                                                         "vdw_energy",      "coulomb_energy"};

}  // namespace novamd::analysis
