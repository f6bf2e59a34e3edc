#pragma once
// Configs of rigid molecules shared by the CPU (tests/unit/test_rigid_runs.cpp) and CUDA
// (tests/cuda/test_cuda_rigid_molecules.cpp) tests: two components in LJ units and a fluid of them,
// and the thermo rows of a run.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"

namespace novamd::test {

/// Two components in LJ units: a linear two-centre Lennard-Jones molecule with a point
/// quadrupole (2CLJQ, two rotational degrees of freedom), and a Stockmayer molecule, a
/// Lennard-Jones centre with a point dipole, given its inertia (three).
inline const std::string kComponents = R"(units: lj
seed: 7
system:
  components:
    - name: Q
      sites:
        - {type: lj, position: [0, 0, -0.25], epsilon: 1.0, sigma: 1.0, mass: 0.5}
        - {type: lj, position: [0, 0, 0.25], epsilon: 1.0, sigma: 1.0, mass: 0.5}
        - {type: quadrupole, position: [0, 0, 0], direction: [0, 0, 1], moment: 1.0}
    - name: D
      sites:
        - {type: lj, position: [0, 0, 0], epsilon: 1.0, sigma: 1.0, mass: 1.0}
        - {type: dipole, position: [0, 0, 0], direction: [0, 0, 1], moment: 1.5}
      inertia: [0.025, 0.025, 0.025]
)";

/// A fluid of `counts` (a YAML map) at rho* = 0.5 from an fcc lattice of `cells`^3 cells, the
/// sites coupled within `cutoff` of the centres.
inline std::string fluid(const std::string& counts, int cells, double cutoff,
                         const std::string& integrator, const std::string& columns) {
  return kComponents + "  structure: {generate: {lattice: fcc, cells: " + std::to_string(cells) +
         ", counts: " + counts + "}}\n  density: 0.5\n  velocities: {temperature: 1.5}\n" +
         "forces:\n  - rigid_sites: {cutoff: " + std::to_string(cutoff) + "}\n" +
         "integrator: " + integrator + "\n" + "run: {steps: 0}\n" +
         "output:\n  thermo: {every: 10, file: thermo.csv, columns: [" + columns + "]}\n";
}

/// A restart's config: Langevin (rotation's own noise too), c_rescale moving the centres, lists,
/// sorting along the curve every 7 evaluations; thermo.csv and run.chk.
inline std::string rigid_restart_config() {
  return kComponents +
         "  structure: {generate: {lattice: fcc, cells: 4, counts: {Q: 128, D: 128}}}\n"
         "  density: 0.5\n  velocities: {temperature: 1.5}\n"
         "forces:\n  - rigid_sites: {cutoff: 3.0, epsilon_rf: 10.0}\n"
         "neighbors: {skin: 0.3, reorder_every: 7}\n"
         "integrator: {type: langevin, timestep: 0.002, temperature: 1.5, friction: 1.0}\n"
         "barostat: {type: c_rescale, pressure: 1.0, period: 0.5, compressibility: 1.0, every: 3}\n"
         "run: {steps: 100}\n"
         "output:\n  thermo: {every: 10, file: thermo.csv}\n  checkpoint: {file: run.chk}\n";
}

/// 4 cells^3 rigid SPC/E waters (examples/rigid/spce_water.yaml's model) from an fcc lattice at
/// 0.997 g/cm^3 and `temperature` (K), `cutoff` (A) on the centres, the charges summed by
/// `coulomb` (the map's entries, as `method: pme, tolerance: 1.0e-5`); 100 steps, thermo.csv
/// every 10 with the rotational kinetic energy and the virial.
inline std::string spce_water(int cells, double cutoff, const std::string& coulomb,
                              const std::string& integrator, double temperature = 298.0) {
  return "units: real\nseed: 3\nsystem:\n  components:\n    - name: SPCE\n      sites:\n"
         "        - {type: lj, position: [0, 0, 0], epsilon: 0.15535, sigma: 3.16556, mass: "
         "15.9994}\n"
         "        - {type: charge, position: [0, 0, 0], charge: -0.8476}\n"
         "        - {type: charge, position: [0.81649, 0.57736, 0], charge: 0.4238, mass: 1.008}\n"
         "        - {type: charge, position: [-0.81649, 0.57736, 0], charge: 0.4238, mass: 1.008}\n"
         "  structure: {generate: {lattice: fcc, cells: " +
         std::to_string(cells) + ", counts: {SPCE: " + std::to_string(4 * cells * cells * cells) +
         "}}}\n  density: \"0.997 g/cm^3\"\n  velocities: {temperature: " +
         std::to_string(temperature) +
         "}\nforces:\n  - rigid_sites: {cutoff: " + std::to_string(cutoff) +
         ", shift: energy, coulomb: {" + coulomb + "}}\nintegrator: " + integrator +
         "\nrun: {steps: 100}\n"
         "output:\n  thermo: {every: 10, file: thermo.csv, columns: [rotational_kinetic_energy, "
         "virial]}\n";
}

/// Every number of every thermo row (thermo.csv) of `backend`'s run of `config` in double.
inline std::vector<std::vector<double>> thermo_in_double(const std::string& config,
                                                         const std::string& backend) {
  TempDir dir;
  dir.write("run.yaml", config);
  const auto run = run_novamd("run run.yaml --precision double --backend " + backend, dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::vector<double>> rows;
  const auto lines = read_lines(dir.path() / "thermo.csv");
  for (std::size_t k = 1; k < lines.size(); ++k) rows.push_back(numbers_of(lines[k]));
  return rows;
}

}  // namespace novamd::test
