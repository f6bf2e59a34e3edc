#include <memory>

#include "novamd/integrate/integrator.hpp"
#include "novamd/integrate/langevin.hpp"
#include "novamd/integrate/leapfrog.hpp"
#include "novamd/integrate/mttk.hpp"
#include "novamd/integrate/nose_hoover_chain.hpp"
#include "novamd/integrate/stochastic_rescale.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::integrate {

std::unique_ptr<Integrator> make_integrator(const IntegratorSettings& settings,
                                            const core::UnitSystem& units, std::uint64_t seed,
                                            const SystemFreedom& system,
                                            const BarostatSettings& barostat,
                                            const ScaledSystem& scaled) {
  const double dt = settings.timestep;
  const double kT = settings.temperature.value_or(0.0) * units.boltzmann;
  if (settings.type == "leapfrog") return std::make_unique<Leapfrog>(dt, system);
  if (settings.type == "langevin")
    return std::make_unique<Langevin>(dt, kT, settings.friction, seed, system);
  if (settings.type == "nose_hoover" && barostat.type == "mttk")
    return std::make_unique<MttkNoseHoover>(dt, kT, settings.tau, settings.chain, barostat, scaled,
                                            system);
  if (settings.type == "nose_hoover")
    return std::make_unique<NoseHooverChain>(dt, kT, settings.tau, settings.chain, system);
  if (settings.type == "bussi")
    return std::make_unique<StochasticRescale>(dt, kT, settings.tau, seed, system);
  return std::make_unique<VelocityVerlet>(dt, system);
}

}  // namespace novamd::integrate
