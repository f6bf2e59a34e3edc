#pragma once
/// @file hydrogen_mass.hpp
/// Hydrogen mass repartitioning (`system.topology.hydrogen_mass`): every hydrogen bonded to a
/// heavy atom gets the mass m_H, and the heavy atom gives up what the hydrogen gained, so that
/// each molecule keeps its mass and its centre of mass (K. A. Feenstra, B. Hess and H. J. C.
/// Berendsen, J. Comput. Chem. 20, 786 (1999); C. W. Hopkins et al., J. Chem. Theory Comput. 11,
/// 1864 (2015)). With the bonds to hydrogens held, the fastest motions left slow down, and 4 fs
/// steps become stable. As OpenMM's `hydrogenMass` does with rigid water, waters (molecules of one
/// heavy atom and two hydrogens) keep their masses.
///
/// A hydrogen: element hydrogen where the file says or implies it (AtomType::atomic_number), else
/// a mass below 2.2, as the constraint plan decides (constraints/constraint_plan.hpp). NovaMD's
/// masses are per type: where the atoms of one type end with different masses (a carbon with one
/// hydrogen and one with three), the type is split, each new type named after the old one
/// ("CT_hmr3" for three hydrogens; "_2", "_3", ... more where that name is taken) and given the
/// old type's Lennard-Jones coefficients and explicit pairs, so every pair energy is unchanged.

#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// The file with its hydrogens at `hydrogen_mass` and its heavy atoms lighter by as much, its
/// types split where masses now differ within one. `source`: the file, for messages.
/// @throws core::InputError where a heavy atom would weigh less than a hydrogen, naming it.
TopologyFile repartition_hydrogen_mass(TopologyFile file, double hydrogen_mass,
                                       const std::string& source);

}  // namespace novamd::io
