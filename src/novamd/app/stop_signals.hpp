#pragma once
/// @file stop_signals.hpp
/// SIGTERM and SIGINT (a batch system's warning before the kill, or Ctrl-C) ask the run to stop
/// at the next step boundary, where it writes a checkpoint and exits 0. A second signal ends the
/// process at once (the last checkpoint on disk stays whole: checkpoints are renamed into place).

namespace novamd::app {

/// Installs the handlers for its lifetime and restores the previous ones after.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal received since installation (SIGTERM or SIGINT), or 0.
  int received() const;
  /// "SIGTERM", "SIGINT", ...
  static const char* name(int signal);
};

}  // namespace novamd::app
