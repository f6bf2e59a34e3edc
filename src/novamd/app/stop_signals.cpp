#include "novamd/app/stop_signals.hpp"

#include <csignal>
#include <cstdlib>

namespace novamd::app {
namespace {

// The one place with process-wide state: a signal handler can only reach a global, and only a
// volatile sig_atomic_t is safe to write from it.
volatile std::sig_atomic_t g_received = 0;

extern "C" void request_stop(int signal) {
  if (g_received != 0) std::_Exit(128 + signal);  // a second signal: stop now
  g_received = signal;
}

struct sigaction g_previous_term, g_previous_int;

}  // namespace

StopSignals::StopSignals() {
  g_received = 0;
  struct sigaction action {};
  action.sa_handler = request_stop;
  // Interrupted reads and writes resume: a signal during set-up or output must not turn into an
  // I/O error ("Interrupted system call").
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &g_previous_term);
  sigaction(SIGINT, &action, &g_previous_int);
}

StopSignals::~StopSignals() {
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGINT, &g_previous_int, nullptr);
}

int StopSignals::received() const {
  return g_received;
}

const char* StopSignals::name(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "a signal";
  }
}

}  // namespace novamd::app
