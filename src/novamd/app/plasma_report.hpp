#pragma once
/// @file plasma_report.hpp
/// How a run reports the plasma parameters of an ion mixture: a console header line and the
/// thermo columns that `plasma` stands for.

#include <optional>
#include <string>
#include <vector>

#include "novamd/analysis/plasma.hpp"
#include "novamd/io/config.hpp"

namespace novamd::app {

/// "n_e 3.5e-07 fm^-3, a_e 88 fm, kappa 0.33, 1/omega_p 1.7e+04 fm/c (timestep 0.012/omega_p);
/// Gamma at T = 0.001 MeV: C 324, O 523" (Gamma at the temperature the config asks for).
std::string describe_plasma(const io::Config& config, const analysis::PlasmaParameters& plasma);

/// The thermo columns with `plasma` replaced by the columns it stands for. Throws
/// core::InputError when `plasma` is asked for a run that is not an ion plasma.
std::vector<std::string> expand_thermo_columns(
    const io::Config& config, const std::optional<analysis::PlasmaParameters>& plasma);

}  // namespace novamd::app
