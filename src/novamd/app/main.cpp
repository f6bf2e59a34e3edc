// The `novamd` command: run, bench, --version. Exit codes: 0 success, 1 run-time failure,
// 2 bad input or usage.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "novamd/app/bench_command.hpp"
#include "novamd/app/run_command.hpp"
#include "novamd/app/version.hpp"
#include "novamd/core/error.hpp"

namespace {

using novamd::core::kExitBadInput;

void add_run_command(CLI::App& app, novamd::app::RunOptions& run, std::vector<std::string>& sets,
                     std::string& backend, std::string& precision, std::string& steps) {
  auto* cmd = app.add_subcommand("run", "Run a simulation from a YAML config");
  cmd->add_option("config", run.config, "YAML config file")->required();
  cmd->add_option("--backend", backend, "auto | cpu | cuda (overrides the config)");
  cmd->add_option("--precision", precision, "double | mixed | single (overrides the config)");
  cmd->add_option("--steps", steps, "number of steps (overrides run.steps)");
  cmd->add_option("--set", sets, "override a config key: --set key.path=value (repeatable)");
}

void add_bench_command(CLI::App& app, novamd::app::BenchOptions& bench) {
  auto* cmd = app.add_subcommand(
      "bench", "Time the seed-000 Table II sizes (C/O, all pairs) or the Lennard-Jones melt");
  cmd->add_option("--case", bench.case_name, "yukawa | lj")->capture_default_str();
  cmd->add_option("--neighbors", bench.neighbors, "lj: auto | neighbor_list | cell_list")
      ->capture_default_str();
  cmd->add_option("--backend", bench.backend, "auto | cpu | cuda")->capture_default_str();
  cmd->add_option("--precision", bench.precision, "double | mixed | single")->capture_default_str();
  cmd->add_option("--sizes", bench.sizes,
                  "particle counts (default: all of Table II; lj: 32,000 to 4,000,000 on a GPU)");
  cmd->add_option("--steps", bench.steps,
                  "steps per timed batch (default: 100 on a GPU; on the CPU 3, 1 above 10,000)");
  cmd->add_option("--warmup", bench.warmup, "untimed steps first")->capture_default_str();
}

int dispatch(CLI::App& app, novamd::app::RunOptions& run, const std::vector<std::string>& sets,
             const std::string& backend, const std::string& precision, const std::string& steps,
             const novamd::app::BenchOptions& bench) {
  if (app.got_subcommand("run")) {
    for (const auto& s : sets) run.overrides.push_back(novamd::app::parse_override(s));
    if (!backend.empty()) run.overrides.push_back({"backend", backend});
    if (!precision.empty()) run.overrides.push_back({"precision", precision});
    if (!steps.empty()) run.overrides.push_back({"run.steps", steps});
    return novamd::app::run_command(run);
  }
  return novamd::app::bench_command(bench);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"NovaMD: molecular dynamics on CPUs and GPUs", "novamd"};
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version, "Print version, commit and CUDA support");
  novamd::app::RunOptions run;
  novamd::app::BenchOptions bench;
  std::vector<std::string> sets;
  std::string backend, precision, steps;
  add_run_command(app, run, sets, backend, precision, steps);
  add_bench_command(app, bench);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  if (show_version) {
    fmt::print("{}", novamd::app::version_report());
    return novamd::core::kExitSuccess;
  }
  if (app.get_subcommands().empty()) {
    fmt::print("{}", app.help());
    return kExitBadInput;
  }
  try {
    return dispatch(app, run, sets, backend, precision, steps, bench);
  } catch (const novamd::core::InputError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "novamd: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const novamd::core::RunError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "novamd: run stopped: {}\n", e.what());
    return novamd::core::kExitRunFailure;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "novamd: internal error: {}\n", e.what());
    return novamd::core::kExitRunFailure;
  }
}
