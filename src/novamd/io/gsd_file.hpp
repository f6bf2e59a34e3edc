#pragma once
/// @file gsd_file.hpp
/// The file layer of GSD 2.0, HOOMD-blue's trajectory format (read by OVITO, MDAnalysis, freud
/// and the `gsd` Python package): a 256-byte header, a list of chunk names, an index and the
/// chunks, each a named N x M array of one type in one frame. Specification: "GSD file layer",
/// https://gsd.readthedocs.io/en/stable/file-layer.html.
///
/// Layout as written here: header; name list (64-byte segments, names separated by NUL); index
/// (32-byte entries sorted by frame, then name id; the first entry at location 0 ends it); then
/// the chunks, appended. A full name list or index moves to the end of the file at twice its
/// size. A frame's chunks are written first, its index entries and the header last, so that a
/// run killed mid-frame leaves a file whose index holds only complete frames.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace novamd::io {

/// GSD's chunk element types (gsd_type).
enum class GsdType : std::uint8_t {
  Uint8 = 1,
  Uint16,
  Uint32,
  Uint64,
  Int8,
  Int16,
  Int32,
  Int64,
  Float,
  Double
};

/// On disk: 32 bytes, little endian (gsd_index_entry).
struct GsdIndexEntry {
  std::uint64_t frame = 0;
  std::uint64_t rows = 0;     ///< N
  std::int64_t location = 0;  ///< byte offset of the chunk; 0 ends the index
  std::uint32_t columns = 0;  ///< M
  std::uint16_t id = 0;       ///< the name's place in the name list
  std::uint8_t type = 0;
  std::uint8_t flags = 0;
};
static_assert(sizeof(GsdIndexEntry) == 32);

/// On disk: 256 bytes (gsd_header).
struct GsdHeader {
  std::uint64_t magic = 0;
  std::uint64_t index_location = 0;
  std::uint64_t index_allocated_entries = 0;
  std::uint64_t namelist_location = 0;
  std::uint64_t namelist_allocated_entries = 0;  ///< the name list's size / 64
  std::uint32_t schema_version = 0;
  std::uint32_t gsd_version = 0;
  char application[64] = {};
  char schema[64] = {};
  char reserved[80] = {};
};
static_assert(sizeof(GsdHeader) == 256);

/// A GSD file open for appending frames (and reading back what it holds).
class GsdFile {
 public:
  /// Creates (truncates) `file` with the given application and schema ("hoomd", 1.4).
  /// @throws core::InputError if the file cannot be created.
  static GsdFile create(const std::filesystem::path& file, std::string_view application,
                        std::string_view schema, std::uint32_t schema_version);
  /// Opens an existing GSD 2.x file; `writable` to append frames.
  /// @throws core::InputError naming the file if it is no GSD 2 file or is corrupt.
  static GsdFile open(const std::filesystem::path& file, bool writable);

  GsdFile(GsdFile&& other) noexcept;
  GsdFile& operator=(GsdFile&& other) noexcept;
  GsdFile(const GsdFile&) = delete;
  GsdFile& operator=(const GsdFile&) = delete;
  ~GsdFile();

  static constexpr std::uint32_t make_version(std::uint32_t major, std::uint32_t minor) {
    return major << 16 | minor;
  }

  /// Complete frames in the file.
  std::uint64_t frames() const;
  const GsdHeader& header() const { return header_; }
  /// The entry of chunk `name` in `frame`, if the frame has one.
  std::optional<GsdIndexEntry> find(std::uint64_t frame, std::string_view name) const;
  /// The bytes of a chunk.
  std::vector<std::uint8_t> read(const GsdIndexEntry& entry) const;
  /// Drops the frames from `count` on (their index entries; the chunks stay as unused bytes).
  void keep_frames(std::uint64_t count);

  /// Adds a chunk to the frame being written.
  /// @throws core::RunError if writing fails.
  void write_chunk(std::string_view name, GsdType type, std::uint64_t rows, std::uint32_t columns,
                   const void* data);
  /// Commits the frame: its index entries, then the header, then a flush.
  void end_frame();

  const std::filesystem::path& path() const { return path_; }

 private:
  GsdFile(std::filesystem::path path, int descriptor);
  void read_layout();
  std::uint16_t name_id(std::string_view name);
  void write_names();
  void write_index_from(std::size_t first);
  void write_header();
  void write_at(std::int64_t offset, const void* data, std::size_t bytes, std::string_view what);
  void read_at(std::int64_t offset, void* data, std::size_t bytes, std::string_view what) const;

  std::filesystem::path path_;
  int descriptor_ = -1;
  GsdHeader header_;
  std::vector<std::string> names_;
  std::vector<GsdIndexEntry> index_;    ///< committed entries
  std::vector<GsdIndexEntry> pending_;  ///< the frame being written
  std::int64_t end_ = 0;                ///< where the next chunk goes
};

}  // namespace novamd::io
