/// @file cli.cpp
/// The `novamd` command line (cli.hpp).

#include "novamd/app/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <new>
#include <optional>
#include <string>
#include <system_error>

#include "novamd/app/bench_command.hpp"
#include "novamd/app/check_command.hpp"
#include "novamd/app/rank_agreement.hpp"
#include "novamd/app/run_command.hpp"
#include "novamd/app/version.hpp"
#include "novamd/core/error.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace {

using novamd::core::kExitBadInput;

/// Options given as text on the command line, applied to RunOptions after parsing.
struct RunFlags {
  std::vector<std::string> sets;
  std::optional<std::string> backend, precision, steps, restart;  ///< given, even if empty
};

void add_run_command(CLI::App& app, novamd::app::RunOptions& run, RunFlags& flags) {
  auto* cmd = app.add_subcommand("run", "Run a simulation from a YAML config");
  cmd->add_option("config", run.config, "YAML config file")->required();
  cmd->add_option("--backend", flags.backend, "auto | cpu | cuda (overrides the config)");
  cmd->add_option("--precision", flags.precision, "double | mixed | single (overrides the config)");
  cmd->add_option("--steps", flags.steps, "the last step (overrides run.steps)");
  cmd->add_option("--set", flags.sets, "override a config key: --set key.path=value (repeatable)");
  cmd->add_option("--restart", flags.restart, "continue from this checkpoint file");
}

void add_check_command(CLI::App& app, novamd::app::CheckOptions& check, RunFlags& flags) {
  auto* cmd = app.add_subcommand(
      "check", "Compare the first step's forces with a reference (PME with Ewald, GPU with CPU)");
  cmd->add_option("config", check.input.config, "YAML config file")->required();
  cmd->add_option("--against", check.against, "auto | ewald | cpu")->capture_default_str();
  cmd->add_option("--tolerance", check.tolerance,
                  "fail (exit code 1) above this relative RMS force error");
  cmd->add_option("--backend", flags.backend, "auto | cpu | cuda (overrides the config)");
  cmd->add_option("--precision", flags.precision, "double | mixed | single (overrides the config)");
  cmd->add_option("--set", flags.sets, "override a config key: --set key.path=value (repeatable)");
}

/// The overrides of --set, --backend, --precision and --steps, in that order.
std::vector<novamd::io::Override> overrides_of(const RunFlags& flags) {
  std::vector<novamd::io::Override> overrides;
  for (const auto& s : flags.sets) overrides.push_back(novamd::app::parse_override(s));
  // Options given, even as empty text, reach the config reader, which says what is wrong.
  if (flags.backend) overrides.push_back({"backend", *flags.backend});
  if (flags.precision) overrides.push_back({"precision", *flags.precision});
  if (flags.steps) overrides.push_back({"run.steps", *flags.steps});
  return overrides;
}

void add_bench_command(CLI::App& app, novamd::app::BenchOptions& bench) {
  auto* cmd = app.add_subcommand(
      "bench",
      "Time the seed-000 Table II sizes (C/O, all pairs), the Lennard-Jones melt or nuclear pasta");
  cmd->add_option("--case", bench.case_name, "yukawa | lj | pasta | ornl | rigid")
      ->capture_default_str();
  cmd->add_option("--cutoffs", bench.cutoffs, "rigid: cutoffs on the centres (2.5,3.5,5)")
      ->delimiter(',');
  cmd->add_option("--neighbors", bench.neighbors, "lj: auto | neighbor_list | cell_list")
      ->capture_default_str();
  cmd->add_option(
         "--layout", bench.layout,
         "lj, ornl: the CUDA backend's Verlet lists, auto | atoms | clusters (neighbors.layout)")
      ->capture_default_str();
  cmd->add_option("--backend", bench.backend, "auto | cpu | cuda")->capture_default_str();
  cmd->add_option("--precision", bench.precision, "double | mixed | single")->capture_default_str();
  cmd->add_option("--sizes", bench.sizes,
                  "particle counts (default: all of Table II; lj: 32,000 to 4,000,000 on a GPU; "
                  "pasta: 51,200 on a GPU, 4,000 on the CPU)");
  cmd->add_option("--steps", bench.steps,
                  "steps per timed batch (default: 100 on a GPU; on the CPU 3, 1 above 10,000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", bench.warmup, "untimed steps first")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
}

int dispatch(CLI::App& app, novamd::app::RunOptions& run, novamd::app::CheckOptions& check,
             const RunFlags& flags, const novamd::app::BenchOptions& bench,
             const novamd::parallel::MpiSession& session) {
  if (app.got_subcommand("run")) {
    run.overrides = overrides_of(flags);
    if (flags.restart) {
      if (flags.restart->empty())
        throw novamd::core::InputError("--restart: the file name is empty; expected a checkpoint");
      run.restart = *flags.restart;
    }
    return novamd::app::run_command(run, session);
  }
  if (session.size() > 1) {
    if (session.rank() != 0) return kExitBadInput;  // said once, by rank 0
    throw novamd::core::InputError(
        "bench and check run in one process; under mpirun, use `novamd run` "
        "(scripts/device/test.sh scaling)");
  }
  if (app.got_subcommand("check")) {
    check.input.overrides = overrides_of(flags);
    return novamd::app::check_command(check, session);
  }
  return novamd::app::bench_command(bench);
}

/// Whether a first argument that is no command names a config (`novamd cfg.yaml`, where `novamd
/// run cfg.yaml` was meant): a YAML file name, or a file that exists.
bool looks_like_a_config(const std::string& argument) {
  std::error_code ec;
  return argument.ends_with(".yaml") || argument.ends_with(".yml") ||
         std::filesystem::is_regular_file(argument, ec);
}

/// Prints a failure on standard error, naming the rank where there are several. A failure one
/// rank met alone during the run (`alone`) ends every rank: the others would wait for it in
/// their next collective.
int report_failure(const novamd::parallel::MpiSession& session, const char* what,
                   const std::string& message, int code, bool alone) {
  std::fflush(stdout);
  const std::string rank = session.rank() != 0 ? fmt::format(" (rank {})", session.rank()) : "";
  fmt::print(stderr, "novamd{}: {}{}\n", rank, what, message);
  std::fflush(stderr);
  if (alone) session.abort(code);
  return code;
}

}  // namespace

namespace novamd::app {

int run_cli(int argc, char** argv) {
  const novamd::parallel::MpiSession session(argc, argv);
  // Rank 0 prints the console output; the others' standard output is discarded (errors still
  // reach standard error).
  if (session.rank() != 0 && !std::freopen("/dev/null", "w", stdout)) return kExitBadInput;
  CLI::App app{"NovaMD: molecular dynamics on CPUs and GPUs", "novamd"};
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version, "Print version, commit and CUDA support");
  novamd::app::RunOptions run;
  novamd::app::BenchOptions bench;
  novamd::app::CheckOptions check;
  RunFlags flags;  // of run or check: one subcommand per call
  add_run_command(app, run, flags);
  add_check_command(app, check, flags);
  add_bench_command(app, bench);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    if (argc >= 2 && argv[1][0] != '-' && looks_like_a_config(argv[1]))
      fmt::print(stderr, "Did you mean: {} run {}\n", argv[0], argv[1]);
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
  using novamd::core::kExitRunFailure;
  try {
    return dispatch(app, run, check, flags, bench, session);
  } catch (const novamd::app::PeerFailure& e) {
    return e.code();  // the failing rank has said why
  } catch (const novamd::core::InputError& e) {
    // A setup failure reaches one rank only (app/rank_agreement.hpp): the lowest that met it.
    return report_failure(session, "error: ", e.what(), kExitBadInput, false);
  } catch (const novamd::app::CollectiveRunError& e) {
    // Met by every rank at the same step: said once.
    if (session.rank() != 0) return kExitRunFailure;
    return report_failure(session, "run stopped: ", e.what(), kExitRunFailure, false);
  } catch (const novamd::core::RunError& e) {
    return report_failure(session, "run stopped: ", e.what(), kExitRunFailure, true);
  } catch (const std::bad_alloc&) {
    return report_failure(
        session, "run stopped: ", "out of memory: the system is too large for this machine",
        kExitRunFailure, true);
  } catch (const std::exception& e) {
    return report_failure(session, "internal error: ", e.what(), kExitRunFailure, true);
  }
}

}  // namespace novamd::app
