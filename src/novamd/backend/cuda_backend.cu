#include <climits>
#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <string>
#include <vector>

#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/device_particles.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/integrate/thermostat_cuda.cuh"
#include "novamd/integrate/velocity_verlet_cuda.cuh"
#include "novamd/neighbors/spatial_order_cuda.cuh"

namespace novamd::backend {
namespace {

constexpr int kBlock = 256;

int blocks_for(std::size_t n) {
  return static_cast<int>((n + kBlock - 1) / kBlock);
}

integrate::Vec3Pointers pointers(DeviceVec3Array& a) {
  return {a.x.data(), a.y.data(), a.z.data()};
}

/// Device sums of per-particle arrays (CUB), into a small device array of results.
class DeviceSums {
 public:
  void reserve(std::size_t n) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, static_cast<double*>(nullptr),
                           static_cast<double*>(nullptr), static_cast<int>(n));
    std::size_t min_bytes = 0;
    cub::DeviceReduce::Min(nullptr, min_bytes, static_cast<std::int32_t*>(nullptr),
                           static_cast<std::int32_t*>(nullptr), static_cast<int>(n));
    temp_.resize(std::max(bytes, min_bytes));
  }
  void sum(const double* in, double* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Sum(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }
  void min(const std::int32_t* in, std::int32_t* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Min(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }

 private:
  core::DeviceBuffer<unsigned char> temp_;
};

template <core::Precision P>
class CudaBackend final : public Backend {
 public:
  using PairT = typename core::PrecisionTypes<P>::PairT;

  explicit CudaBackend(BackendSetup setup)
      : units_(std::move(setup.units)),
        species_(std::move(setup.species)),
        box_(setup.box),
        host_(std::move(setup.particles)),
        reorder_every_(setup.neighbors.reorder_every) {
    const auto device = query_cuda_device();
    description_ = "cuda: " + describe(*device);
    multiprocessors_ = device->multiprocessors;
    resident_threads_ = device->multiprocessors * device->max_threads_per_multiprocessor;
    const std::size_t n = host_.size();
    device_.upload(host_, stream_.get());
    upload_per_type_constants();
    packed_.resize(n);
    scratch_.resize(n);
    flag_ids_.resize(n);
    results_.resize(3);
    first_non_finite_.resize(1);
    sums_.reserve(n);
    for (const auto& f : setup.forces) {
      terms_.push_back(forces::make_cuda_force_term<P>(f, species_, units_, setup.neighbors, box_));
    }
    // Positions packed for the pair kernels: a drift by zero writes them.
    drift(0.0);
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // uploads on other streams are complete
  }

  std::string description() const override { return description_; }
  std::size_t size() const override { return host_.size(); }
  std::int64_t check_interval() const override { return 100; }
  std::int64_t neighbor_list_builds() const override {
    std::int64_t builds = 0;
    for (const auto& term : terms_) builds += term->list_builds();
    return builds;
  }
  std::int64_t reorders() const override { return reorders_; }
  MemoryUse memory_use() const override {
    MemoryUse use;
    use.particles = device_.bytes() + packed_.bytes();
    for (const auto& term : terms_) use.neighbors += term->bytes();
    use.other = inverse_mass_.bytes() + mass_energy_.bytes() + scratch_.bytes() +
                results_.bytes() + flag_ids_.bytes() + first_non_finite_.bytes() +
                order_.bytes();
    return use;
  }
  void synchronize() override { stream_.synchronize(); }

  void compute_forces(EnergyRequest energy) override {
    const auto stream = stream_.get();
    const bool with_energy = energy == EnergyRequest::Compute;
    if (reorder_every_ > 0 && ++evaluations_ % reorder_every_ == 0) reorder_along_curve();
    if (terms_.empty()) device_.clear_forces(stream);
    const auto input = force_input();
    for (std::size_t t = 0; t < terms_.size(); ++t) {
      terms_[t]->add_to(input, device_.force_output(), {t > 0, with_energy}, stream);
    }
    energy_current_ = with_energy;
  }

  void kick(double dt) override {
    if (size() == 0) return;
    integrate::kick_kernel<<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), dt, inverse_mass_.data(), device_.type.data(),
        pointers(device_.velocity), pointers(device_.force));
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void kick_drift(double kick_dt, double drift_dt) override {
    energy_current_ = false;
    if (size() == 0) return;
    integrate::kick_drift_kernel<PairT><<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), kick_dt, drift_dt, inverse_mass_.data(), device_.type.data(),
        pointers(device_.force), pointers(device_.velocity), box_.view<double>(),
        pointers(device_.position), packed_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void drift(double dt) override {
    energy_current_ = false;
    if (size() == 0) return;
    integrate::drift_kernel<PairT><<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), dt, box_.view<double>(), pointers(device_.position),
        pointers(device_.velocity), device_.type.data(), packed_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void scale_velocities(double factor) override {
    if (size() == 0) return;
    integrate::scale_velocities_kernel<<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), factor, pointers(device_.velocity));
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void thermalize(const integrate::VelocityNoise& noise) override {
    if (size() == 0) return;
    if (device_.heat.size() != size()) {
      device_.heat.resize(size());
      device_.heat.fill_zero(stream_.get());
    }
    integrate::thermalize_kernel<<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), noise, inverse_mass_.data(), device_.type.data(),
        device_.id.data(), pointers(device_.velocity), device_.heat.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  double langevin_heat() override {
    if (device_.heat.size() == 0) return 0.0;
    return sum_to_host(device_.heat.data());
  }

  double kinetic_energy() override {
    if (size() == 0) return 0.0;
    queue_twice_kinetic_energy();
    return 0.5 * sum_to_host(scratch_.data());
  }

  Observables observables() override {
    const auto stream = stream_.get();
    const std::size_t n = size();
    if (n == 0) return {};
    if (!energy_current_) compute_forces(EnergyRequest::Compute);
    queue_twice_kinetic_energy();
    sums_.sum(scratch_.data(), results_.data() + 0, n, stream);
    sums_.sum(device_.energy.data(), results_.data() + 1, n, stream);
    sums_.sum(device_.virial.data(), results_.data() + 2, n, stream);
    std::vector<double> host;
    results_.copy_to_host(host, stream);
    stream_.synchronize();
    return {0.5 * host[0], host[1], host[2]};
  }

  BackendState save_state() override {
    const auto stream = stream_.get();
    BackendState state;
    device_.download_state(state.particles, stream);
    device_.type.copy_to_host(state.particles.type, stream);
    device_.id.copy_to_host(state.particles.id, stream);
    device_.heat.copy_to_host(state.thermostat_heat, stream);
    stream_.synchronize();
    state.force_evaluations = evaluations_;
    state.reorders = reorders_;
    for (const auto& term : terms_) state.terms.push_back(term->neighbor_state(stream));
    return state;
  }

  void restore_state(const BackendState& state) override {
    const auto stream = stream_.get();
    host_ = state.particles;
    device_.upload(host_, stream);
    device_.heat.copy_from_host(state.thermostat_heat, stream);
    evaluations_ = state.force_evaluations;
    reorders_ = state.reorders;
    energy_current_ = false;
    drift(0.0);  // packs the positions
    const auto input = force_input();
    for (std::size_t t = 0; t < terms_.size() && t < state.terms.size(); ++t) {
      const auto& built_at = state.terms[t].built_at;
      std::vector<neighbors::PairPosition<PairT>> packed(built_at.size());
      for (std::size_t i = 0; i < packed.size(); ++i) {
        packed[i] = {static_cast<PairT>(built_at.x[i]), static_cast<PairT>(built_at.y[i]),
                     static_cast<PairT>(built_at.z[i]), host_.type[i]};
      }
      core::DeviceBuffer<neighbors::PairPosition<PairT>> on_device;
      on_device.copy_from_host(packed, stream);
      terms_[t]->restore_neighbors(state.terms[t], on_device.data(), input, stream);
      stream_.synchronize();  // before `on_device` is freed
    }
  }

  std::optional<NonFinite> find_non_finite() override {
    const auto stream = stream_.get();
    const std::size_t n = size();
    if (n == 0) return std::nullopt;
    integrate::non_finite_id_kernel<<<blocks_for(n), kBlock, 0, stream>>>(
        static_cast<int>(n), pointers(device_.position), pointers(device_.velocity),
        pointers(device_.force), device_.energy.data(), device_.id.data(), flag_ids_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    sums_.min(flag_ids_.data(), first_non_finite_.data(), n, stream);
    std::vector<std::int32_t> first;
    first_non_finite_.copy_to_host(first, stream);
    stream_.synchronize();
    if (first[0] == INT32_MAX) return std::nullopt;
    return host_check();
  }

  const core::ParticleData& particles_on_host() override {
    device_.download_state(host_, stream_.get());
    if (reorders_ > 0) device_.id.copy_to_host(host_.id, stream_.get());
    stream_.synchronize();
    if (reorders_ == 0) return host_;
    std::vector<std::int32_t> types;
    device_.type.copy_to_host(types, stream_.get());
    stream_.synchronize();
    host_.type = std::move(types);
    by_id_ = host_;
    core::permute(by_id_, core::id_order(host_));
    return by_id_;
  }

  ParticleArrays particle_arrays() override {
    const core::ParticleView view{device_.position.x.data(), device_.position.y.data(),
                                  device_.position.z.data(), device_.type.data(),
                                  device_.id.data(),         size()};
    return {view, stream_.get()};
  }

 private:
  forces::CudaForceInput<PairT> force_input() {
    return {packed_.data(), static_cast<int>(size()), box_.view<PairT>(), box_, multiprocessors_,
            resident_threads_};
  }

  /// m v^2 of every particle into scratch_.
  void queue_twice_kinetic_energy() {
    integrate::twice_kinetic_energy_kernel<<<blocks_for(size()), kBlock, 0, stream_.get()>>>(
        static_cast<int>(size()), mass_energy_.data(), device_.type.data(),
        pointers(device_.velocity), scratch_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  /// The sum of a per-particle device array, on the host (waits for the stream).
  double sum_to_host(const double* values) {
    const auto stream = stream_.get();
    sums_.sum(values, results_.data(), size(), stream);
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(&sum_host_.value(), results_.data(), sizeof(double),
                                      cudaMemcpyDeviceToHost, stream));
    stream_.synchronize();
    return sum_host_.value();
  }

  /// Sorts every per-particle array along the Morton curve; lists built on the old order are
  /// invalidated.
  void reorder_along_curve() {
    const auto stream = stream_.get();
    const int n = static_cast<int>(size());
    const auto* order = order_.compute(n, device_.position.x.data(), device_.position.y.data(),
                                       device_.position.z.data(), box_, stream);
    device_.permute(order, stream);
    drift(0.0);  // repacks the positions
    for (auto& term : terms_) term->invalidate_lists();
    ++reorders_;
  }

  void upload_per_type_constants() {
    std::vector<double> inverse_mass, mass_energy;
    for (const auto& s : species_.all()) {
      inverse_mass.push_back(1.0 / (s.mass * units_.mvv_to_energy));
      mass_energy.push_back(s.mass * units_.mvv_to_energy);
    }
    inverse_mass_.copy_from_host(inverse_mass, stream_.get());
    mass_energy_.copy_from_host(mass_energy, stream_.get());
  }

  /// Names the first non-finite particle and quantity from a host copy (failure path only).
  std::optional<NonFinite> host_check() {
    particles_on_host();
    std::vector<double> energy;
    device_.energy.copy_to_host(energy, stream_.get());
    stream_.synchronize();
    std::optional<NonFinite> first;
    for (std::size_t i = 0; i < size(); ++i) {
      const auto finite = [&](const core::Vec3Array& a) {
        return std::isfinite(a.x[i]) && std::isfinite(a.y[i]) && std::isfinite(a.z[i]);
      };
      const char* what = !finite(host_.position)     ? "position"
                         : !finite(host_.velocity)   ? "velocity"
                         : !finite(host_.force)      ? "force"
                         : !std::isfinite(energy[i]) ? "energy"
                                                     : nullptr;
      if (what && (!first || host_.id[i] < first->particle_id))
        first = NonFinite{host_.id[i], what};
    }
    return first;
  }

  core::UnitSystem units_;
  core::SpeciesTable species_;
  core::Box box_;
  core::ParticleData host_;   ///< host copy in storage order, refreshed only for output
  core::ParticleData by_id_;  ///< the host copy in id order, once particles were reordered
  core::CudaStream stream_;
  std::string description_;
  int multiprocessors_ = 1;
  int resident_threads_ = 2048;
  std::int64_t reorder_every_ = 0;
  std::int64_t evaluations_ = 0;
  std::int64_t reorders_ = 0;
  bool energy_current_ = false;  ///< energy and virial arrays belong to the current positions
  DeviceParticles device_;
  core::DeviceBuffer<neighbors::PairPosition<PairT>> packed_;
  core::DeviceBuffer<double> inverse_mass_, mass_energy_, scratch_, results_;
  core::DeviceBuffer<std::int32_t> flag_ids_, first_non_finite_;
  DeviceSums sums_;
  core::MappedHostValue<double> sum_host_;
  neighbors::DeviceSpatialOrder order_;
  std::vector<std::unique_ptr<forces::CudaForceTerm<PairT>>> terms_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(BackendSetup setup) {
  switch (setup.precision) {
    case core::Precision::Double:
      return std::make_unique<CudaBackend<core::Precision::Double>>(std::move(setup));
    case core::Precision::Mixed:
      return std::make_unique<CudaBackend<core::Precision::Mixed>>(std::move(setup));
    case core::Precision::Single:
      return std::make_unique<CudaBackend<core::Precision::Single>>(std::move(setup));
  }
  return nullptr;
}

}  // namespace novamd::backend
