#include "novamd/backend/binning_timing.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/cell_bins_cuda.cuh"

namespace novamd::backend {
namespace {

/// Two events on a stream: milliseconds between them.
class EventPair {
 public:
  EventPair() {
    NOVAMD_CUDA_CHECK(cudaEventCreate(&start_));
    NOVAMD_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  /// Seconds per call of `work`, queued `calls` times on `stream`.
  template <class Work>
  double seconds_per_call(cudaStream_t stream, int calls, Work&& work) {
    NOVAMD_CUDA_CHECK(cudaEventRecord(start_, stream));
    for (int c = 0; c < calls; ++c) work();
    NOVAMD_CUDA_CHECK(cudaEventRecord(stop_, stream));
    NOVAMD_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    NOVAMD_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return 1e-3 * double(ms) / calls;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

template <class T>
BinningTimes time_phases(const std::vector<core::Vec3<double>>& positions, const core::Box& box,
                         double min_size, int calls) {
  std::vector<neighbors::PairPosition<T>> packed(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    packed[i] = {T(positions[i].x), T(positions[i].y), T(positions[i].z), 0};
  const core::CudaStream stream;
  core::DeviceBuffer<neighbors::PairPosition<T>> pos;
  pos.copy_from_host(packed, stream.get());
  const int n = static_cast<int>(positions.size());
  neighbors::DeviceCellBins bins;
  bins.bin(pos.data(), n, box, min_size, stream.get());  // buffers sized, sort scratch taken
  EventPair events;
  constexpr int kRepeats = 5;
  BinningTimes t;
  for (int r = 0; r < kRepeats; ++r) {
    t.assign.push_back(events.seconds_per_call(
        stream.get(), calls, [&] { bins.assign(pos.data(), n, box, min_size, stream.get()); }));
    t.sort.push_back(
        events.seconds_per_call(stream.get(), calls, [&] { bins.sort(n, stream.get()); }));
    t.ranges.push_back(
        events.seconds_per_call(stream.get(), calls, [&] { bins.find_ranges(n, stream.get()); }));
  }
  return t;
}

}  // namespace

std::optional<BinningTimes> time_cell_binning(const std::vector<core::Vec3<double>>& positions,
                                              const core::Box& box, double min_size,
                                              core::Precision precision, int calls) {
  if (!query_cuda_device() || positions.empty()) return std::nullopt;
  if (precision == core::Precision::Double)
    return time_phases<double>(positions, box, min_size, calls);
  return time_phases<float>(positions, box, min_size, calls);
}

}  // namespace novamd::backend
