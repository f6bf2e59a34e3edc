#pragma once
/// @file rank_agreement.hpp
/// Failures while a run is set up, agreed on by every MPI rank: a rank that fails alone (a
/// device it cannot use, a file only rank 0 opens) would otherwise leave the others waiting in
/// their first collective. Errors every rank raises alike (a bad config) are printed once.

#include <climits>
#include <exception>
#include <optional>
#include <stdexcept>

#include "novamd/core/error.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace novamd::app {

/// Another rank failed: this one ends with `code`, silently (that rank printed why).
class PeerFailure : public std::runtime_error {
 public:
  explicit PeerFailure(int code) : std::runtime_error("another rank failed"), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// A failure every rank raises at the same point (the run's state is the same everywhere):
/// printed by rank 0 alone, and every rank ends normally with its exit code.
class CollectiveRunError : public core::RunError {
 public:
  using core::RunError::RunError;
};

/// The exit code of an exception: 2 for bad input, 1 for the rest.
inline int exit_code_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const core::InputError&) {
    return core::kExitBadInput;
  } catch (...) {
    return core::kExitRunFailure;
  }
}

/// Runs `work()` on every rank and returns its result; when any rank failed, the lowest failing
/// rank rethrows its error and the others throw PeerFailure with the largest exit code.
template <class Work>
auto agreed_by_all_ranks(const parallel::MpiSession& session, Work&& work) -> decltype(work()) {
  if (session.size() == 1) return work();
  std::optional<decltype(work())> result;
  std::exception_ptr error;
  try {
    result.emplace(work());
  } catch (...) {
    error = std::current_exception();
  }
  const int code = session.max_over_ranks(error ? exit_code_of(error) : 0);
  if (code == 0) return std::move(*result);
  const int first = session.min_over_ranks(error ? session.rank() : INT_MAX);
  if (error && session.rank() == first) std::rethrow_exception(error);
  throw PeerFailure(code);
}

}  // namespace novamd::app
