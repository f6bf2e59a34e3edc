#include "novamd/io/gsd_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

static_assert(std::endian::native == std::endian::little, "GSD files are little endian");

constexpr std::uint64_t kMagic = 0x65DF65DF65DF65DFull;
constexpr std::uint64_t kNameSegment = 64;        ///< the name list's size is a multiple of this
constexpr std::uint64_t kFirstNameSegments = 16;  ///< 1 KiB of names: ours take about 300 bytes
constexpr std::uint64_t kFirstIndexEntries = 128;

std::size_t type_size(std::uint8_t type) {
  switch (static_cast<GsdType>(type)) {
    case GsdType::Uint8:
    case GsdType::Int8:
      return 1;
    case GsdType::Uint16:
    case GsdType::Int16:
      return 2;
    case GsdType::Uint32:
    case GsdType::Int32:
    case GsdType::Float:
      return 4;
    case GsdType::Uint64:
    case GsdType::Int64:
    case GsdType::Double:
      return 8;
  }
  return 0;
}

void copy_name(char (&to)[64], std::string_view from) {
  std::memset(to, 0, sizeof to);
  std::memcpy(to, from.data(), std::min(from.size(), sizeof to - 1));
}

/// Entries sort by frame, then name id (GSD 2's index order, which readers search in halves).
bool before(const GsdIndexEntry& a, const GsdIndexEntry& b) {
  return a.frame != b.frame ? a.frame < b.frame : a.id < b.id;
}

}  // namespace

GsdFile::GsdFile(std::filesystem::path path, int descriptor)
    : path_(std::move(path)), descriptor_(descriptor) {}

GsdFile::GsdFile(GsdFile&& other) noexcept
    : path_(std::move(other.path_)),
      descriptor_(std::exchange(other.descriptor_, -1)),
      header_(other.header_),
      names_(std::move(other.names_)),
      index_(std::move(other.index_)),
      pending_(std::move(other.pending_)),
      end_(other.end_) {}

GsdFile& GsdFile::operator=(GsdFile&& other) noexcept {
  if (this != &other) {
    if (descriptor_ >= 0) ::close(descriptor_);
    path_ = std::move(other.path_);
    descriptor_ = std::exchange(other.descriptor_, -1);
    header_ = other.header_;
    names_ = std::move(other.names_);
    index_ = std::move(other.index_);
    pending_ = std::move(other.pending_);
    end_ = other.end_;
  }
  return *this;
}

GsdFile::~GsdFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

GsdFile GsdFile::create(const std::filesystem::path& file, std::string_view application,
                        std::string_view schema, std::uint32_t schema_version) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw core::InputError(
        fmt::format("{}: cannot create the GSD file: {}; expected a writable "
                    "path",
                    file.string(), std::strerror(errno)));
  GsdFile gsd(file, fd);
  GsdHeader& h = gsd.header_;
  h.magic = kMagic;
  h.gsd_version = make_version(2, 0);
  h.schema_version = schema_version;
  copy_name(h.application, application);
  copy_name(h.schema, schema);
  h.namelist_location = sizeof(GsdHeader);
  h.namelist_allocated_entries = kFirstNameSegments;
  h.index_location = h.namelist_location + kFirstNameSegments * kNameSegment;
  h.index_allocated_entries = kFirstIndexEntries;
  gsd.end_ =
      static_cast<std::int64_t>(h.index_location + kFirstIndexEntries * sizeof(GsdIndexEntry));
  gsd.write_header();
  gsd.write_names();
  const std::vector<GsdIndexEntry> empty(kFirstIndexEntries);
  gsd.write_at(static_cast<std::int64_t>(h.index_location), empty.data(),
               empty.size() * sizeof(GsdIndexEntry), "the index");
  return gsd;
}

GsdFile GsdFile::open(const std::filesystem::path& file, bool writable) {
  const int fd = ::open(file.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0)
    throw core::InputError(
        fmt::format("{}: cannot open the GSD file: {}", file.string(), std::strerror(errno)));
  GsdFile gsd(file, fd);
  gsd.read_layout();
  return gsd;
}

void GsdFile::read_layout() {
  struct stat status {};
  if (::fstat(descriptor_, &status) != 0)
    throw core::InputError(
        fmt::format("{}: cannot read the GSD file: {}", path_.string(), std::strerror(errno)));
  end_ = status.st_size;
  const auto corrupt = [&](const std::string& why) {
    return core::InputError(
        fmt::format("{}: not a GSD 2 file that can be continued: {}", path_.string(), why));
  };
  if (end_ < static_cast<std::int64_t>(sizeof(GsdHeader))) throw corrupt("shorter than a header");
  read_at(0, &header_, sizeof header_, "the header");
  if (header_.magic != kMagic) throw corrupt("no GSD magic number");
  if (header_.gsd_version >> 16 != 2)
    throw corrupt(fmt::format("file layer version {}.{}; expected 2.x", header_.gsd_version >> 16,
                              header_.gsd_version & 0xffff));
  const auto fits = [&](std::uint64_t location, std::uint64_t bytes) {
    return location <= static_cast<std::uint64_t>(end_) &&
           bytes <= static_cast<std::uint64_t>(end_) - location;
  };
  const std::uint64_t name_bytes = header_.namelist_allocated_entries * kNameSegment;
  const std::uint64_t index_bytes = header_.index_allocated_entries * sizeof(GsdIndexEntry);
  if (!fits(header_.namelist_location, name_bytes) || !fits(header_.index_location, index_bytes))
    throw corrupt("its name list or index lies beyond its end");
  std::vector<char> names(name_bytes);
  read_at(static_cast<std::int64_t>(header_.namelist_location), names.data(), names.size(),
          "the name list");
  for (std::size_t at = 0; at < names.size() && names[at] != '\0';) {
    const std::size_t stop =
        std::find(names.begin() + static_cast<long>(at), names.end(), '\0') - names.begin();
    names_.emplace_back(names.data() + at, stop - at);
    at = stop + 1;
  }
  std::vector<GsdIndexEntry> entries(header_.index_allocated_entries);
  read_at(static_cast<std::int64_t>(header_.index_location), entries.data(), index_bytes,
          "the index");
  for (const GsdIndexEntry& e : entries) {
    if (e.location == 0) break;
    if (e.id >= names_.size() || type_size(e.type) == 0 ||
        (!index_.empty() && before(e, index_.back())))
      throw corrupt(fmt::format("index entry {} is invalid", index_.size()));
    index_.push_back(e);
  }
}

std::uint64_t GsdFile::frames() const {
  return index_.empty() ? 0 : index_.back().frame + 1;
}

std::optional<GsdIndexEntry> GsdFile::find(std::uint64_t frame, std::string_view name) const {
  const auto named = std::find(names_.begin(), names_.end(), name);
  if (named == names_.end()) return std::nullopt;
  GsdIndexEntry key;
  key.frame = frame;
  key.id = static_cast<std::uint16_t>(named - names_.begin());
  const auto at = std::lower_bound(index_.begin(), index_.end(), key, before);
  if (at == index_.end() || at->frame != frame || at->id != key.id) return std::nullopt;
  return *at;
}

std::vector<std::uint8_t> GsdFile::read(const GsdIndexEntry& entry) const {
  std::vector<std::uint8_t> bytes(entry.rows * entry.columns * type_size(entry.type));
  if (entry.location < 0 || entry.location > end_ ||
      bytes.size() > static_cast<std::uint64_t>(end_ - entry.location))
    throw core::InputError(fmt::format("{}: a chunk of frame {} lies beyond the end of the file",
                                       path_.string(), entry.frame));
  read_at(entry.location, bytes.data(), bytes.size(), "a chunk");
  return bytes;
}

void GsdFile::keep_frames(std::uint64_t count) {
  const auto first_dropped =
      std::find_if(index_.begin(), index_.end(), [&](const auto& e) { return e.frame >= count; });
  const auto kept = static_cast<std::size_t>(first_dropped - index_.begin());
  if (kept == index_.size()) return;
  const std::vector<GsdIndexEntry> zeros(index_.size() - kept);
  write_at(static_cast<std::int64_t>(header_.index_location + kept * sizeof(GsdIndexEntry)),
           zeros.data(), zeros.size() * sizeof(GsdIndexEntry), "the index");
  index_.resize(kept);
  if (::fsync(descriptor_) != 0 && errno != EINVAL)
    throw core::RunError(
        fmt::format("{}: cannot flush the GSD file: {}", path_.string(), std::strerror(errno)));
}

std::uint16_t GsdFile::name_id(std::string_view name) {
  const auto named = std::find(names_.begin(), names_.end(), name);
  if (named != names_.end()) return static_cast<std::uint16_t>(named - names_.begin());
  names_.emplace_back(name);
  write_names();
  return static_cast<std::uint16_t>(names_.size() - 1);
}

/// The name list in place, or at the end of the file at twice its size when it has outgrown
/// its room (the header says where at the frame's end).
void GsdFile::write_names() {
  std::vector<char> packed;
  for (const auto& name : names_) {
    packed.insert(packed.end(), name.begin(), name.end());
    packed.push_back('\0');
  }
  std::uint64_t segments = header_.namelist_allocated_entries;
  if (packed.size() + 1 > segments * kNameSegment) {  // a NUL must end the list
    while (packed.size() + 1 > segments * kNameSegment) segments *= 2;
    header_.namelist_location = static_cast<std::uint64_t>(end_);
    header_.namelist_allocated_entries = segments;
    end_ += static_cast<std::int64_t>(segments * kNameSegment);
  }
  packed.resize(segments * kNameSegment, '\0');
  write_at(static_cast<std::int64_t>(header_.namelist_location), packed.data(), packed.size(),
           "the name list");
}

void GsdFile::write_chunk(std::string_view name, GsdType type, std::uint64_t rows,
                          std::uint32_t columns, const void* data) {
  GsdIndexEntry entry;
  entry.frame = frames();
  entry.rows = rows;
  entry.columns = columns;
  entry.id = name_id(name);
  entry.type = static_cast<std::uint8_t>(type);
  entry.location = end_;
  const std::size_t bytes = rows * columns * type_size(entry.type);
  write_at(end_, data, bytes, name);
  end_ += static_cast<std::int64_t>(bytes);
  pending_.push_back(entry);
}

void GsdFile::end_frame() {
  std::sort(pending_.begin(), pending_.end(), before);
  const std::size_t first = index_.size();
  index_.insert(index_.end(), pending_.begin(), pending_.end());
  pending_.clear();
  // Room for the entries and the zero entry that ends them; and more entries than frames.
  if (index_.size() + 1 > header_.index_allocated_entries) {
    std::uint64_t entries = header_.index_allocated_entries;
    while (index_.size() + 1 > entries) entries *= 2;
    header_.index_location = static_cast<std::uint64_t>(end_);
    header_.index_allocated_entries = entries;
    end_ += static_cast<std::int64_t>(entries * sizeof(GsdIndexEntry));
    const std::vector<GsdIndexEntry> zeros(entries);
    write_at(static_cast<std::int64_t>(header_.index_location), zeros.data(),
             zeros.size() * sizeof(GsdIndexEntry), "the index");
    write_index_from(0);
  } else {
    write_index_from(first);
  }
  write_header();
}

void GsdFile::write_index_from(std::size_t first) {
  if (first >= index_.size()) return;
  write_at(static_cast<std::int64_t>(header_.index_location + first * sizeof(GsdIndexEntry)),
           index_.data() + first, (index_.size() - first) * sizeof(GsdIndexEntry), "the index");
}

void GsdFile::write_header() {
  write_at(0, &header_, sizeof header_, "the header");
}

void GsdFile::write_at(std::int64_t offset, const void* data, std::size_t bytes,
                       std::string_view what) {
  const auto* from = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t written = ::pwrite(descriptor_, from, bytes, offset);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0)
      throw core::RunError(fmt::format("{}: writing {} failed: {}", path_.string(), what,
                                       written < 0 ? std::strerror(errno) : "nothing written"));
    from += written;
    offset += written;
    bytes -= static_cast<std::size_t>(written);
  }
}

void GsdFile::read_at(std::int64_t offset, void* data, std::size_t bytes,
                      std::string_view what) const {
  auto* to = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t got = ::pread(descriptor_, to, bytes, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw core::InputError(fmt::format("{}: reading {} failed: {}", path_.string(), what,
                                         got < 0 ? std::strerror(errno) : "the file ends"));
    to += got;
    offset += got;
    bytes -= static_cast<std::size_t>(got);
  }
}

}  // namespace novamd::io
