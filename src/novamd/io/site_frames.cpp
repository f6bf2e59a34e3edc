#include "novamd/io/site_frames.hpp"

#include <string>

#include "novamd/core/quaternion.hpp"

namespace novamd::io {

SiteFrames::SiteFrames(const std::vector<core::ResolvedComponent>& components) {
  std::vector<core::Species> species;
  for (const auto& c : components) {
    first_type_.push_back(static_cast<std::int32_t>(species.size()));
    body_.emplace_back();
    for (std::size_t k = 0; k < c.sites.size(); ++k) {
      body_.back().push_back(c.sites[k].position);
      species.push_back({c.name + "_" + std::to_string(k + 1), 0.0, c.sites[k].mass});
    }
  }
  species_ = core::SpeciesTable(species);
}

std::size_t SiteFrames::count(std::span<const std::int64_t> molecules_per_component) const {
  std::size_t total = 0;
  for (std::size_t c = 0; c < molecules_per_component.size() && c < body_.size(); ++c)
    total += static_cast<std::size_t>(molecules_per_component[c]) * body_[c].size();
  return total;
}

const core::ParticleData& SiteFrames::place(const core::ParticleData& molecules) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < molecules.size(); ++i)
    total += body_[static_cast<std::size_t>(molecules.type[i])].size();
  sites_.resize(total);
  const bool turned = molecules.has(molecules.orientation);
  std::size_t at = 0;
  for (std::size_t i = 0; i < molecules.size(); ++i) {
    const auto c = static_cast<std::size_t>(molecules.type[i]);
    const core::Quaternion<double> q =
        turned ? molecules.orientation.get(i) : core::Quaternion<double>{1.0, 0.0, 0.0, 0.0};
    const core::Vec3<double> centre = molecules.position.get(i);
    for (std::size_t k = 0; k < body_[c].size(); ++k, ++at) {
      sites_.position.set(at, centre + core::rotate(q, body_[c][k]));
      sites_.type[at] = first_type_[c] + static_cast<std::int32_t>(k);
      sites_.id[at] = static_cast<std::int32_t>(at);
    }
  }
  return sites_;
}

}  // namespace novamd::io
