#include "novamd/io/thermo_writer.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::io {

ThermoWriter::ThermoWriter(const std::filesystem::path& file)
    : path_(file), file_(std::fopen(file.c_str(), "w"), &std::fclose) {
  if (!file_) throw core::RunError(fmt::format("cannot write thermo file '{}'", file.string()));
  fmt::print(file_.get(), "{}\n", kHeader);
}

void ThermoWriter::write(const analysis::ThermoState& s) {
  // 17 significant digits: doubles round-trip, so energy drift can be measured from the file.
  fmt::print(file_.get(), "{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", s.step, s.time,
             s.temperature, s.kinetic_energy, s.potential_energy, s.total_energy, s.pressure);
  if (std::fflush(file_.get()) != 0) {
    throw core::RunError(fmt::format("cannot write thermo file '{}'", path_.string()));
  }
}

}  // namespace novamd::io
