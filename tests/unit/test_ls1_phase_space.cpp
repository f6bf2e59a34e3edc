// ls1-mardyn's phase-space files (io/ls1_phase_space.hpp): the formats, the conversion into this
// engine's body frames, and errors that name the file and line.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "novamd/io/ls1_phase_space.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

namespace core = novamd::core;
namespace io = novamd::io;
using V = core::Vec3<double>;

TEST(Ls1PhaseSpace, ReadsEachFormat) {
  novamd::test::TempDir dir;
  const auto icrvqd =
      dir.write("a.inp",
                "mardyn trunk 20080701\nNumberOfMolecules 2\nMoleculeFormat ICRVQD\n"
                "1 2 0.5 1.5 2.5 0.1 0.2 0.3 2 0 0 0 0 0 1\n"
                "2 1 3 3 3 0 0 0 0 0 0 1 0 0 0\n");
  const auto a = io::read_ls1_phase_space(icrvqd);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].component, 1);
  EXPECT_DOUBLE_EQ(a[0].position.z, 2.5);
  EXPECT_DOUBLE_EQ(a[0].velocity.y, 0.2);
  EXPECT_DOUBLE_EQ(a[0].orientation.w, 1.0);  // normalised
  EXPECT_DOUBLE_EQ(a[0].angular_momentum.z, 1.0);
  EXPECT_DOUBLE_EQ(a[1].orientation.z, 1.0);
  const auto irv = dir.write("b.inp", "NumberOfMolecules 1 MoleculeFormat IRV\n7 1 2 3 0 0 0\n");
  const auto b = io::read_ls1_phase_space(irv);
  EXPECT_EQ(b[0].id, 7);
  EXPECT_EQ(b[0].component, 0);
  EXPECT_DOUBLE_EQ(b[0].position.y, 2.0);
  // Without a format line the molecules are ICRVQD.
  const auto plain = dir.write("c.inp", "NumberOfMolecules 1\n1 1 0 0 0 0 0 0 1 0 0 0 0 0 0\n");
  EXPECT_EQ(io::read_ls1_phase_space(plain).size(), 1u);
}

void expect_near(const V& a, const V& b, double bound) {
  EXPECT_NEAR(a.x, b.x, bound);
  EXPECT_NEAR(a.y, b.y, bound);
  EXPECT_NEAR(a.z, b.z, bound);
}

TEST(Ls1PhaseSpace, ConvertsToTheBodyFramesOfTheComponents) {
  // An asymmetric molecule given off its centre of mass and off its principal axes, with a
  // dipole: every site and the dipole's direction land where ls1-mardyn puts them, r + R(q) s
  // and R(q) e, to rounding (1e-14 of lengths of order 1).
  const core::Component c{"bent",
                          {{core::SiteKind::LennardJones, {0.2, 0.1, 0.0}, {}, 1, 1, 1.0, 0},
                           {core::SiteKind::LennardJones, {1.2, 0.3, 0.1}, {}, 1, 1, 3.0, 0},
                           {core::SiteKind::LennardJones, {0.4, 1.1, -0.2}, {}, 1, 1, 2.0, 0},
                           {core::SiteKind::Dipole, {0.5, 0.5, 0.0}, {0.6, 0.0, 0.8}, 0, 0, 0, 1}},
                          std::nullopt};
  const auto resolved = core::resolve_component(c);
  io::Ls1Molecule m;
  m.position = {1, 2, 3};
  m.orientation = core::normalized(core::Quaternion<double>{0.3, -0.5, 0.7, 0.2});
  m.angular_momentum = {0.2, 0.5, -0.1};
  const auto body = io::to_body_frame(m, resolved);
  for (std::size_t k = 0; k < c.sites.size(); ++k) {
    expect_near(body.centre + core::rotate(body.orientation, resolved.sites[k].position),
                m.position + core::rotate(m.orientation, c.sites[k].position), 1e-14);
  }
  expect_near(core::rotate(body.orientation, resolved.sites[3].direction),
              core::rotate(m.orientation, c.sites[3].direction), 1e-14);
  // The same space-frame angular momentum (all three of its components kept).
  expect_near(core::rotate(body.orientation, body.angular_momentum), m.angular_momentum, 1e-15);

  // A linear molecule has no angular momentum about its axis: that part of D is dropped.
  const core::Component rod{"rod",
                            {{core::SiteKind::LennardJones, {0, 0, -0.5}, {}, 1, 1, 1.0, 0},
                             {core::SiteKind::LennardJones, {0, 0, 0.5}, {}, 1, 1, 1.0, 0}},
                            std::nullopt};
  io::Ls1Molecule r;
  r.angular_momentum = {0.3, 0.0, 0.4};  // q = 1: the rod along space z
  const auto turned = io::to_body_frame(r, core::resolve_component(rod));
  EXPECT_EQ(turned.angular_momentum.x, 0.0);
  expect_near(core::rotate(turned.orientation, turned.angular_momentum), {0.3, 0.0, 0.0}, 1e-15);
}

TEST(Ls1PhaseSpace, NamesTheFileAndLineOfWhatItCannotRead) {
  novamd::test::TempDir dir;
  const auto error = [&](const std::string& text) {
    const auto file = dir.write("bad.inp", text);
    return novamd::test::input_error_of([&] { io::read_ls1_phase_space(file); });
  };
  EXPECT_NE(error("mardyn trunk\n1 1 0 0 0\n").find("no 'NumberOfMolecules N'"), std::string::npos);
  EXPECT_NE(error("NumberOfMolecules 2\n1 1 0 0 0 0 0 0 1 0 0 0 0 0 0\n2 1 x 0 0\n")
                .find("bad.inp:3: 'x' is not a number; expected molecule 2's x"),
            std::string::npos);
  EXPECT_NE(error("NumberOfMolecules 2\n1 1 0 0 0 0 0 0 1 0 0 0 0 0 0\n")
                .find("the file ends before a molecule's id"),
            std::string::npos);
  EXPECT_NE(error("NumberOfMolecules 1 MoleculeFormat ICRVQDX\n").find("ICRVQD, ICRV or IRV"),
            std::string::npos);
  EXPECT_NE(
      error("NumberOfMolecules 1\n1 0 0 0 0 0 0 0 1 0 0 0 0 0 0\n").find("a component id from 1"),
      std::string::npos);
  EXPECT_NE(error("NumberOfMolecules 1\n1 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n").find("is zero"),
            std::string::npos);
  EXPECT_NE(novamd::test::input_error_of([&] {
              io::read_ls1_phase_space(dir.path() / "none");
            }).find("cannot open"),
            std::string::npos);
}

}  // namespace
