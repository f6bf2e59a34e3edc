#include "novamd/io/config_dynamics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "novamd/analysis/thermo_columns.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/physical_scales.hpp"
#include "novamd/io/config_quantities.hpp"

namespace novamd::io {
namespace {

const NameList kIntegrators{"velocity_verlet", "leapfrog", "langevin", "nose_hoover", "bussi"};
const NameList kOutputKeys{"thermo", "console", "trajectory", "checkpoint", "topology", "data"};
const NameList kTrajectoryKeys{"every", "file", "fields", "format", "sites"};
const NameList kTrajectoryFields{"position", "velocity", "force"};
const NameList kFormats{"xyz", "dcd", "h5md", "gsd"};

/// The keys each integrator takes besides type and timestep; the thermostat's are required.
NameList thermostat_keys(const std::string& type) {
  if (type == "langevin") return {"temperature", "friction"};
  if (type == "nose_hoover") return {"temperature", "tau", "chain"};
  if (type == "bussi") return {"temperature", "tau"};
  return {};
}

/// `fields`: a list (every field at `every`) or a map of field to interval (h5md only).
void parse_fields(const YamlReader& node, std::int64_t every, TrajectoryOutputSettings& settings) {
  settings.position_every = every;
  const auto fields = node.optional("fields");
  if (!fields) return;
  settings.position_every = 0;
  const auto set = [&](const std::string& name, std::int64_t interval) {
    if (name == "position") settings.position_every = interval;
    if (name == "velocity") settings.velocity_every = interval;
    if (name == "force") settings.force_every = interval;
  };
  if (fields->is_map()) {
    if (settings.format != TrajectoryFormat::H5md)
      fields->fail("per-field intervals need the h5md format",
                   "a list of fields (xyz, dcd and gsd write all fields in every frame)");
    for (const auto& [name, value] : fields->entries()) {
      if (!std::count(kTrajectoryFields.begin(), kTrajectoryFields.end(), name))
        value.fail(fmt::format("'{}' is not a field", name), join_names(kTrajectoryFields));
      set(name, value.integer(ValueRange::non_negative()));
    }
  } else {
    for (const YamlReader& field : fields->elements()) set(field.choice(kTrajectoryFields), every);
  }
  if (settings.format == TrajectoryFormat::Dcd &&
      (settings.velocity_every > 0 || settings.force_every > 0 || settings.position_every == 0))
    fields->fail("DCD files hold positions only", "[position], or the xyz, h5md or gsd format");
  if (settings.format == TrajectoryFormat::Gsd && settings.position_every == 0)
    fields->fail("GSD frames hold the positions", "a list of fields with position");
}

/// The largest interval a DCD header holds (NSAVC, a 32-bit integer).
constexpr double kDcdMaxInterval = 2147483647.0;

TrajectoryOutputSettings parse_trajectory(const YamlReader& node) {
  node.check_keys(kTrajectoryKeys);
  TrajectoryOutputSettings settings;
  settings.file = node.string_or("file", settings.file.string());
  if (const auto given = node.optional("format")) {
    settings.format = *format_named(given->choice(kFormats));
  } else if (const auto implied = format_from_extension(settings.file)) {
    settings.format = *implied;
  } else {
    node.key_reader("file").fail(
        fmt::format("'{}' has no extension that names a format", settings.file.string()),
        "a file ending in .xyz, .dcd, .h5md or .gsd, or a format key (xyz, dcd, h5md or gsd)");
  }
  if (settings.format == TrajectoryFormat::H5md && !h5md_available())
    node.key_reader("file").fail("this build of novamd has no HDF5, so it cannot write H5MD",
                                 "xyz or dcd, or a build with libhdf5-dev installed");
  const auto fields = node.optional("fields");
  const bool map_of_fields = fields && fields->is_map();
  // DCD stores the interval (NSAVC) as a 32-bit integer.
  const ValueRange range = settings.format == TrajectoryFormat::Dcd
                               ? ValueRange::between(map_of_fields ? 0 : 1, kDcdMaxInterval)
                               : ValueRange::at_least(map_of_fields ? 0 : 1);
  const std::int64_t every =
      map_of_fields ? node.integer_or("every", 0, range) : node.required("every").integer(range);
  parse_fields(node, every, settings);
  std::int64_t smallest = 0;
  for (auto interval : {settings.position_every, settings.velocity_every, settings.force_every})
    if (interval > 0 && (smallest == 0 || interval < smallest)) smallest = interval;
  if (smallest == 0)
    node.fail("no field is ever written", "at least one field with an interval >= 1");
  settings.every = smallest;
  settings.sites = node.choice_or("sites", "false", {"true", "false"}) == "true";
  if (settings.sites && settings.format != TrajectoryFormat::Xyz)
    node.key_reader("sites").fail("the sites of rigid molecules are written as extended XYZ only",
                                  "a file ending in .xyz (or format: xyz)");
  if (settings.sites && (settings.velocity_every > 0 || settings.force_every > 0))
    node.key_reader("sites").fail(
        "the sites of rigid molecules are written with their positions only", "fields: [position]");
  return settings;
}

ThermoOutputSettings parse_thermo(const YamlReader& node) {
  node.check_keys({"every", "file", "columns"});
  ThermoOutputSettings settings;
  settings.every = node.integer_or("every", settings.every, ValueRange::at_least(1));
  settings.file = node.string_or("file", settings.file.string());
  if (settings.file == "none") settings.file.clear();  // rows on the console only
  if (const auto columns = node.optional("columns")) {
    settings.columns_given = true;
    const NameList allowed(analysis::kExtraThermoColumns.begin(),
                           analysis::kExtraThermoColumns.end());
    for (const YamlReader& column : columns->elements()) {
      const std::string name = column.choice(allowed);
      if (std::count(settings.columns.begin(), settings.columns.end(), name))
        column.fail(fmt::format("column '{}' is listed twice", name), "each column once");
      settings.columns.push_back(name);
    }
  }
  return settings;
}

/// c_rescale's default interval between moves, GROMACS's nstpcouple: 100 steps, or fewer where
/// tau_p would hold fewer than 5 moves (a first-order coupling's accurate integration). A move
/// costs two steps with energies (the pressure before it and the virial after it), so the
/// interval sets the barostat's overhead.
std::int64_t rescaling_interval(double period, const IntegratorSettings& integrator) {
  const double moves_per_period = 5.0;
  const double steps = std::floor(period / (moves_per_period * integrator.timestep));
  return static_cast<std::int64_t>(std::clamp(steps, 1.0, 100.0));
}

}  // namespace

std::optional<double> parse_duration(const std::string& text) {
  double seconds = 0.0;
  std::size_t start = 0;
  int parts = 0;
  while (start <= text.size()) {
    const std::size_t colon = std::min(text.find(':', start), text.size());
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data() + start, text.data() + colon, value);
    // from_chars reads "nan" and "inf" too
    if (error != std::errc() || end != text.data() + colon || !std::isfinite(value) || value < 0)
      return std::nullopt;
    if (parts > 0 && value >= 60.0) return std::nullopt;  // minutes and seconds below 60
    seconds = 60.0 * seconds + value;
    ++parts;
    start = colon + 1;
  }
  if (parts > 3 || !std::isfinite(seconds)) return std::nullopt;  // "1e308:00" overflows
  return seconds;
}

IntegratorSettings parse_integrator(const YamlReader& node, const core::UnitSystem& units) {
  node.expect_map();
  IntegratorSettings settings;
  if (const auto type = node.optional("type")) settings.type = type->choice(kIntegrators);
  NameList keys = thermostat_keys(settings.type);
  NameList allowed{"type", "timestep"};
  allowed.insert(allowed.end(), keys.begin(), keys.end());
  node.check_keys(allowed);
  settings.timestep = node.required("timestep").number(ValueRange::positive());
  if (keys.empty()) return settings;
  settings.temperature =
      parse_temperature(node.required("temperature"), units, ValueRange::positive());
  if (settings.type == "langevin")
    settings.friction = node.required("friction").number(ValueRange::positive());
  else
    settings.tau = node.required("tau").number(ValueRange::positive());
  if (settings.type == "nose_hoover")
    settings.chain = static_cast<int>(node.integer_or("chain", 3, ValueRange::between(1, 100)));
  return settings;
}

integrate::BarostatSettings parse_barostat(const YamlReader& node, const core::UnitSystem& units,
                                           const IntegratorSettings& integrator) {
  node.expect_map();
  integrate::BarostatSettings settings;
  settings.type = node.required("type").choice({"c_rescale", "monte_carlo", "mttk"});
  const bool rescales = settings.type == "c_rescale";
  const bool mttk = settings.type == "mttk";
  if (rescales)
    node.check_keys({"type", "pressure", "period", "compressibility", "coupling", "every"});
  else if (mttk)
    node.check_keys({"type", "pressure", "period", "coupling", "every"});
  else
    node.check_keys({"type", "pressure", "coupling", "every"});
  if (mttk && integrator.type != "nose_hoover")
    node.fail(fmt::format("mttk with integrator.type {}", integrator.type),
              "integrator.type nose_hoover: MTTK is the Nose-Hoover chain scheme at constant "
              "pressure (c_rescale and monte_carlo take any thermostat)");
  if (!integrator.temperature)
    node.fail(fmt::format("a barostat needs a thermostat; integrator.type is {}", integrator.type),
              "integrator.type langevin, bussi or nose_hoover, whose temperature the barostat "
              "takes");
  settings.pressure = parse_pressure(node.required("pressure"), units, ValueRange::any());
  const std::string coupling =
      node.choice_or("coupling", "isotropic", {"isotropic", "semi_isotropic", "anisotropic"});
  settings.coupling = coupling == "anisotropic"      ? integrate::PressureCoupling::Anisotropic
                      : coupling == "semi_isotropic" ? integrate::PressureCoupling::SemiIsotropic
                                                     : integrate::PressureCoupling::Isotropic;
  if (mttk && settings.coupling == integrate::PressureCoupling::SemiIsotropic)
    node.fail("mttk with coupling semi_isotropic",
              "coupling isotropic or anisotropic (semi_isotropic: c_rescale or monte_carlo)");
  // mttk: every step (LAMMPS's fix npt); monte_carlo: OpenMM's 25.
  settings.every = node.integer_or("every", mttk ? 1 : 25, ValueRange::between(1, 1e9));
  if (!rescales && !mttk) return settings;
  settings.period = node.required("period").number(ValueRange::positive());
  if (mttk) return settings;
  if (!node.optional("every")) settings.every = rescaling_interval(settings.period, integrator);
  if (const auto beta = node.optional("compressibility")) {
    settings.compressibility = parse_compressibility(*beta, units);
  } else if (units.name == "real") {  // liquid water's, 4.5e-5 per bar (GROMACS's default)
    settings.compressibility =
        4.5e-5 / 1e5 * core::physical_scales(units)->pascals_per_energy_density;
  } else {
    node.fail("no compressibility",
              fmt::format("barostat.compressibility: an estimate of the isothermal "
                          "compressibility, per {} (only real units have a default, water's)",
                          units.pressure));
  }
  return settings;
}

constraints::ConstraintSettings parse_constraints(const YamlReader& node) {
  node.check_keys({"bonds", "water", "tolerance"});
  constraints::ConstraintSettings settings;
  const auto listed = node.optional("bonds");
  if (listed && listed->is_list()) {  // bond types, numbered as the topology file numbers them
    settings.request.bonds = constraints::BondConstraints::ListedTypes;
    for (const auto& element : listed->elements())
      settings.request.bond_types.push_back(
          static_cast<int>(element.integer(ValueRange::between(1, 1e9))));
    if (settings.request.bond_types.empty())
      throw core::InputError(listed->location() +
                             ": constraints.bonds: an empty list of bond types; expected bond "
                             "types as the topology file numbers them (from 1), or none");
  } else {
    const std::string bonds = node.choice_or("bonds", "h_bonds", {"none", "h_bonds", "all_bonds"});
    settings.request.bonds = bonds == "none"        ? constraints::BondConstraints::None
                             : bonds == "all_bonds" ? constraints::BondConstraints::AllBonds
                                                    : constraints::BondConstraints::HydrogenBonds;
  }
  settings.request.rigid_water = node.choice_or("water", "settle", {"settle", "none"}) == "settle";
  settings.tolerance =
      node.number_or("tolerance", settings.tolerance, ValueRange::between(1e-14, 1e-2));
  return settings;
}

/// One of `run.stages`: `steps`, and `integrator` and `temperature` where the stage changes them.
RunStage parse_stage(const YamlReader& node, const core::UnitSystem& units,
                     const IntegratorSettings& before,
                     const integrate::BarostatSettings& barostat) {
  node.check_keys({"steps", "integrator", "temperature"});
  RunStage stage;
  stage.steps = node.required("steps").integer(ValueRange::at_least(1));
  stage.integrator = before;
  if (const auto integrator = node.optional("integrator"))
    stage.integrator = parse_integrator(*integrator, units);
  if (const auto temperature = node.optional("temperature")) {
    if (!stage.integrator.temperature)
      temperature->fail(
          fmt::format("the stage's integrator, {}, has no thermostat", stage.integrator.type),
          "a stage whose integrator is langevin, nose_hoover or bussi");
    if (temperature->is_list()) {
      const auto ends = temperature->elements();
      if (ends.size() != 2)
        temperature->fail(fmt::format("a list of {} temperatures", ends.size()),
                          "[T_first, T_last], the ramp's two ends");
      stage.ramp = {parse_temperature(ends[0], units, ValueRange::positive()),
                    parse_temperature(ends[1], units, ValueRange::positive())};
      if (!barostat.type.empty())
        temperature->fail("a temperature ramp with a barostat",
                          "a constant temperature in a stage of a run at constant pressure");
      stage.integrator.temperature = (*stage.ramp)[0];
    } else {
      stage.integrator.temperature = parse_temperature(*temperature, units, ValueRange::positive());
    }
  }
  if (!barostat.type.empty() && !stage.integrator.temperature)
    node.fail(fmt::format("a barostat needs a thermostat, and this stage's integrator is {}",
                          stage.integrator.type),
              "integrator.type langevin, bussi or nose_hoover in every stage");
  if (barostat.type == "mttk" && stage.integrator.type != "nose_hoover")
    node.fail(fmt::format("mttk with a stage's integrator.type {}", stage.integrator.type),
              "nose_hoover in every stage (MTTK is the Nose-Hoover chain at constant pressure)");
  return stage;
}

/// What every stage keeps: with a barostat the temperature it was made for (mttk: the whole
/// integrator, whose part it is); leapfrog's half-step velocities cannot pass from or to another
/// integrator. The timestep may change (time goes on continuously: core/time_axis.hpp).
void check_stages(const YamlReader& node, const std::vector<RunStage>& stages,
                  const IntegratorSettings& integrator,
                  const integrate::BarostatSettings& barostat) {
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const IntegratorSettings& s = stages[k].integrator;
    const auto fail = [&](const std::string& found, const std::string& expected) {
      node.elements()[k].fail(fmt::format("stage {}: {}", k + 1, found), expected);
    };
    if (s.type == "leapfrog" || (k == 0 && integrator.type == "leapfrog" && s.type != "leapfrog"))
      fail("leapfrog in a run in stages",
           "velocity_verlet, langevin, nose_hoover or bussi (leapfrog's velocities lag half a "
           "step, which no other integrator takes over)");
    if (!barostat.type.empty() && s.temperature != integrator.temperature)
      fail(fmt::format("temperature {} at constant pressure, where integrator.temperature is {}",
                       s.temperature.value_or(0.0), integrator.temperature.value_or(0.0)),
           "the barostat's temperature, integrator.temperature, in every stage");
    if (barostat.type == "mttk" &&
        (s.type != integrator.type || s.tau != integrator.tau || s.chain != integrator.chain))
      fail("another integrator at constant pressure with mttk",
           "the integrator itself in every stage (mttk is part of it)");
  }
}

RunSettings parse_run(const YamlReader& node, const core::UnitSystem& units,
                      const IntegratorSettings& integrator,
                      const integrate::BarostatSettings& barostat) {
  node.check_keys({"steps", "stages", "walltime", "max_energy_drift"});
  RunSettings settings;
  if (const auto stages = node.optional("stages")) {
    IntegratorSettings before = integrator;
    std::int64_t total = 0;
    for (const YamlReader& element : stages->elements()) {
      settings.stages.push_back(parse_stage(element, units, before, barostat));
      before = settings.stages.back().integrator;
      total += settings.stages.back().steps;
    }
    if (settings.stages.empty())
      stages->fail("an empty list of stages", "stages, each a map with steps (>= 1)");
    check_stages(*stages, settings.stages, integrator, barostat);
    settings.steps = total;
    if (const auto steps = node.optional("steps")) {
      settings.steps = steps->integer(ValueRange::non_negative());
      if (settings.steps > total)
        steps->fail(
            fmt::format("{} steps, more than the stages' {}", settings.steps, total),
            fmt::format("at most {} (the stages' sum; leave steps out for all of them)", total));
    }
  } else {
    settings.steps = node.required("steps").integer(ValueRange::non_negative());
  }
  if (const auto walltime = node.optional("walltime")) {
    const auto seconds = parse_duration(walltime->string());
    if (!seconds || *seconds <= 0)
      walltime->fail(fmt::format("'{}' is not a duration", walltime->string()),
                     "\"HH:MM:SS\", \"MM:SS\" or seconds, > 0");
    settings.walltime = seconds;
  }
  if (const auto drift = node.optional("max_energy_drift"))
    settings.max_energy_drift = drift->number_or_word("none", ValueRange::positive());
  return settings;
}

OutputSettings parse_output(const YamlReader& node) {
  node.check_keys(kOutputKeys);
  OutputSettings settings;
  if (const auto thermo = node.optional("thermo")) settings.thermo = parse_thermo(*thermo);
  settings.console.every = settings.thermo.every;
  if (const auto console = node.optional("console")) {
    console->check_keys({"every"});
    settings.console.every =
        console->integer_or("every", settings.thermo.every, ValueRange::non_negative());
  }
  if (const auto trajectory = node.optional("trajectory")) {
    if (trajectory->is_list()) {
      for (const YamlReader& element : trajectory->elements())
        settings.trajectories.push_back(parse_trajectory(element));
    } else {
      settings.trajectories.push_back(parse_trajectory(*trajectory));
    }
  }
  if (const auto checkpoint = node.optional("checkpoint")) {
    checkpoint->check_keys({"every", "file"});
    settings.checkpoint.every = checkpoint->integer_or("every", 0, ValueRange::non_negative());
    settings.checkpoint.file = checkpoint->string_or("file", settings.checkpoint.file.string());
    settings.checkpoint.configured = true;
  }
  if (const auto topology = node.optional("topology")) {
    topology->check_keys({"file"});
    settings.topology_file = topology->required("file").string();
  }
  if (const auto data = node.optional("data")) {
    data->check_keys({"file"});
    settings.data_file = data->required("file").string();
  }
  return settings;
}

}  // namespace novamd::io
