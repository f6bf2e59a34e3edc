#pragma once
/// @file psf_writer.hpp
/// X-PLOR PSF topology files, read beside a DCD (or any other) trajectory by VMD and MDAnalysis
/// so that atoms carry names, types, residues, charges and masses and bonds show.
///
/// A file is a title block, the atoms and the term sections:
///
///     PSF                                   ("PSF NAMD" in the whitespace layout, below)
///
///            2 !NTITLE
///      REMARKS ...
///
///            5 !NATOM
///            1 SYS  1    MOL  O    OW        -0.834000     15.999400       0
///     ...
///            4 !NBOND: bonds                (4 pairs per line)
///            3 !NTHETA: angles              (3 triples per line)
///            1 !NPHI: dihedrals             (2 quadruples per line)
///            1 !NIMPHI: impropers           (2 quadruples per line)
///            0 !NDON: donors,  0 !NACC: acceptors
///            0 !NNB, then N zeros (8 per line), and 1 0 !NGRP with one group line
///
/// Atom lines follow CHARMM's X-PLOR format, `(I8,1X,A4,1X,A4,1X,A4,1X,A4,1X,A4,1X,2G14.6,I8)`
/// (CHARMM source/io/psfres.src, as quoted by MDAnalysis's PSFParser): with 0-based character
/// offsets, the atom number at 0-7, the segment at 9-12, the residue number at 14-17, the
/// residue name at 19-22, the atom name at 24-27, the atom type at 29-32, the charge at 34-47
/// and the mass at 48-61 (both with 6 decimals), IMOVE (0) at 62-69. MDAnalysis's PSFParser
/// ("STANDARD") cuts lines at exactly these offsets and VMD's psfplugin reads them so too; term
/// sections hold atom numbers in fields of 8, " %7d" as VMD's psfgen writes them, so that the
/// numbers stay apart for readers that split at blanks (MDAnalysis).
///
/// The standard layout fits names of up to 4 characters, residue numbers of up to 4 characters
/// and 9,999,999 atoms. A system beyond that (more than 9,999 molecules, longer species names)
/// is written in the whitespace layout that VMD (1.9.1 and later, psfplugin's "NAMD" flag) and
/// MDAnalysis (PSFParser's "NAMD" format) read instead of the columns: the header says
/// `PSF NAMD`, every field of an atom line is separated from the next by at least one blank
/// (the same line, its wide fields overflowing their columns), and term fields are as wide as
/// the largest atom number needs. MDAnalysis's extended ("EXT") reader takes the mass from
/// characters 66-69 only (PSFParser of MDAnalysis 2.4), so "PSF EXT" is not written.
///
/// Contents: one segment `SYS`; the residue number is the atom's molecule (topology_output.hpp),
/// the residue name and atom name those of the topology output, else `MOL` and the species
/// name; the atom type is the species name. Names must be 1 to 7 printable ASCII characters
/// without blanks (VMD reads at most 7), residue numbers at most 7 characters long.

#include <filesystem>

#include "novamd/core/particles.hpp"
#include "novamd/io/topology_output.hpp"

namespace novamd::io {

/// The two layouts of a PSF file NovaMD writes (see the file comment).
enum class PsfLayout {
  Standard,    ///< "PSF": CHARMM's X-PLOR columns
  Whitespace,  ///< "PSF NAMD": fields apart by blanks, for long names and many molecules
};

/// Writes the PSF file of `particles` (positions are not part of it) and `topology` to `file`,
/// through a temporary beside it that is renamed over it, and returns the layout it chose.
/// @throws core::InputError "<file>: ..." for a particle count, id or type that does not match
///   the topology (ordered_atoms), or a name or residue number a PSF file cannot hold;
///   core::RunError "<file>: ..." when writing fails.
PsfLayout write_psf(const std::filesystem::path& file, const TopologyOutput& topology,
                    const core::ParticleData& particles);

}  // namespace novamd::io
