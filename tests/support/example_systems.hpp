#pragma once
// The `units` and `system` sections of configs over the molecular examples, for the tests that
// run them: each ends inside `system`, so a test may add keys of `system` (velocities) before
// its `forces`.

#include <string>

namespace novamd::test {

/// examples/water: 1,000 flexible SPC/E waters in a 31.04 A box (harmonic bonds and angles).
inline const std::string kWaterExampleSystem =
    "units: real\n"
    "system:\n"
    "  topology:\n"
    "    read: " NOVAMD_SOURCE_DIR
    "/examples/water/water.data\n"
    "    styles: {pair: lj_cut, bond: harmonic, angle: harmonic}\n";

/// examples/amber-dipeptide: alanine dipeptide in 861 flexible TIP3P waters (2,605 atoms).
inline const std::string kDipeptideExampleSystem =
    "units: real\n"
    "system:\n"
    "  topology: {read: " NOVAMD_SOURCE_DIR
    "/examples/amber-dipeptide/dipeptide.prmtop, coordinates: " NOVAMD_SOURCE_DIR
    "/examples/amber-dipeptide/dipeptide.inpcrd}\n";

}  // namespace novamd::test
