// Topology writers: the PSF file (parsed back here, column by column; read by MDAnalysis with a
// DCD trajectory of the same particles through tests/scripts/read_psf_dcd.py) and the LAMMPS
// data file (parsed back here, and read by LAMMPS itself, /usr/bin/lmp, whose counts, energies
// and unwrapped positions are compared with ours).

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/dcd_writer.hpp"
#include "novamd/io/lammps_data_writer.hpp"
#include "novamd/io/psf_writer.hpp"
#include "support/cli_runner.hpp"
#include "support/expect_has.hpp"
#include "support/inputs.hpp"
#include "support/small_molecules.hpp"
#include "support/topology_files.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::core::ParticleData;
using novamd::core::RunError;
using novamd::io::PsfLayout;
using novamd::io::TopologyOutput;
using novamd::test::I3;
using novamd::test::input_error_of;
using novamd::test::lines_of;
using novamd::test::number;
using novamd::test::parse_data;
using novamd::test::parse_psf;
using novamd::test::ParsedData;
using novamd::test::ParsedPsf;
using novamd::test::read_text;
using novamd::test::small_molecule_atoms;
using novamd::test::small_molecule_box;
using novamd::test::small_molecule_particles;
using novamd::test::small_molecule_topology;
using novamd::test::TempDir;
using novamd::test::V3;
using novamd::test::words_of;

constexpr std::size_t kAtoms = 11;

// ---------------------------------------------------------------------------------------------
// What the run builds once from a topology file

TEST(TopologyOutput, TakesSpeciesTermsNamesAndCoefficientsFromATopologyFile) {
  novamd::io::TopologyFile file;
  file.types = {{"OW", 15.9994}, {"HW", 1.008}};
  file.topology = novamd::core::Topology(3);
  file.topology.add_bond({0, {0, 1}});
  file.topology.add_angle({0, {1, 0, 2}});
  file.atom_name = {"O", "H1", "H2"};
  file.residue_name = {"WAT", "WAT", "WAT"};
  file.pair_style = "lj/cut";
  file.lj_by_type = {novamd::io::LennardJonesCoefficients{0.1521, 3.1507, {}, {}}, std::nullopt};
  file.bond = novamd::io::StyleCoefficients{"harmonic", {{450.0, 0.9572}}};
  const TopologyOutput out = novamd::io::topology_output_of(file);
  ASSERT_EQ(out.species.size(), 2);
  EXPECT_EQ(out.species[1].name, "HW");
  EXPECT_EQ(out.species[0].mass, 15.9994);
  EXPECT_EQ(out.topology.bonds().ids, file.topology.bonds().ids);
  EXPECT_EQ(out.topology.angles().ids, file.topology.angles().ids);
  EXPECT_EQ(out.atom_name, file.atom_name);
  EXPECT_EQ(out.residue_name, file.residue_name);
  EXPECT_EQ(out.coefficients.pair_style, "lj/cut");
  EXPECT_EQ(out.coefficients.lj_by_type.size(), 2u);
  EXPECT_EQ(out.coefficients.bond->by_type, file.bond->by_type);
  EXPECT_FALSE(out.coefficients.angle.has_value());
}

// ---------------------------------------------------------------------------------------------
// PSF, parsed back here

/// The 1-based atom numbers of a term list, flat, as the PSF sections hold them.
template <int K>
std::vector<int> one_based(const novamd::core::TermList<K>& terms) {
  std::vector<int> out;
  for (const auto id : terms.ids) out.push_back(id + 1);
  return out;
}

void expect_terms_as_written(const ParsedPsf& psf, const TopologyOutput& top) {
  const auto& t = top.topology;
  EXPECT_EQ(psf.counts.at("NBOND"), 8);
  EXPECT_EQ(psf.terms.at("NBOND"), one_based(t.bonds()));
  EXPECT_EQ(psf.terms.at("NTHETA"), one_based(t.angles()));
  EXPECT_EQ(psf.terms.at("NPHI"), one_based(t.dihedrals()));
  EXPECT_EQ(psf.terms.at("NIMPHI"), one_based(t.impropers()));
  // Pairs 4 to a line, triples 3, quadruples 2: the line counts readers compute from the totals.
  EXPECT_EQ(psf.per_line.at("NBOND"), (std::vector<std::size_t>{8, 8}));
  EXPECT_EQ(psf.per_line.at("NTHETA"), (std::vector<std::size_t>{9, 9}));
  EXPECT_EQ(psf.per_line.at("NPHI"), (std::vector<std::size_t>{8}));
  EXPECT_EQ(psf.per_line.at("NIMPHI"), (std::vector<std::size_t>{4}));
  EXPECT_EQ(psf.counts.at("NDON"), 0);
  EXPECT_EQ(psf.counts.at("NACC"), 0);
  EXPECT_EQ(psf.counts.at("NNB"), 0);
}

TEST(PsfWriter, StandardLayoutHoldsEveryAtomInCharmmColumnsAndEveryTerm) {
  TempDir dir;
  const auto file = dir.path() / "system.psf";
  const TopologyOutput top = small_molecule_topology();
  EXPECT_EQ(novamd::io::write_psf(file, top, small_molecule_particles()), PsfLayout::Standard);
  const ParsedPsf psf = parse_psf(read_text(file));
  EXPECT_EQ(psf.header, "PSF");
  ASSERT_EQ(psf.counts.at("NATOM"), static_cast<int>(kAtoms));
  const auto atoms = small_molecule_atoms();
  const char* names[] = {"OW", "HW", "CT", "HC"};
  for (std::size_t id = 0; id < kAtoms; ++id) {
    const std::string& line = psf.atom_lines[id];
    SCOPED_TRACE(line);
    ASSERT_EQ(line.size(), 70u);  // (I8,1X,A4,1X,A4,1X,A4,1X,A4,1X,A4,1X,2G14.6,I8)
    // The columns MDAnalysis's PSFParser cuts (STANDARD) and VMD's psfplugin reads.
    EXPECT_EQ(std::stoi(line.substr(0, 8)), static_cast<int>(id) + 1);
    EXPECT_EQ(line.substr(9, 4), "SYS ");
    EXPECT_EQ(std::stoi(line.substr(14, 4)), atoms[id].molecule);
    EXPECT_EQ(line.substr(19, 4), "MOL ");
    EXPECT_EQ(fmt::format("{:<4}", names[atoms[id].type]), line.substr(24, 4));  // atom name
    EXPECT_EQ(fmt::format("{:<4}", names[atoms[id].type]), line.substr(29, 4));  // atom type
    // 6 decimals: the charge and mass within half a unit of the sixth.
    EXPECT_NEAR(number(words_of(line.substr(34, 14))[0]), atoms[id].charge, 0.5e-6);
    EXPECT_NEAR(number(words_of(line.substr(48, 14))[0]), top.species[atoms[id].type].mass, 0.5e-6);
    EXPECT_EQ(std::stoi(line.substr(62, 8)), 0);  // IMOVE
  }
  expect_terms_as_written(psf, top);
}

TEST(PsfWriter, NamesFromTheTopologyAndMoleculesFromTheBondGraph) {
  TempDir dir;
  const auto file = dir.path() / "named.psf";
  TopologyOutput top = small_molecule_topology();
  top.atom_name = {"OH2", "H1", "H2", "OH2", "H1", "H2", "C1", "C2", "C3", "C4", "H21"};
  top.residue_name = {"TIP3", "TIP3", "TIP3", "TIP3", "TIP3", "TIP3",
                      "BUT",  "BUT",  "BUT",  "BUT",  "BUT"};
  ParticleData p = small_molecule_particles();
  p.molecule.clear();  // no molecule field: the connected components, numbered from 1
  EXPECT_EQ(novamd::io::write_psf(file, top, p), PsfLayout::Standard);
  const ParsedPsf psf = parse_psf(read_text(file));
  const std::vector<std::string> resid = {"1", "1", "1", "2", "2", "2", "3", "3", "3", "3", "3"};
  for (std::size_t id = 0; id < kAtoms; ++id) {
    const auto& f = psf.atoms.at(id);
    ASSERT_EQ(f.size(), 9u) << psf.atom_lines[id];
    EXPECT_EQ(f[2], resid[id]);
    EXPECT_EQ(f[3], top.residue_name[id]);
    EXPECT_EQ(f[4], top.atom_name[id]);
  }
  expect_terms_as_written(psf, top);
}

TEST(PsfWriter, LongNamesAndLargeMoleculeNumbersSwitchToTheWhitespaceLayout) {
  TempDir dir;
  const auto file = dir.path() / "wide.psf";
  TopologyOutput top = small_molecule_topology();
  auto species = top.species.all();
  species[2].name = "CTchain";  // 7 characters: more than the 4 of the columns
  top.species = novamd::core::SpeciesTable(species);
  ParticleData p = small_molecule_particles();
  for (auto& m : p.molecule) m += 1'234'560;  // 7 digits
  EXPECT_EQ(novamd::io::write_psf(file, top, p), PsfLayout::Whitespace);
  const ParsedPsf psf = parse_psf(read_text(file));
  EXPECT_EQ(psf.header, "PSF NAMD");
  const auto atoms = small_molecule_atoms();
  for (std::size_t id = 0; id < kAtoms; ++id) {
    const auto& f = psf.atoms.at(id);
    ASSERT_EQ(f.size(), 9u) << psf.atom_lines[id];  // every field apart from the next
    EXPECT_EQ(std::stoi(f[2]), atoms[id].molecule + 1'234'560);
    EXPECT_EQ(f[5], species[atoms[id].type].name);
  }
  expect_terms_as_written(psf, top);
}

TEST(PsfWriter, RefusesWhatAPsfFileCannotHoldAndWritesNothing) {
  TempDir dir;
  const auto file = dir.path() / "bad.psf";
  const auto refuse = [&](const TopologyOutput& top, const ParticleData& p) {
    const std::string message = input_error_of([&] { novamd::io::write_psf(file, top, p); });
    EXPECT_HAS(message, file.string());
    EXPECT_FALSE(std::filesystem::exists(file));
    return message;
  };
  const ParticleData p = small_molecule_particles();
  {
    TopologyOutput top = small_molecule_topology();
    auto species = top.species.all();
    species[0].name = "Oxygen_w";
    top.species = novamd::core::SpeciesTable(species);
    EXPECT_HAS(refuse(top, p), "'Oxygen_w'");
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.atom_name.assign(kAtoms, "C");
    top.atom_name[3] = "O H";
    EXPECT_HAS(refuse(top, p), "particle id 3");
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.residue_name.assign(kAtoms - 1, "MOL");
    EXPECT_HAS(refuse(top, p), "10 residue names given for 11 particles");
  }
  {
    ParticleData q = p;
    for (auto& m : q.molecule) m = 12'345'678;  // 8 digits
    EXPECT_HAS(refuse(small_molecule_topology(), q), "molecule 12345678");
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.topology = novamd::core::Topology(12);
    EXPECT_HAS(refuse(top, p), "the topology describes 12 particles, the state holds 11");
  }
}

// ---------------------------------------------------------------------------------------------
// PSF with a DCD, read by MDAnalysis

/// The values read_psf_dcd.py expects, as JSON: atoms in id order, 0-based terms, frames.
std::string expected_json(const TopologyOutput& top, const std::vector<ParticleData>& frames,
                          const std::vector<novamd::core::Box>& boxes, const std::string& layout,
                          const std::vector<std::string>& names) {
  const ParticleData& p = frames.front();
  const auto order = novamd::core::id_order(p);
  std::vector<std::string> types, resnames;
  std::vector<int> resids;
  std::vector<double> charges, masses;
  for (const std::size_t i : order) {
    types.push_back(fmt::format("\"{}\"", top.species[p.type[i]].name));
    resnames.push_back("\"MOL\"");
    resids.push_back(p.molecule[i]);
    charges.push_back(p.charge[i]);
    masses.push_back(top.species[p.type[i]].mass);
  }
  std::vector<std::string> quoted_names;
  for (const auto& n : names) quoted_names.push_back(fmt::format("\"{}\"", n));
  const auto terms = [](const auto& list) {
    std::vector<std::string> out;
    for (std::size_t t = 0; t < list.size(); ++t)
      out.push_back(fmt::format("[{}]", fmt::join(list[t].ids, ", ")));
    return fmt::format("[{}]", fmt::join(out, ", "));
  };
  std::vector<std::string> frame_json;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    std::vector<std::string> rows;
    for (const std::size_t i : novamd::core::id_order(frames[f]))
      rows.push_back(fmt::format("[{}, {}, {}]", frames[f].position.x[i], frames[f].position.y[i],
                                 frames[f].position.z[i]));
    const auto& L = boxes[f].length();
    frame_json.push_back(fmt::format("{{\"box\": [{}, {}, {}], \"positions\": [{}]}}", L.x, L.y,
                                     L.z, fmt::join(rows, ", ")));
  }
  const auto& t = top.topology;
  return fmt::format(
      "{{\"layout\": \"{}\", \"names\": [{}], \"types\": [{}], \"resnames\": [{}], \"resids\": "
      "[{}], \"charges\": [{}], \"masses\": [{}], \"bonds\": {}, \"angles\": {}, \"dihedrals\": "
      "{}, \"impropers\": {}, \"frames\": [{}]}}\n",
      layout, fmt::join(quoted_names, ", "), fmt::join(types, ", "), fmt::join(resnames, ", "),
      fmt::join(resids, ", "), fmt::join(charges, ", "), fmt::join(masses, ", "), terms(t.bonds()),
      terms(t.angles()), terms(t.dihedrals()), terms(t.impropers()), fmt::join(frame_json, ", "));
}

/// Writes `top` with `p` as PSF, two DCD frames of the same particles (the second moved), and
/// the expectations; runs read_psf_dcd.py and returns its exit code.
int mdanalysis_reads(const TempDir& dir, const TopologyOutput& top, const ParticleData& p,
                     PsfLayout layout) {
  const auto psf = dir.path() / "system.psf";
  const auto dcd = dir.path() / "system.dcd";
  EXPECT_EQ(novamd::io::write_psf(psf, top, p), layout);
  ParticleData moved = p;
  for (std::size_t k = 0; k < moved.size(); ++k) moved.position.x[k] += 0.125 * (k + 1);
  const std::vector<ParticleData> frames = {p, moved};
  const std::vector<novamd::core::Box> boxes = {small_molecule_box(),
                                                novamd::core::Box(12.75, 13.0, 13.5)};
  {
    novamd::io::DcdWriter writer(novamd::io::TrajectoryOpen{dcd,
                                                            {true, false, false},
                                                            top.species,
                                                            p.size(),
                                                            0,
                                                            10,
                                                            0.5,
                                                            "A",
                                                            "fs",
                                                            "kcal/mol",
                                                            std::nullopt});
    for (int f = 0; f < 2; ++f)
      writer.write({10 * f, 5.0 * f, boxes[f], frames[f], {true, false, false}});
  }
  std::vector<std::string> names;
  for (const std::size_t i : novamd::core::id_order(p))
    names.push_back(top.species[p.type[i]].name);
  const auto expected = dir.write(
      "expected.json",
      expected_json(top, frames, boxes, layout == PsfLayout::Standard ? "PSF" : "PSF NAMD", names));
  const std::string command = "'" + novamd::test::test_python() +
                              "' -W ignore '" NOVAMD_SOURCE_DIR "/tests/scripts/read_psf_dcd.py' " +
                              novamd::test::quoted(psf) + " " + novamd::test::quoted(dcd) + " " +
                              novamd::test::quoted(expected);
  const auto result = novamd::test::run_shell(command, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return result.exit_code;
}

TEST(PsfWriter, MDAnalysisReadsThePsfWithADcdOfTheSameParticles) {
  TempDir dir;
  EXPECT_EQ(mdanalysis_reads(dir, small_molecule_topology(), small_molecule_particles(),
                             PsfLayout::Standard),
            0);
}

TEST(PsfWriter, MDAnalysisReadsTheWhitespaceLayout) {
  TempDir dir;
  TopologyOutput top = small_molecule_topology();
  auto species = top.species.all();
  species[2].name = "CTchain";
  top.species = novamd::core::SpeciesTable(species);
  ParticleData p = small_molecule_particles();
  for (auto& m : p.molecule) m += 1'234'560;
  EXPECT_EQ(mdanalysis_reads(dir, top, p, PsfLayout::Whitespace), 0);
}

// ---------------------------------------------------------------------------------------------
// LAMMPS data, parsed back here

/// The expected place of every atom in a data file: its position wrapped into [0, L) as
/// BoxView::wrap does it, and the image flags that keep wrapped + image x L unwrapped.
struct WrappedAtom {
  V3 position;
  I3 image;
};

std::vector<WrappedAtom> expected_wrapped(const ParticleData& p, const novamd::core::Box& box) {
  std::vector<WrappedAtom> out(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) {
    I3 image = p.image.get(k);
    const V3 r = box.view<double>().wrap(p.position.get(k), image);
    out[static_cast<std::size_t>(p.id[k])] = {r, image};
  }
  return out;
}

TEST(LammpsDataWriter, WritesHeaderMassesCoefficientsAtomsVelocitiesAndTerms) {
  TempDir dir;
  const auto file = dir.path() / "state.data";
  const TopologyOutput top = small_molecule_topology();
  const ParticleData p = small_molecule_particles();
  const auto box = small_molecule_box();
  novamd::io::write_lammps_data(file, top, box, p, 2500, "real");
  const std::string text = read_text(file);
  EXPECT_EQ(lines_of(text).at(0), "LAMMPS data file written by NovaMD, step 2500, units real");
  const ParsedData data = parse_data(text);
  const std::map<std::string, long> counts = {
      {"atoms", 11},    {"atom types", 4},    {"bonds", 8},     {"bond types", 3},
      {"angles", 6},    {"angle types", 3},   {"dihedrals", 2}, {"dihedral types", 2},
      {"impropers", 1}, {"improper types", 1}};
  EXPECT_EQ(data.counts, counts);
  ASSERT_EQ(data.box.size(), 3u);
  EXPECT_EQ(data.box[0], (std::vector<std::string>{"0", "12.5", "xlo", "xhi"}));
  EXPECT_EQ(data.box[2], (std::vector<std::string>{"0", "14", "zlo", "zhi"}));
  EXPECT_EQ(data.sections.at("Masses").at(1), (std::vector<std::string>{"2", "1.008", "#", "HW"}));
  EXPECT_EQ(data.hints.at("Pair Coeffs"), "lj/cut/coul/cut");
  EXPECT_EQ(data.sections.at("Pair Coeffs").at(0),
            (std::vector<std::string>{"1", "0.1521", "3.1507"}));
  EXPECT_EQ(data.hints.at("Bond Coeffs"), "harmonic");
  EXPECT_EQ(data.sections.at("Angle Coeffs").at(0),
            (std::vector<std::string>{"1", "55", "104.52"}));
  // charmm's n and d are integers to LAMMPS: written without a decimal point.
  EXPECT_EQ(data.hints.at("Dihedral Coeffs"), "charmm");
  EXPECT_EQ(data.sections.at("Dihedral Coeffs").at(0),
            (std::vector<std::string>{"1", "1.4", "3", "180", "0"}));
  EXPECT_EQ(data.hints.at("Atoms"), "full");
  EXPECT_EQ(data.sections.at("Bonds").at(7), (std::vector<std::string>{"8", "3", "8", "11"}));
  EXPECT_EQ(data.sections.at("Impropers").at(0),
            (std::vector<std::string>{"1", "1", "8", "7", "9", "11"}));

  // Atoms and velocities in id order, every number read back to the same double.
  const auto wrapped = expected_wrapped(p, box);
  const auto atoms = small_molecule_atoms();
  const auto order = novamd::core::id_order(p);
  const auto& rows = data.sections.at("Atoms");
  const auto& velocities = data.sections.at("Velocities");
  ASSERT_EQ(rows.size(), kAtoms);
  ASSERT_EQ(velocities.size(), kAtoms);
  const auto& L = box.length();
  for (std::size_t id = 0; id < kAtoms; ++id) {
    const auto& f = rows[id];
    SCOPED_TRACE(fmt::format("{}", fmt::join(f, " ")));
    ASSERT_EQ(f.size(), 10u);
    EXPECT_EQ(f[0], std::to_string(id + 1));
    EXPECT_EQ(f[1], std::to_string(atoms[id].molecule));
    EXPECT_EQ(f[2], std::to_string(atoms[id].type + 1));
    EXPECT_EQ(number(f[3]), atoms[id].charge);
    const V3 r{number(f[4]), number(f[5]), number(f[6])};
    const I3 n{std::stoi(f[7]), std::stoi(f[8]), std::stoi(f[9])};
    EXPECT_EQ(r.x, wrapped[id].position.x);
    EXPECT_EQ(r.y, wrapped[id].position.y);
    EXPECT_EQ(r.z, wrapped[id].position.z);
    EXPECT_TRUE(r.x >= 0 && r.x < L.x && r.y >= 0 && r.y < L.y && r.z >= 0 && r.z < L.z);
    EXPECT_EQ(n.x, wrapped[id].image.x);
    EXPECT_EQ(n.y, wrapped[id].image.y);
    EXPECT_EQ(n.z, wrapped[id].image.z);
    const auto& v = velocities[id];
    EXPECT_EQ(v[0], std::to_string(id + 1));
    EXPECT_EQ(number(v[1]), p.velocity.x[order[id]]);
    EXPECT_EQ(number(v[2]), p.velocity.y[order[id]]);
    EXPECT_EQ(number(v[3]), p.velocity.z[order[id]]);
  }
  // The atoms stored outside the box were wrapped: C4 one box back in x, H below z = 0 up.
  EXPECT_EQ(wrapped[9].image.x, -1);
  EXPECT_EQ(wrapped[10].image.z, -1);
}

TEST(LammpsDataWriter, WithoutCoefficientsTypesComeFromTheTermsAndNoCoeffsSectionIsWritten) {
  TempDir dir;
  const auto file = dir.path() / "bare.data";
  TopologyOutput top = small_molecule_topology();
  top.coefficients = {};
  ParticleData p = small_molecule_particles();
  p.image.x.clear();  // no image counts: positions are wrapped, flags count the boxes removed
  p.image.y.clear();
  p.image.z.clear();
  p.molecule.clear();
  novamd::io::write_lammps_data(file, top, small_molecule_box(), p, 0, "");
  const ParsedData data = parse_data(read_text(file));
  EXPECT_EQ(data.counts.at("bond types"), 3);
  EXPECT_EQ(data.counts.at("dihedral types"), 2);
  for (const char* s : {"Pair Coeffs", "Bond Coeffs", "Angle Coeffs", "Dihedral Coeffs"})
    EXPECT_EQ(data.sections.count(s), 0u) << s;
  const auto& rows = data.sections.at("Atoms");
  EXPECT_EQ(rows.at(0)[1], "1");  // molecules from the bond graph, from 1
  EXPECT_EQ(rows.at(9)[1], "3");
  EXPECT_EQ(rows.at(9)[7], "1");    // x = 21.3 in a box of 12.5: one box removed
  EXPECT_EQ(rows.at(10)[9], "-1");  // z = -0.35: one box added
}

TEST(LammpsDataWriter, RefusesWhatTheFileCannotHoldAndWritesNothing) {
  TempDir dir;
  const auto file = dir.path() / "bad.data";
  const auto box = small_molecule_box();
  const ParticleData p = small_molecule_particles();
  const auto refuse = [&](const TopologyOutput& top, const ParticleData& q) {
    const std::string message =
        input_error_of([&] { novamd::io::write_lammps_data(file, top, box, q, 0, "real"); });
    EXPECT_HAS(message, file.string());
    EXPECT_FALSE(std::filesystem::exists(file));
    EXPECT_EQ(input_error_of([&] { novamd::io::check_lammps_data(file, top, q); }), message);
    return message;
  };
  {
    ParticleData q = p;
    q.enable(q.mass);
    for (std::size_t k = 0; k < q.size(); ++k)
      q.mass[k] = small_molecule_topology().species[q.type[k]].mass;
    q.mass[0] *= 2.0;
    EXPECT_HAS(refuse(small_molecule_topology(), q),
               fmt::format("particle id {} has mass", q.id[0]));
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.coefficients.bond->by_type.pop_back();
    EXPECT_HAS(refuse(top, p),
               "the bonds use types up to 3, but Bond Coeffs gives coefficients for 2");
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.coefficients.angle->by_type[1].push_back(1.0);
    EXPECT_HAS(refuse(top, p),
               "Angle Coeffs type 2 has 3 coefficients; angle style 'harmonic' expects 2");
  }
  {
    TopologyOutput top = small_molecule_topology();
    top.coefficients.lj_by_type[3].reset();
    EXPECT_HAS(refuse(top, p), "Pair Coeffs: type 4 has no Lennard-Jones coefficients");
  }
  {
    ParticleData q = p;
    q.position.y[4] = std::numeric_limits<double>::infinity();
    try {
      novamd::io::write_lammps_data(file, small_molecule_topology(), box, q, 7, "real");
      ADD_FAILURE() << "expected core::RunError";
    } catch (const RunError& e) {
      EXPECT_HAS(std::string(e.what()), fmt::format("particle id {} has a non-finite", q.id[4]));
    }
    EXPECT_FALSE(std::filesystem::exists(file));
  }
  try {
    novamd::io::write_lammps_data(dir.path() / "no_such_folder" / "x.data",
                                  small_molecule_topology(), box, p, 0, "real");
    ADD_FAILURE() << "expected core::RunError";
  } catch (const RunError& e) {
    EXPECT_HAS(std::string(e.what()), "no_such_folder/x.data");
  }
}

// ---------------------------------------------------------------------------------------------
// LAMMPS data, read by LAMMPS

constexpr const char* kLammps = "/usr/bin/lmp";
constexpr double kCutoff = 6.0;  // below half the shortest edge (13 / 2): minimum image holds

/// An input that reads the file with the styles the coefficients name, evaluates the energy at
/// step 0, prints the counts and energies with 17 digits and dumps every atom.
std::string lammps_input(const std::string& data) {
  return fmt::format(
      "units lj\natom_style full\nboundary p p p\n"
      "pair_style lj/cut/coul/cut {}\nbond_style harmonic\nangle_style harmonic\n"
      "dihedral_style charmm\nimproper_style harmonic\n"
      "read_data {}\nfix nve all nve\n"
      "thermo_modify norm no\n"
      "dump atoms all custom 1 atoms.dump id mol type q x y z ix iy iz xu yu zu vx vy vz\n"
      "dump_modify atoms format float %.17g sort id\n"
      "run 0\n"
      "print \"NOVAMD_COUNTS $(atoms) $(bonds) $(angles) $(dihedrals) $(impropers)\"\n"
      "print \"NOVAMD_ENERGIES $(ebond:%.17g) $(eangle:%.17g) $(edihed:%.17g) $(eimp:%.17g) "
      "$(evdwl:%.17g) $(ecoul:%.17g) $(ke:%.17g)\"\n",
      kCutoff, data);
}

/// The words after `tag` on the line of LAMMPS's output that starts with it.
std::vector<std::string> printed(const std::string& output, const std::string& tag) {
  for (const auto& line : lines_of(output))
    if (line.rfind(tag + " ", 0) == 0) {
      auto words = words_of(line);
      words.erase(words.begin());
      return words;
    }
  ADD_FAILURE() << "LAMMPS printed no " << tag << " line:\n" << output;
  return {};
}

TEST(LammpsDataWriter, LammpsReadsTheFileAndAgreesOnCountsEnergiesAndUnwrappedPositions) {
  if (!std::filesystem::exists(kLammps))
    GTEST_SKIP() << kLammps << " is absent: LAMMPS (Debian package lammps) cannot check the file";
  TempDir dir;
  const TopologyOutput top = small_molecule_topology();
  const ParticleData p = small_molecule_particles();
  const auto box = small_molecule_box();
  novamd::io::write_lammps_data(dir.path() / "state.data", top, box, p, 0, "lj");
  dir.write("in.check", lammps_input("state.data"));
  const auto run =
      novamd::test::run_shell(std::string(kLammps) + " -nocite -log none -in in.check", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("WARNING"), std::string::npos) << run.output;

  EXPECT_EQ(printed(run.output, "NOVAMD_COUNTS"),
            (std::vector<std::string>{"11", "8", "6", "2", "1"}));
  const auto words = printed(run.output, "NOVAMD_ENERGIES");
  ASSERT_EQ(words.size(), 7u);
  const auto e = novamd::test::small_molecule_energies(top, p, box, kCutoff);
  const double expected[] = {e.bond, e.angle, e.dihedral, e.improper, e.vdw, e.coulomb, e.kinetic};
  const char* names[] = {"bond", "angle", "dihedral", "improper", "vdw", "coulomb", "kinetic"};
  for (int k = 0; k < 7; ++k) {
    // Both sides in double over the same few terms, summed in other orders and through acos
    // (conditioning 1/sin(theta) < 10 here): agreement to 1e-12 relative leaves room for that
    // rounding and none for a wrong coefficient, atom order, unit of angle or image.
    const double lammps = number(words[k]);
    EXPECT_NEAR(lammps, expected[k], 1e-12 * std::abs(expected[k])) << names[k];
    EXPECT_NE(expected[k], 0.0) << names[k] << ": a zero energy would check nothing";
  }

  // The dump: every atom's fields as written, and LAMMPS's unwrapped positions.
  const auto dump = lines_of(read_text(dir.path() / "atoms.dump"));
  ASSERT_GE(dump.size(), 9 + kAtoms);
  const auto wrapped = expected_wrapped(p, box);
  const auto unwrapped = novamd::test::unwrapped_positions(p, box);
  const auto atoms = small_molecule_atoms();
  const auto order = novamd::core::id_order(p);
  const auto& L = box.length();
  for (std::size_t id = 0; id < kAtoms; ++id) {
    const auto f = words_of(dump[9 + id]);  // 9 header lines
    SCOPED_TRACE(dump[9 + id]);
    ASSERT_EQ(f.size(), 16u);
    EXPECT_EQ(std::stoi(f[0]), static_cast<int>(id) + 1);
    EXPECT_EQ(std::stoi(f[1]), atoms[id].molecule);
    EXPECT_EQ(std::stoi(f[2]), atoms[id].type + 1);
    EXPECT_EQ(number(f[3]), atoms[id].charge);  // %.17g: the double LAMMPS read, exactly
    EXPECT_EQ(number(f[4]), wrapped[id].position.x);
    EXPECT_EQ(number(f[5]), wrapped[id].position.y);
    EXPECT_EQ(number(f[6]), wrapped[id].position.z);
    EXPECT_EQ(std::stoi(f[7]), wrapped[id].image.x);
    EXPECT_EQ(std::stoi(f[8]), wrapped[id].image.y);
    EXPECT_EQ(std::stoi(f[9]), wrapped[id].image.z);
    // xu = x + ix Lx in LAMMPS; ours is stored + n Lx: the wrap moved x by whole boxes, so the
    // two differ by the rounding of two sums of magnitude |xu| + L (2 ulp each).
    const V3 u = unwrapped[id];
    const double ulp = std::numeric_limits<double>::epsilon();
    EXPECT_NEAR(number(f[10]), u.x, 4 * ulp * (std::abs(u.x) + L.x));
    EXPECT_NEAR(number(f[11]), u.y, 4 * ulp * (std::abs(u.y) + L.y));
    EXPECT_NEAR(number(f[12]), u.z, 4 * ulp * (std::abs(u.z) + L.z));
    EXPECT_EQ(number(f[13]), p.velocity.x[order[id]]);
    EXPECT_EQ(number(f[14]), p.velocity.y[order[id]]);
    EXPECT_EQ(number(f[15]), p.velocity.z[order[id]]);
  }
  // The chain lies two boxes up in y: LAMMPS places its first carbon at y = 9 + 2 x 13.
  EXPECT_EQ(number(words_of(dump[9 + 6])[11]), 35.0);
}

}  // namespace
