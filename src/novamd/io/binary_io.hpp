#pragma once
/// @file binary_io.hpp
/// Little-endian binary encoding for checkpoints: a writer that appends to a byte buffer, a
/// bounds-checked reader over one, a CRC-32, and whole-file reading and atomic writing.
///
/// Values are stored as they lie in memory. Every platform NovaMD builds for (x86-64, aarch64)
/// is little-endian with IEEE-754 doubles, so the stored bytes are the little-endian encoding;
/// a file format records a byte-order mark (kByteOrderMark) so that a reader on a machine of
/// the other order refuses the file instead of misreading it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace novamd::io {

static_assert(std::numeric_limits<double>::is_iec559, "checkpoints store IEEE-754 doubles");

/// Written as a uint32 in the writer's byte order: the bytes 04 03 02 01 on a little-endian
/// machine, 01 02 03 04 on a big-endian one.
inline constexpr std::uint32_t kByteOrderMark = 0x01020304u;

/// The byte order a value read back as `mark` was written in, relative to this machine.
enum class ByteOrder { kSame, kSwapped, kUnknown };
ByteOrder byte_order_of(std::uint32_t mark);

/// Appends values to a byte buffer in this machine's byte order.
class BinaryWriter {
 public:
  void bytes(const void* data, std::size_t size);
  void u32(std::uint32_t v) { bytes(&v, sizeof v); }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void i64(std::int64_t v) { bytes(&v, sizeof v); }
  void f64(double v) { bytes(&v, sizeof v); }
  /// A uint64 length, then the characters.
  void string(std::string_view s);
  /// A uint64 count, then the values.
  template <class T>
  void vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
  /// Overwrites the uint64 at `offset` (a field whose value is known only later).
  void patch_u64(std::size_t offset, std::uint64_t v);

  std::size_t size() const { return buffer_.size(); }
  const std::vector<unsigned char>& buffer() const { return buffer_; }

 private:
  std::vector<unsigned char> buffer_;
};

/// Reads values back from a byte range. Every read names what it reads (`what`, e.g. "the
/// particle velocities (y)"); reading past the end throws core::InputError
/// "<file>: truncated or corrupt: ends inside <what>", and a count larger than the bytes left
/// is refused before anything is allocated.
class BinaryReader {
 public:
  BinaryReader(std::span<const unsigned char> bytes, std::string file)
      : bytes_(bytes), file_(std::move(file)) {}

  std::uint32_t u32(std::string_view what) { return value<std::uint32_t>(what); }
  std::uint64_t u64(std::string_view what) { return value<std::uint64_t>(what); }
  std::int64_t i64(std::string_view what) { return value<std::int64_t>(what); }
  double f64(std::string_view what) { return value<double>(what); }
  std::string string(std::string_view what);
  template <class T>
  std::vector<T> vector(std::string_view what) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t count = count_of(sizeof(T), what);
    std::vector<T> v(count);
    take(v.data(), count * sizeof(T), what);
    return v;
  }

  std::size_t remaining() const { return bytes_.size() - position_; }
  /// Throws core::InputError "<file>: truncated or corrupt: <why>".
  [[noreturn]] void corrupt(std::string_view why) const;

 private:
  template <class T>
  T value(std::string_view what) {
    T v;
    take(&v, sizeof v, what);
    return v;
  }
  void take(void* out, std::size_t size, std::string_view what);
  /// A uint64 count of elements of `element_size` bytes, checked against the bytes left.
  std::size_t count_of(std::size_t element_size, std::string_view what);

  std::span<const unsigned char> bytes_;
  std::size_t position_ = 0;
  std::string file_;
};

/// CRC-32 (zlib's: the polynomial of gzip and PNG) of `bytes`.
std::uint32_t crc32_of(std::span<const unsigned char> bytes);

/// The whole content of `file`.
/// @throws core::InputError "<file>: cannot read (<system error>)".
std::vector<unsigned char> read_whole_file(const std::filesystem::path& file);

/// Writes `bytes` to `file` through a temporary in the same folder, `file.tmp.<pid>.<random>`,
/// created with O_CREAT | O_EXCL | O_NOFOLLOW (whatever lies at a guessable name, `file.tmp`
/// or a planted symbolic link, is never followed or replaced): written, synced to disk, then
/// renamed over `file`, and the folder synced, so `file` is at any moment either the old or the
/// new content. Only a regular file is replaced: a symbolic link, folder, device, fifo or socket
/// at `file` is refused and left as it is. On failure the temporary is removed.
/// @throws core::RunError "<file>: cannot write: the path is a symbolic link; ..." or
///   "<file>: cannot write (<step> <temporary>: <system error>)".
void write_file_atomically(const std::filesystem::path& file, std::span<const unsigned char> bytes);

}  // namespace novamd::io
