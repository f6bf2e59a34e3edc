// `system.components` (io/config_components.hpp, core/components.hpp): rigid molecules from
// their declared sites into their principal frames, and clear errors for what cannot be one.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <memory>
#include <string>

#include "novamd/io/config_components.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::core::SiteKind;
using V = novamd::core::Vec3<double>;
namespace core = novamd::core;
namespace io = novamd::io;

std::vector<core::ResolvedComponent> parse(const std::string& text) {
  auto source = std::make_shared<io::YamlSource>();
  source->file = "co2.yaml";
  return io::parse_components(io::YamlReader(YAML::Load(text), source, "system.components", 1));
}

// A CO2 model of the kind ls1-mardyn's vapour-liquid work uses (three LJ centres and a point
// quadrupole), given along a tilted axis to be turned into the body frame.
const std::string kCo2 = R"(
- name: CO2
  sites:
    - {type: lj, position: [0.0, 0.6, 0.8], epsilon: 0.4, sigma: 3.0, mass: 16.0}
    - {type: lj, position: [0.0, 0.0, 0.0], epsilon: 0.1, sigma: 2.8, mass: 12.0}
    - {type: lj, position: [0.0, -0.6, -0.8], epsilon: 0.4, sigma: 3.0, mass: 16.0}
    - {type: quadrupole, position: [0, 0, 0], direction: [0, 3, 4], moment: -4.3}
- name: Stockmayer
  sites:
    - {type: lj, position: [0, 0, 0], epsilon: 1.0, sigma: 1.0, mass: 1.0}
    - {type: dipole, position: [0, 0, 0], direction: [0, 0, 2], moment: 1.5}
  inertia: [0.025, 0.025, 0.025]
)";

TEST(Components, ResolveIntoTheirBodyFrames) {
  const auto components = parse(kCo2);
  ASSERT_EQ(components.size(), 2u);
  const auto& co2 = components[0];
  EXPECT_EQ(co2.name, "CO2");
  EXPECT_DOUBLE_EQ(co2.shape.mass, 44.0);
  EXPECT_EQ(co2.shape.rotational_freedom, 2);  // linear
  // The axis (0, 0.6, 0.8) becomes body x, the quadrupole's direction with it (up to sign).
  EXPECT_NEAR(std::abs(co2.sites[0].position.x), 1.0, 1e-13);
  EXPECT_NEAR(std::abs(co2.sites[3].direction.x), 1.0, 1e-13);
  EXPECT_NEAR(co2.shape.moments.y, 2 * 16.0, 1e-12);
  EXPECT_EQ(co2.sites[3].kind, SiteKind::Quadrupole);
  EXPECT_DOUBLE_EQ(co2.sites[3].strength, -4.3);
  EXPECT_DOUBLE_EQ(co2.sites[0].sigma, 3.0);

  const auto& point = components[1];
  EXPECT_EQ(point.shape.rotational_freedom, 3);  // the inertia given
  EXPECT_DOUBLE_EQ(point.shape.moments.z, 0.025);
  EXPECT_DOUBLE_EQ(point.sites[1].direction.z, 1.0);  // normalised, the frame kept
  EXPECT_DOUBLE_EQ(point.sites[1].strength, 1.5);
}

TEST(Components, NameTheKeyOfWhatCannotBeAMolecule) {
  const auto error = [](const std::string& text) {
    return novamd::test::input_error_of([&] { parse(text); });
  };
  EXPECT_NE(error("- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1}]}")
                .find("system.components[0].sites[0].mass: required key is missing"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: octupole, position: [0, 0, 0]}]}")
                .find("system.components[0].sites[0].type"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: dipole, position: [0, 0, 0], direction: [0, 0, 0], "
                  "moment: 1, mass: 1}]}")
                .find("the direction is [0, 0, 0]"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: charge, position: [0, 0], charge: 1, mass: 1}]}")
                .find("found a list of 2"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: charge, position: [0, 0, 0], charge: 1}]}")
                .find("mass above 0"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1, "
                  "mass: 1}]}\n- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, "
                  "sigma: 1, mass: 1}]}")
                .find("component 'A' is declared twice"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1, "
                  "mass: 1, charge: 2}]}")
                .find("charge"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1, "
                  "mass: 1}], inertia: [1, 0, 1]}")
                .find("system.components[0].inertia: a linear molecule's axis is x"),
            std::string::npos);
  EXPECT_NE(error("- {name: A, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1, "
                  "mass: 1}], inertia: [1, 1, 3]}")
                .find("no mass distribution's"),
            std::string::npos);
}

TEST(Components, HoldLinearMoleculesOnTheirAxisAndPointsAtTheirCentre) {
  const auto error = [](const std::string& text) {
    return novamd::test::input_error_of([&] { parse(text); });
  };
  const std::string rod =
      "- {name: A, sites: [{type: lj, position: [0, 0, -1], epsilon: 1, sigma: 1, mass: 1}, "
      "{type: lj, position: [0, 0, 1], epsilon: 1, sigma: 1, mass: 1}, ";
  // A massless site off the line, or a dipole across it, could not turn about the axis.
  EXPECT_NE(error(rod + "{type: charge, position: [0, 0.5, 0], charge: 1}]}").find("off the axis"),
            std::string::npos);
  EXPECT_NE(error(rod + "{type: dipole, position: [0, 0, 0], direction: [1, 0, 0], moment: 1}]}")
                .find("not along the axis"),
            std::string::npos);
  // A point with a dipole needs its inertia.
  EXPECT_NE(error("- {name: P, sites: [{type: lj, position: [0, 0, 0], epsilon: 1, sigma: 1, "
                  "mass: 1}, {type: dipole, position: [0, 0, 0], direction: [0, 0, 1], moment: "
                  "1}]}")
                .find("give its `inertia`"),
            std::string::npos);
  // On the axis: held exactly there, directions along it, I_2 = I_3.
  const auto c =
      parse(rod + "{type: quadrupole, position: [0, 0, 0.2], direction: [0, 0, -2], moment: 1}]}");
  EXPECT_EQ(c[0].sites[2].position.y, 0.0);
  EXPECT_EQ(c[0].sites[2].position.z, 0.0);
  EXPECT_EQ(std::abs(c[0].sites[2].direction.x), 1.0);
  EXPECT_EQ(c[0].shape.moments.y, c[0].shape.moments.z);
  // A charged point is a point.
  const auto ion = parse(
      "- {name: I, sites: [{type: charge, position: [1, 2, 3], charge: 1, "
      "mass: 23}]}");
  EXPECT_EQ(ion[0].shape.rotational_freedom, 0);
}

}  // namespace
