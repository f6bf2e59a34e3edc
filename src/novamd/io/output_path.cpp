/// @file output_path.cpp
/// Checks on output paths (see output_path.hpp).

#include "novamd/io/output_path.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

/// What a file of mode `mode` is, as a message says it.
std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a named pipe (fifo)";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

/// The folder `path` names: its parent, or "." for a bare name.
std::filesystem::path folder_of(const std::filesystem::path& path) {
  const auto parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

/// Throws core::InputError if `folder` is missing, not a folder, or not writable.
void check_folder(const std::filesystem::path& folder, const std::filesystem::path& path,
                  std::string_view what) {
  const auto fail = [&](const std::string& why) {
    throw core::InputError(fmt::format("{}: {}: {}", what, path.string(), why));
  };
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      fail(fmt::format("the folder '{}' does not exist; expected an existing folder",
                       folder.string()));
    fail(fmt::format("cannot inspect the folder '{}' ({})", folder.string(), std::strerror(errno)));
  }
  if (!S_ISDIR(status.st_mode))
    fail(fmt::format("'{}' is {}, not a folder", folder.string(), kind_of(status.st_mode)));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    fail(
        fmt::format("the folder '{}' is not writable ({})", folder.string(), std::strerror(errno)));
}

}  // namespace

std::optional<std::string> non_regular_kind(const std::filesystem::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return std::nullopt;
  return kind_of(status.st_mode);
}

void check_output_path(const std::filesystem::path& path, std::string_view what,
                       OutputKind kind) {
  if (path.empty())
    throw core::InputError(fmt::format("{}: the path is empty; expected a file name", what));
  const auto fail = [&](const std::string& why) {
    throw core::InputError(fmt::format("{}: {}: {}", what, path.string(), why));
  };
  const auto name = path.filename();
  if (name.empty() || name == "." || name == "..")
    fail("the path names a folder; expected a file name");
  check_folder(folder_of(path), path, what);
  if (kind == OutputKind::ReplacedAtomically) {
    if (const auto other = non_regular_kind(path))
      fail(fmt::format("the path is {}; expected a new file or a regular file to replace "
                       "(it is replaced by a rename, which would replace what stands there)",
                       *other));
  } else {
    struct stat status {};  // what a write reaches, through any link
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode) &&
        !S_ISCHR(status.st_mode))
      fail(fmt::format("the path is {}; expected a new file, a regular file or a device such as "
                       "/dev/null",
                       kind_of(status.st_mode)));
  }
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0)
    fail(fmt::format("the file is not writable ({})", std::strerror(errno)));
}

}  // namespace novamd::io
