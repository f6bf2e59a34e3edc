#include "novamd/app/output_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::app {
namespace {

/// The process id recorded in a lock file, or "?".
std::string holder_of(int fd) {
  char text[32] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return "?";
  std::string pid(text, static_cast<std::size_t>(n));
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "?" : pid;
}

/// True when `fd` is still the file at `path` (a finishing run may have removed it between our
/// open and our lock: then the lock guards nothing and must be taken again).
bool still_linked(int fd, const std::filesystem::path& path) {
  struct stat by_fd {
  }, by_path{};
  return ::fstat(fd, &by_fd) == 0 && ::lstat(path.c_str(), &by_path) == 0 &&
         by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}

}  // namespace

std::filesystem::path OutputLock::lock_file_for(const std::filesystem::path& output) {
  return output.parent_path() / ("." + output.filename().string() + ".lock");
}

OutputLock::OutputLock(const std::vector<std::filesystem::path>& outputs) {
  try {
    for (const auto& output : outputs) {
      std::error_code ec;
      const auto status = std::filesystem::status(output, ec);
      if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        continue;  // /dev/null and the like: nothing to guard, and no lock file beside it
      const auto file = lock_file_for(output);
      for (int attempt = 0;; ++attempt) {
        const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
          throw core::InputError(fmt::format("{}: cannot create the lock file '{}': {}",
                                             output.string(), file.string(), std::strerror(errno)));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
          const std::string pid = holder_of(fd);
          ::close(fd);
          throw core::InputError(fmt::format(
              "{}: another novamd run (process {}) is writing this file (it holds '{}'); "
              "expected one run per set of output files: wait for it to end, or give this run "
              "other output names",
              output.string(), pid, file.string()));
        }
        if (!still_linked(fd, file) && attempt < 8) {
          ::close(fd);
          continue;
        }
        const std::string pid = fmt::format("{}\n", ::getpid());
        if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
          // The lock holds without the process id; the id only makes the message friendlier.
        }
        held_.push_back({fd, file});
        break;
      }
    }
  } catch (...) {
    release();
    throw;
  }
}

OutputLock::~OutputLock() {
  release();
}

OutputLock::OutputLock(OutputLock&& other) noexcept : held_(std::exchange(other.held_, {})) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    held_ = std::exchange(other.held_, {});
  }
  return *this;
}

void OutputLock::release() noexcept {
  for (const Held& h : held_) {
    ::unlink(h.file.c_str());  // while still locked: no other run holds this name now
    ::close(h.fd);
  }
  held_.clear();
}

}  // namespace novamd::app
