/// @file core_module.cpp
/// `novamd._core`: the engine library's Simulation for Python (nanobind). The Python package
/// (python/novamd) wraps it; users see novamd.Simulation, not this module.
///
/// Arrays cross as NumPy arrays of float64 (N x 3, id order), copied in both directions: on the
/// CUDA backend a state is brought from the device only when asked for. The interpreter's lock
/// is released while the engine runs and taken again for each callback.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "novamd/analysis/thermo_columns.hpp"
#include "novamd/app/cli.hpp"
#include "novamd/app/simulation.hpp"
#include "novamd/app/stop_signals.hpp"
#include "novamd/app/version.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/checkpoint.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using novamd::app::Simulation;
using Array2 = nb::ndarray<nb::numpy, double, nb::ndim<2>>;
using Input2 = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using InputTypes = nb::ndarray<const std::int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

/// A Python exception raised in a callback: it stays set in the interpreter while the engine's
/// frames unwind without the interpreter's lock.
struct CallbackRaised {};

/// One process-wide MPI stand-in: Python runs one rank.
const novamd::parallel::MpiSession& session() {
  static const novamd::parallel::MpiSession single;
  return single;
}

/// A NumPy array owning a copy of `values` (rows x columns, C order).
template <class T>
nb::ndarray<nb::numpy, T> numpy_copy(std::vector<T> values, std::size_t rows, std::size_t columns) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  const std::size_t shape[2] = {rows, columns};
  return nb::ndarray<nb::numpy, T>(owned->data(), columns == 0 ? 1 : 2, shape, owner);
}

/// x, y, z of a field interleaved per particle.
template <class Vec>
std::vector<double> interleaved(const Vec& v) {
  std::vector<double> out(3 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out[3 * i] = v.x[i];
    out[3 * i + 1] = v.y[i];
    out[3 * i + 2] = v.z[i];
  }
  return out;
}

std::vector<double> flat(const Input2& a, std::size_t rows, const char* what) {
  if (a.shape(0) != rows || a.shape(1) != 3)
    throw novamd::core::InputError(
        std::string(what) + ": expected an array of shape (" + std::to_string(rows) +
        ", 3), got (" + std::to_string(a.shape(0)) + ", " + std::to_string(a.shape(1)) + ")");
  return std::vector<double>(a.data(), a.data() + a.size());
}

/// The Python-side simulation: the library's Simulation, and whether a run failed part way.
class PySimulation {
 public:
  explicit PySimulation(std::unique_ptr<Simulation> sim) : sim_(std::move(sim)) {}

  Simulation& sim() {
    if (broken_)
      throw novamd::core::RunError(
          "an earlier run of this simulation failed part way; its state is not usable (build a "
          "new Simulation, or continue from a checkpoint)");
    return *sim_;
  }

  /// Runs `steps` steps, calling each (every, function) after every `every`-th step. Returns
  /// whether a signal (Ctrl-C) stopped the run early.
  int run(std::int64_t steps, const std::vector<std::pair<std::int64_t, nb::callable>>& callbacks) {
    Simulation& s = sim();
    std::vector<novamd::app::StepCallback> calls;
    for (const auto& [every, function] : callbacks) {
      PyObject* f = function.ptr();  // kept alive by `callbacks` for the run's length
      calls.push_back({every, [f](std::int64_t step) {
                         nb::gil_scoped_acquire lock;
                         PyObject* argument = PyLong_FromLongLong(step);
                         PyObject* result = argument ? PyObject_CallOneArg(f, argument) : nullptr;
                         Py_XDECREF(argument);
                         if (!result) throw CallbackRaised{};
                         Py_DECREF(result);
                       }});
    }
    novamd::app::RunResult result;
    bool raised = false;
    {
      nb::gil_scoped_release unlocked;
      const novamd::app::StopSignals signals;
      try {
        result = s.run_steps(steps, std::move(calls), &signals);
      } catch (const CallbackRaised&) {
        raised = true;
      } catch (const novamd::core::InputError&) {
        throw;  // refused before a step was taken
      } catch (...) {
        broken_ = true;
        throw;
      }
    }
    if (raised) throw nb::python_error();
    return result.signal;
  }

  nb::dict state() {
    Simulation& s = sim();
    s.ensure_forces();
    const auto& p = s.particles();
    const std::size_t n = p.size();
    nb::dict d;
    d["positions"] = numpy_copy(interleaved(p.position), n, 3);
    d["velocities"] = numpy_copy(interleaved(p.velocity), n, 3);
    d["forces"] = numpy_copy(interleaved(p.force), n, 3);
    d["ids"] = numpy_copy(std::vector<std::int32_t>(p.id.begin(), p.id.end()), n, 0);
    d["types"] = numpy_copy(std::vector<std::int32_t>(p.type.begin(), p.type.end()), n, 0);
    if (p.has(p.charge)) d["charges"] = numpy_copy(std::vector<double>(p.charge), n, 0);
    if (p.has(p.orientation)) {
      std::vector<double> q(4 * n);
      for (std::size_t i = 0; i < n; ++i) {
        const auto o = p.orientation.get(i);
        q[4 * i] = o.w, q[4 * i + 1] = o.x, q[4 * i + 2] = o.y, q[4 * i + 3] = o.z;
      }
      d["orientations"] = numpy_copy(std::move(q), n, 4);
      d["angular_momenta"] = numpy_copy(interleaved(p.angular_momentum), n, 3);
      d["torques"] = numpy_copy(interleaved(p.torque), n, 3);
    }
    const auto& L = s.box().length();
    d["box"] = numpy_copy(std::vector<double>{L.x, L.y, L.z}, 3, 0);
    d["step"] = s.step();
    d["time"] = s.time();
    return d;
  }

  void set_positions(const Input2& a) {
    Simulation& s = sim();
    s.set_positions(flat(a, s.backend().size(), "positions"));
  }
  void set_velocities(const Input2& a) {
    Simulation& s = sim();
    s.set_velocities(flat(a, s.backend().size(), "velocities"));
  }
  void set_box(double lx, double ly, double lz, bool scale_positions) {
    sim().set_box(novamd::core::Box(lx, ly, lz), scale_positions);
  }

  /// Every thermo column's value now (the standard ones, then every extra column the system
  /// has a value for).
  nb::dict thermo() {
    const novamd::analysis::ThermoState t = sim().thermo();
    nb::dict d;
    d["step"] = t.step;  // an integer, where the other columns are numbers
    for (const auto* columns :
         {&novamd::analysis::kStandardThermoColumns, &novamd::analysis::kExtraThermoColumns})
      for (const auto& column : *columns) {
        // `plasma` stands for several columns (none here); `wall_time` is the run's, not a state's.
        if (column == "step" || column == "plasma" || column == "wall_time") continue;
        d[column.c_str()] = novamd::analysis::thermo_value(t, column);
      }
    return d;
  }

  nb::dict energies() {
    Simulation& s = sim();
    const novamd::analysis::ThermoState t = s.thermo();
    nb::dict d;
    d["potential"] = t.potential_energy;
    d["kinetic"] = t.kinetic_energy;
    d["total"] = t.total_energy;
    for (const auto& [name, energy] : s.term_energies(t)) d[name.c_str()] = energy;
    return d;
  }

  void save_checkpoint(const std::string& file) { sim().save_checkpoint(file); }
  void close() { sim_->close(); }

  std::int64_t step() { return sim().step(); }
  std::size_t size() { return sim().backend().size(); }
  std::string backend() { return sim().backend_name(); }
  std::string description() { return sim().backend().description(); }
  std::string precision() { return std::string(novamd::core::to_string(sim().config().precision)); }
  std::string units() { return sim().config().units.name; }
  double timestep() { return sim().time_axis().timestep; }
  std::string config_yaml() { return sim().config().effective_yaml; }
  std::int64_t config_steps() { return sim().config().run.steps; }
  std::vector<std::string> species() {
    std::vector<std::string> names;
    const auto& species = sim().config().system.species;
    for (int t = 0; t < species.size(); ++t) names.push_back(species[t].name);
    return names;
  }

 private:
  std::unique_ptr<Simulation> sim_;
  bool broken_ = false;
};

std::unique_ptr<PySimulation> create(const std::string& name, std::optional<std::string> text,
                                     const std::vector<std::pair<std::string, std::string>>& sets,
                                     std::optional<std::string> restart,
                                     std::optional<InputTypes> types,
                                     std::optional<Input2> positions,
                                     std::optional<Input2> velocities, bool console) {
  novamd::app::SimulationInput input;
  input.config = name;
  input.config_text = std::move(text);
  for (const auto& [key, value] : sets) input.overrides.push_back({key, value});
  if (restart) input.restart = *restart;
  if (types) {
    const std::size_t n = types->shape(0);
    novamd::io::GivenParticles given;
    given.type.assign(types->data(), types->data() + n);
    if (positions) given.position = flat(*positions, n, "positions");
    if (velocities) given.velocity = flat(*velocities, n, "velocities");
    input.particles = std::move(given);
  }
  input.library = true;
  input.console = console;
  nb::gil_scoped_release unlocked;
  return std::make_unique<PySimulation>(Simulation::create(input, session()));
}

int cli_main(const std::vector<std::string>& args) {
  std::vector<std::string> copies = args;
  std::vector<char*> argv;
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  nb::gil_scoped_release unlocked;
  return novamd::app::run_cli(static_cast<int>(copies.size()), argv.data());
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "NovaMD's engine library (use the novamd package, not this module)";
  m.attr("__version__") = NOVAMD_VERSION;
  nb::exception<novamd::core::InputError>(m, "ConfigError", PyExc_ValueError);
  nb::exception<novamd::core::RunError>(m, "RunError", PyExc_RuntimeError);

  nb::class_<PySimulation>(m, "Simulation")
      .def_static("create", &create, "name"_a, "text"_a.none(), "sets"_a, "restart"_a.none(),
                  "types"_a.none(), "positions"_a.none(), "velocities"_a.none(), "console"_a)
      .def("run", &PySimulation::run, "steps"_a, "callbacks"_a)
      .def("state", &PySimulation::state)
      .def("set_positions", &PySimulation::set_positions)
      .def("set_velocities", &PySimulation::set_velocities)
      .def("set_box", &PySimulation::set_box)
      .def("thermo", &PySimulation::thermo)
      .def("energies", &PySimulation::energies)
      .def("save_checkpoint", &PySimulation::save_checkpoint)
      .def("close", &PySimulation::close)
      .def_prop_ro("step", &PySimulation::step)
      .def_prop_ro("size", &PySimulation::size)
      .def_prop_ro("backend", &PySimulation::backend)
      .def_prop_ro("description", &PySimulation::description)
      .def_prop_ro("precision", &PySimulation::precision)
      .def_prop_ro("units", &PySimulation::units)
      .def_prop_ro("timestep", &PySimulation::timestep)
      .def_prop_ro("config_yaml", &PySimulation::config_yaml)
      .def_prop_ro("config_steps", &PySimulation::config_steps)
      .def_prop_ro("species", &PySimulation::species);

  m.def("cli_main", &cli_main, "argv"_a);
  m.def("checkpoint_config",
        [](const std::string& file) { return novamd::io::read_checkpoint(file).config_yaml; });
  m.def("version", [] { return novamd::app::version_report(); });
}
