#include "novamd/io/output_path.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <system_error>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

namespace fs = std::filesystem;

std::string_view kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a folder";
    case fs::file_type::symlink: return "a symbolic link";
    case fs::file_type::block: return "a block device";
    case fs::file_type::character: return "a character device";
    case fs::file_type::fifo: return "a named pipe";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

/// Whether a file of this type may stand where a file of `kind` is written.
bool writable_over(fs::file_type type, OutputKind kind) {
  if (type == fs::file_type::regular) return true;
  return kind == OutputKind::Streamed && type == fs::file_type::character;
}

}  // namespace

void check_output_path(const fs::path& path, std::string_view what, OutputKind kind) {
  const auto fail = [&](const std::string& why, std::string_view expected) {
    throw core::InputError(fmt::format("{}: '{}' {}; expected {}", what, path.string(), why,
                                       expected));
  };
  if (path.empty()) throw core::InputError(fmt::format("{}: the file name is empty", what));
  if (!path.has_filename() || path.filename() == "." || path.filename() == "..")
    fail("names a folder", "a file name");
  const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  const auto folder_status = fs::status(folder, ec);
  if (!fs::exists(folder_status))
    fail(fmt::format("is in the folder '{}', which does not exist", folder.string()),
         "an existing folder (create it first)");
  if (!fs::is_directory(folder_status))
    fail(fmt::format("is in '{}', which is not a folder", folder.string()), "a folder");
  const auto link_status = fs::symlink_status(path, ec);
  if (fs::exists(link_status) || fs::is_symlink(link_status)) {
    const fs::file_type type = kind == OutputKind::Streamed ? fs::status(path, ec).type()
                                                            : link_status.type();
    if (type == fs::file_type::not_found)
      fail("is a symbolic link to nothing", "a regular file or a new file name");
    if (!writable_over(type, kind))
      fail(fmt::format("is {}", kind_of(type)),
           kind == OutputKind::Streamed
               ? "a regular file (or a new file name)"
               : "a regular file (or a new file name): it is replaced by a rename, which would "
                 "replace what stands there");
    if (::access(path.c_str(), W_OK) != 0)
      fail("cannot be written (no permission)", "a file you may write");
  } else if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    fail(fmt::format("cannot be created: the folder '{}' is not writable", folder.string()),
         "a folder you may write");
  }
}

}  // namespace novamd::io
