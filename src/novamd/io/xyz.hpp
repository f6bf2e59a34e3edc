#pragma once
/// @file xyz.hpp
/// Extended XYZ (the format of ASE, OVITO and MDAnalysis): the structure reader and the
/// trajectory writer. One frame is
///
///     N
///     Lattice="Lx 0 0 0 Ly 0 0 0 Lz" Properties=species:S:1:pos:R:3:vel:R:3 Time=0 Step=0 pbc="T T
///     T" C 1.0 2.0 3.0 0.1 0.2 0.3
///     ...                                   (N atom lines)
///
/// A plain XYZ file (no Properties in the comment line) is read as species x y z.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"

namespace novamd::io {

/// The first frame of an XYZ file.
struct XyzFrame {
  std::optional<core::Box> lattice;  ///< from Lattice=, when the comment line has one
  core::ParticleData particles;      ///< in file order, ids 0..N-1; forces zero
  bool has_velocities = false;       ///< the file had a vel:R:3 column (else velocities are zero)
};

/// Reads the first frame of an (extended) XYZ file.
///
/// Species names map to types through `species`; positions are kept as written (not wrapped).
/// Lattice must be orthorhombic. Columns other than species, pos and vel (forces, ...) are
/// skipped; frames after the first are ignored.
///
/// @throws core::InputError "<file>:<line>: ..." for an unreadable file or a folder, a bad count
///   line or a count larger than the file can hold (checked before anything is allocated), a
///   malformed Lattice or Properties, a triclinic Lattice, no species or pos column, a species
///   not declared in system.species, a missing or short atom line, or a non-numeric field. File
///   content quoted in a message is escaped and cut (core::excerpt).
XyzFrame read_xyz(const std::filesystem::path& file, const core::SpeciesTable& species);

/// Writes frames of extended XYZ, one after the other, in particle id order whatever the
/// storage order, and flushes after each frame (a crash loses at most the frame being written).
///
/// Per-atom numbers are written with `significant_digits` significant digits (`{:.10g}` by
/// default: relative rounding at most 5e-10), or, with kRoundTrip, in fmt's shortest form that
/// reads back to the same double bit for bit. The Lattice and Time are always written in the
/// shortest round-trip form, so a box read back from the file is the box that was written.
class XyzWriter {
 public:
  static constexpr int kDefaultDigits = 10;
  static constexpr int kRoundTrip = 0;  ///< significant_digits value: exact round trip

  /// How the constructor opens an existing file.
  enum class Mode {
    Truncate,  ///< start an empty file
    Append,    ///< keep the frames already there and write after them (creates a new file)
  };

  /// Opens `file`, truncating it unless `mode` is Append. `write_velocity` and `write_force` add
  /// the vel:R:3 and forces:R:3 columns. @throws core::InputError if the file cannot be opened
  /// for writing.
  explicit XyzWriter(const std::filesystem::path& file, bool write_velocity = false,
                     bool write_force = false, int significant_digits = kDefaultDigits,
                     Mode mode = Mode::Truncate);

  XyzWriter(XyzWriter&&) noexcept = default;
  XyzWriter& operator=(XyzWriter&&) noexcept = default;
  XyzWriter(const XyzWriter&) = delete;
  XyzWriter& operator=(const XyzWriter&) = delete;
  ~XyzWriter() = default;

  /// Appends one frame with the header
  /// `Lattice="Lx 0.0 0.0 0.0 Ly 0.0 0.0 0.0 Lz" Properties=species:S:1:pos:R:3[:vel:R:3]`
  /// `[:forces:R:3] Time=<time> Step=<step> pbc="T T T"` and flushes.
  /// @throws core::RunError if writing fails (disk full, ...).
  void write_frame(std::int64_t step, double time, const core::Box& box,
                   const core::ParticleData& particles, const core::SpeciesTable& species);

  const std::filesystem::path& path() const { return path_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const;
  };

  std::filesystem::path path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  bool write_velocity_;
  bool write_force_;
  int significant_digits_;
};

}  // namespace novamd::io
