#pragma once
/// @file cli.hpp
/// The `novamd` command line: run, check, bench, --version. The `novamd` program and the Python
/// package's `python -m novamd` both call it.

namespace novamd::app {

/// Parses `argv` (argv[0] the program's name) and runs the command; returns the exit code: 0
/// success, 1 run-time failure, 2 bad input or usage. Messages go to standard output and error.
int run_cli(int argc, char** argv);

}  // namespace novamd::app
