#pragma once
// Helpers of the trajectory-writer tests: frames of random particles, writing them through a
// TrajectoryWriter and into an extended XYZ reference, and running the independent reader
// tests/scripts/read_trajectory.py (MDAnalysis, h5py).

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"
#include "novamd/io/trajectory_writer.hpp"
#include "novamd/io/xyz.hpp"

namespace novamd::test {

inline constexpr std::size_t kTrajectoryParticles = 50;

/// A non-cubic box that changes a little from frame to frame.
inline core::Box box_of_frame(int frame) {
  return core::Box(7.3 + 0.01 * frame, 8.1, 9.7 - 0.02 * frame);
}

/// The particles of frame `frame` (different data for each `seed`): two species fixed by id,
/// positions partly outside the box, velocities and forces of assorted magnitudes, stored in a
/// shuffled order (ids travel with the particles; writers must write in id order).
inline core::ParticleData frame_particles(int frame, unsigned seed = 0) {
  const std::size_t n = kTrajectoryParticles;
  core::ParticleData p;
  p.resize(n);
  std::mt19937 gen(1000 * seed + static_cast<unsigned>(frame) + 1);
  std::uniform_real_distribution<double> where(-1.0, 11.0);
  std::normal_distribution<double> normal;
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), gen);
  for (std::size_t k = 0; k < n; ++k) {
    p.id[k] = order[k];
    p.type[k] = order[k] % 3 == 0 ? 1 : 0;  // species by id: C, except O for every third id
    p.position.set(k, {where(gen), where(gen), where(gen)});
    p.velocity.set(k, {normal(gen) * 1e-3, normal(gen), normal(gen) * 1e5});
    p.force.set(k, {normal(gen), normal(gen) * 1e-7, normal(gen) * 3e2});
  }
  return p;
}

/// TrajectoryOpen with the usual test values: N = 50, `real` units (A, fs, kcal/mol) unless
/// given.
inline io::TrajectoryOpen trajectory_open(const std::filesystem::path& file, io::FieldSet fields,
                                          const core::SpeciesTable& species,
                                          std::int64_t first_step, std::int64_t every,
                                          std::optional<std::int64_t> resume = std::nullopt,
                                          std::string length_unit = "A",
                                          std::string time_unit = "fs",
                                          std::string energy_unit = "kcal/mol") {
  return io::TrajectoryOpen{file,
                            fields,
                            species,
                            kTrajectoryParticles,
                            first_step,
                            every,
                            0.5,
                            std::move(length_unit),
                            std::move(time_unit),
                            std::move(energy_unit),
                            resume};
}

/// Writes frames `from` .. `to - 1` (frame k at step first + k every, time 0.5 x step), frame k
/// carrying `fields(k)`, to `writer` and, with every field and round-trip digits, to
/// `reference` (if given).
inline void write_frames(io::TrajectoryWriter& writer, io::XyzWriter* reference,
                         const core::SpeciesTable& species, int from, int to, std::int64_t first,
                         std::int64_t every, const std::function<io::FieldSet(int)>& fields,
                         unsigned seed = 0) {
  for (int k = from; k < to; ++k) {
    const core::ParticleData p = frame_particles(k, seed);
    const core::Box box = box_of_frame(k);
    const std::int64_t step = first + k * every;
    writer.write(io::TrajectoryFrame{step, 0.5 * static_cast<double>(step), box, p, fields(k)});
    if (reference) reference->write_frame(step, 0.5 * static_cast<double>(step), box, p, species);
  }
}

/// The Python that sees the apt packages python3-mdanalysis, python3-h5py and python3-numpy:
/// $NOVAMD_TEST_PYTHON if set, else the distribution's /usr/bin/python3 (a python3 earlier on the
/// PATH, such as pyenv's, does not see /usr/lib/python3/dist-packages), else python3.
inline std::string test_python() {
  if (const char* python = std::getenv("NOVAMD_TEST_PYTHON"); python && *python) return python;
  if (std::filesystem::exists("/usr/bin/python3")) return "/usr/bin/python3";
  return "python3";
}

/// Runs tests/scripts/read_trajectory.py ARGS and returns its exit code (127 without Python;
/// 2 if a module is missing: the calling test fails, it is not skipped).
inline int read_trajectory(const std::string& args) {
  const std::string command =
      "'" + test_python() +
      "' -W ignore '" NOVAMD_SOURCE_DIR "/tests/scripts/read_trajectory.py' " + args;
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

}  // namespace novamd::test
