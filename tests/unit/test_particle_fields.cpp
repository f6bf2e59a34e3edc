// The particle store's field table (core/particles.hpp): an optional field a system enables
// (charges, image counts) is carried through reordering along the space-filling curve, a
// checkpoint and a restart, and trajectory output, with nothing per field in those paths.
// Image counts also follow the drift: x + image L is the unwrapped position.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/io/checkpoint.hpp"
#include "novamd/io/xyz.hpp"
#include "support/moving_particles.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::core::ParticleData;

using novamd::test::charge_of;

BackendSetup moving_particles_with_fields() {
  return novamd::test::moving_particles_with_fields(300, 6.0, 17, /*v=*/3.0);
}

void advance(CpuBackend& backend, int steps, double dt) {
  for (int s = 0; s < steps; ++s) {
    backend.kick_drift(0.5 * dt, dt, novamd::integrate::VelocityCondition::Apply);
    backend.compute_forces(novamd::backend::EnergyRequest::Compute);
    backend.kick(0.5 * dt);
  }
}

TEST(ParticleFields, OptionalFieldsArePresentOnlyWhenEnabled) {
  ParticleData p;
  p.resize(4);
  EXPECT_TRUE(p.has(p.position));
  EXPECT_FALSE(p.has(p.charge));
  EXPECT_FALSE(p.has(p.image));
  p.enable(p.charge);
  EXPECT_TRUE(p.has(p.charge));
  EXPECT_EQ(p.charge.size(), 4u);
  p.resize(7);  // present optional fields follow; absent ones stay absent
  EXPECT_EQ(p.charge.size(), 7u);
  EXPECT_TRUE(p.image.x.empty());
}

TEST(ParticleFields, ChargesFollowTheirParticlesThroughReordering) {
  const auto setup = moving_particles_with_fields();
  CpuBackend backend(setup);
  advance(backend, 20, 0.01);
  ASSERT_GT(backend.reorders(), 0);  // the storage order did change
  const ParticleData& by_id = backend.particles_on_host();
  for (std::size_t k = 0; k < by_id.size(); ++k) {
    ASSERT_EQ(by_id.id[k], static_cast<std::int32_t>(k));
    ASSERT_EQ(by_id.charge[k], charge_of(by_id.id[k])) << "particle " << k;
  }
}

TEST(ParticleFields, ImageCountsGiveTheUnwrappedPosition) {
  const auto setup = moving_particles_with_fields();
  CpuBackend backend(setup);
  constexpr int kSteps = 40;
  constexpr double kDt = 0.01;
  advance(backend, kSteps, kDt);  // |v| <= 3: up to 1.2 length units, a fifth of the box
  const ParticleData& p = backend.particles_on_host();
  const auto L = setup.box.length();
  int crossed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto x0 = setup.particles.position.get(i);  // setup is in id order
    const auto v = setup.particles.velocity.get(i);   // no forces: constant velocity
    const auto image = p.image.get(i);
    const novamd::core::Vec3<double> unwrapped{p.position.x[i] + image.x * L.x,
                                               p.position.y[i] + image.y * L.y,
                                               p.position.z[i] + image.z * L.z};
    // 40 additions of v dt to a coordinate below 7: rounding of ~40 x 1e-15.
    const double t = kSteps * kDt;
    ASSERT_NEAR(unwrapped.x, x0.x + t * v.x, 1e-12) << "particle " << i;
    ASSERT_NEAR(unwrapped.y, x0.y + t * v.y, 1e-12) << "particle " << i;
    ASSERT_NEAR(unwrapped.z, x0.z + t * v.z, 1e-12) << "particle " << i;
    crossed += image.x != 0 || image.y != 0 || image.z != 0;
  }
  EXPECT_GT(crossed, 10);  // the test saw particles cross the box edges
}

TEST(ParticleFields, CheckpointAndRestartCarryEveryPresentField) {
  const auto setup = moving_particles_with_fields();
  CpuBackend backend(setup);
  advance(backend, 15, 0.01);
  const auto dir = std::filesystem::temp_directory_path() / "novamd_particle_fields";
  std::filesystem::create_directories(dir);
  novamd::io::CheckpointData data;
  data.backend = "cpu";
  data.precision = "double";
  data.step = 15;
  data.time_axis.timestep = 0.01;
  data.box = {setup.box.length().x, setup.box.length().y, setup.box.length().z};
  data.state = backend.save_state();
  novamd::io::write_checkpoint(dir / "fields.chk", data);
  const auto read = novamd::io::read_checkpoint(dir / "fields.chk");
  EXPECT_EQ(read.state.particles.charge, data.state.particles.charge);
  EXPECT_EQ(read.state.particles.image.x, data.state.particles.image.x);
  EXPECT_EQ(read.state.particles.image.z, data.state.particles.image.z);
  EXPECT_FALSE(read.state.particles.has(read.state.particles.molecule));  // absent stays absent

  CpuBackend continued(setup);
  continued.restore_state(read.state);
  advance(continued, 10, 0.01);
  advance(backend, 10, 0.01);
  const ParticleData a = backend.particles_on_host();
  const ParticleData& b = continued.particles_on_host();
  EXPECT_EQ(a.position.x, b.position.x);  // bitwise
  EXPECT_EQ(a.charge, b.charge);
  EXPECT_EQ(a.image.y, b.image.y);
  std::filesystem::remove_all(dir);
}

TEST(ParticleFields, XyzFramesNameAndHoldEveryPresentOptionalField) {
  const auto setup = moving_particles_with_fields();
  CpuBackend backend(setup);
  advance(backend, 5, 0.01);
  const auto file = std::filesystem::temp_directory_path() / "novamd_particle_fields.xyz";
  {
    novamd::io::XyzWriter writer(file, false, false, novamd::io::XyzWriter::kRoundTrip,
                                 novamd::io::XyzWriter::Mode::Truncate);
    // Element names, which ASE needs (the test system's species are A, B and C).
    const novamd::core::SpeciesTable elements(
        {{"He", 1.0, 1.0, 0}, {"B", 6.0, 12.0, 0}, {"C", 8.0, 16.0, 0}});
    writer.write_frame(5, 0.05, setup.box, backend.particles_on_host(), elements);
  }
  std::ifstream in(file);
  std::string count, comment, line;
  std::getline(in, count);
  std::getline(in, comment);
  EXPECT_NE(comment.find("Properties=species:S:1:pos:R:3:charge:R:1:image:I:3 "), std::string::npos)
      << comment;
  const ParticleData& p = backend.particles_on_host();
  for (std::int32_t id = 0; std::getline(in, line); ++id) {  // particles in id order
    std::istringstream fields(line);
    std::string species;
    double x, y, z, charge;
    int ix, iy, iz;
    ASSERT_TRUE(fields >> species >> x >> y >> z >> charge >> ix >> iy >> iz) << line;
    EXPECT_EQ(charge, charge_of(id));
    EXPECT_EQ(ix, p.image.x[id]);
    EXPECT_EQ(iz, p.image.z[id]);
  }
  // ASE reads the same frame, columns by name (tests/scripts/read_xyz_ase.py).
  const auto images = std::filesystem::temp_directory_path() / "novamd_particle_fields.images";
  {
    std::ofstream out(images);
    for (std::size_t k = 0; k < p.size(); ++k)
      out << p.image.x[k] << ' ' << p.image.y[k] << ' ' << p.image.z[k] << '\n';
  }
  const std::string command = "'" + novamd::test::test_python() + "' -W ignore '" +
                              NOVAMD_SOURCE_DIR "/tests/scripts/read_xyz_ase.py' '" +
                              file.string() + "' --charge-of-id '0.25*i-3' --images '" +
                              images.string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::filesystem::remove(file);
  std::filesystem::remove(images);
}

}  // namespace
