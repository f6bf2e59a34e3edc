/// @file binary_io.cpp
/// Binary encoding, CRC-32 and whole-file I/O for checkpoints (see binary_io.hpp).

#include "novamd/io/binary_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <random>
#include <system_error>

#include "novamd/core/error.hpp"
#include "novamd/io/output_path.hpp"

namespace novamd::io {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

/// errno, or EIO where a failed call left it unset (a short fwrite need not set it).
int last_error() {
  return errno != 0 ? errno : EIO;
}

/// Makes a rename in `folder` durable. Best effort: some file systems refuse fsync on a folder,
/// and the new file is complete and in place whatever happens here.
void sync_folder(const std::filesystem::path& folder) {
  const std::string name = folder.empty() ? std::string(".") : folder.string();
  const int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

/// Creates a new temporary beside `file`, "FILE.tmp.<pid>.<16 random hex digits>", opened for
/// writing with O_EXCL and O_NOFOLLOW: an existing path (a file, a symbolic link planted under a
/// guessable name) is never opened, followed or replaced; a name taken is drawn again. Returns
/// the descriptor, or -1 with errno set; `temporary` names the last name tried.
int open_temporary(const std::filesystem::path& file, std::filesystem::path& temporary) {
  std::random_device entropy;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::uint64_t suffix = (std::uint64_t{entropy()} << 32) | entropy();
    temporary = file;
    temporary += fmt::format(".tmp.{}.{:016x}", ::getpid(), suffix);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                          0666);  // the permissions of fopen(..., "w"), less the umask
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

/// Writes all of `bytes` to `fd`, through short writes and interrupted calls; false (errno set)
/// on an error.
bool write_all(int fd, std::span<const unsigned char> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

ByteOrder byte_order_of(std::uint32_t mark) {
  if (mark == kByteOrderMark) return ByteOrder::kSame;
  if (mark == 0x04030201u) return ByteOrder::kSwapped;
  return ByteOrder::kUnknown;
}

// --- BinaryWriter ------------------------------------------------------------------------------

void BinaryWriter::bytes(const void* data, std::size_t size) {
  if (size == 0) return;
  const auto* p = static_cast<const unsigned char*>(data);
  buffer_.insert(buffer_.end(), p, p + size);
}

void BinaryWriter::string(std::string_view s) {
  u64(s.size());
  bytes(s.data(), s.size());
}

void BinaryWriter::patch_u64(std::size_t offset, std::uint64_t v) {
  std::memcpy(buffer_.data() + offset, &v, sizeof v);
}

// --- BinaryReader ------------------------------------------------------------------------------

std::string BinaryReader::string(std::string_view what) {
  const std::size_t length = count_of(1, what);
  std::string s(length, '\0');
  take(s.data(), length, what);
  return s;
}

void BinaryReader::corrupt(std::string_view why) const {
  throw core::InputError(fmt::format("{}: truncated or corrupt: {}", file_, why));
}

void BinaryReader::take(void* out, std::size_t size, std::string_view what) {
  if (size > remaining()) corrupt(fmt::format("ends inside {}", what));
  if (size > 0) std::memcpy(out, bytes_.data() + position_, size);
  position_ += size;
}

std::size_t BinaryReader::count_of(std::size_t element_size, std::string_view what) {
  const std::uint64_t count = u64(fmt::format("the length of {}", what));
  if (count > remaining() / element_size)
    corrupt(fmt::format("{} claim {} values of {} bytes, but only {} bytes remain", what, count,
                        element_size, remaining()));
  return static_cast<std::size_t>(count);
}

// --- CRC-32 and files --------------------------------------------------------------------------

std::uint32_t crc32_of(std::span<const unsigned char> bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32_z(crc, bytes.data(), bytes.size());
  return static_cast<std::uint32_t>(crc);
}

std::vector<unsigned char> read_whole_file(const std::filesystem::path& file) {
  const auto cannot_read = [&](int error) {
    return core::InputError(
        fmt::format("{}: cannot read ({})", file.string(), std::strerror(error)));
  };
  errno = 0;
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(file.c_str(), "rb"));
  if (!f) throw cannot_read(last_error());
  std::vector<unsigned char> bytes;
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(file, ec); !ec) bytes.reserve(size);
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::size_t used = 0;
  while (true) {
    bytes.resize(used + kChunk);
    const std::size_t got = std::fread(bytes.data() + used, 1, kChunk, f.get());
    used += got;
    if (got < kChunk) break;
  }
  bytes.resize(used);
  if (std::ferror(f.get())) throw cannot_read(last_error());
  return bytes;
}

void write_file_atomically(const std::filesystem::path& file,
                           std::span<const unsigned char> bytes) {
  std::filesystem::path temporary;  // set once created: removed on every failure
  const auto refuse_non_regular = [&] {
    const auto kind = non_regular_kind(file);
    if (!kind) return;
    if (!temporary.empty()) ::unlink(temporary.c_str());
    throw core::RunError(fmt::format(
        "{}: cannot write: the path is {}; expected a regular file to replace, or no file",
        file.string(), *kind));
  };
  refuse_non_regular();
  errno = 0;
  std::filesystem::path tried;
  const int fd = open_temporary(file, tried);
  if (fd < 0)
    throw core::RunError(fmt::format("{}: cannot write (creating {}: {})", file.string(),
                                     tried.string(), std::strerror(last_error())));
  temporary = tried;
  const auto fail = [&](std::string_view step, int error) {
    ::unlink(temporary.c_str());
    throw core::RunError(fmt::format("{}: cannot write ({} {}: {})", file.string(), step,
                                     temporary.string(), std::strerror(error)));
  };
  std::string_view step;  // the step that failed, if any
  int error = 0;
  if (!write_all(fd, bytes)) {
    step = "writing";
  } else if (::fsync(fd) != 0) {
    step = "syncing";
  }
  if (!step.empty()) error = last_error();
  if (::close(fd) != 0 && step.empty()) {
    step = "closing";
    error = last_error();
  }
  if (!step.empty()) fail(step, error);
  refuse_non_regular();  // again: something may have appeared at the path meanwhile
  if (::rename(temporary.c_str(), file.c_str()) != 0) fail("renaming", last_error());
  sync_folder(file.parent_path());
}

}  // namespace novamd::io
