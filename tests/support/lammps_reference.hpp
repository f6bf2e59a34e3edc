#pragma once
// LAMMPS (/usr/bin/lmp, Debian's lammps) on the particles of a test: the state as a data file
// of atom_style atomic, and `run 0`'s potential energy and pressure components with the pair
// style a test gives, printed with 17 digits.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "support/cli_runner.hpp"

namespace novamd::test {

inline constexpr const char* kLammps = "/usr/bin/lmp";

/// The particles of `s` (types from 1, masses 1 and 2 for two species) as a LAMMPS data file.
inline std::string lammps_data(const backend::BackendSetup& s, const std::string& title) {
  std::string text = fmt::format(
      "{}\n\n{} atoms\n2 atom types\n\n0 {:.17g} xlo xhi\n0 {:.17g} ylo yhi\n0 {:.17g} zlo zhi\n\n"
      "Masses\n\n1 1.0\n2 2.0\n\nAtoms # atomic\n\n",
      title, s.particles.size(), s.box.length().x, s.box.length().y, s.box.length().z);
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    const auto r = s.particles.position.get(i);
    text += fmt::format("{} {} {:.17g} {:.17g} {:.17g}\n", i + 1, s.particles.type[i] + 1, r.x, r.y,
                        r.z);
  }
  return text;
}

/// pe, pxx, pyy, pzz, pxy, pxz, pyz of `run 0` on `dir`/state.data with `pair_lines` (the
/// pair_style and pair_coeff commands). The input is written to `dir`/in.lammps and run there
/// as: lmp -nocite -log none -in in.lammps
inline std::vector<double> lammps_energy_and_pressure(const TempDir& dir,
                                                      const std::string& pair_lines) {
  dir.write("in.lammps",
            "units lj\natom_style atomic\nboundary p p p\nread_data state.data\n" + pair_lines +
                "neighbor 0.3 bin\nthermo_style custom step pe pxx pyy pzz pxy pxz pyz\n"
                "thermo_modify norm no\nrun 0\n"
                "print \"NOVAMD_VALUES $(pe:%.17g) $(pxx:%.17g) $(pyy:%.17g) $(pzz:%.17g) "
                "$(pxy:%.17g) $(pxz:%.17g) $(pyz:%.17g)\"\n");
  const auto run = run_shell(std::string(kLammps) + " -nocite -log none -in in.lammps", dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto at = run.output.find("\nNOVAMD_VALUES ");
  EXPECT_NE(at, std::string::npos) << run.output;
  std::vector<double> values;
  if (at == std::string::npos) return values;
  std::istringstream in(run.output.substr(at + 15));
  for (int k = 0; k < 7; ++k) {
    double v = 0;
    in >> v;
    values.push_back(v);
  }
  return values;
}

}  // namespace novamd::test
