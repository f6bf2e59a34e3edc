#pragma once
/// @file output_lock.hpp
/// Locks on a run's output files, so that a second run writing any of them (two runs started
/// in one folder with the same config, say) is refused instead of clobbering the first's files.
/// Each output `dir/name` gets a lock file `dir/.name.lock` holding an exclusive flock(2) while
/// the run lives. The kernel drops the lock when the process ends however it ends, so a lock
/// file a killed run left behind blocks nothing; a run that ends normally removes its lock files.

#include <filesystem>
#include <string>
#include <vector>

namespace novamd::app {

class OutputLock {
 public:
  OutputLock() = default;
  /// Locks every file of `outputs`. @throws core::InputError naming the file another running
  /// process holds (and its process id, which the lock file records).
  explicit OutputLock(const std::vector<std::filesystem::path>& outputs);
  ~OutputLock();
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  /// `dir/.name.lock` for the output `dir/name`.
  static std::filesystem::path lock_file_for(const std::filesystem::path& output);

 private:
  struct Held {
    int fd;
    std::filesystem::path file;
  };
  void release() noexcept;
  std::vector<Held> held_;
};

}  // namespace novamd::app
