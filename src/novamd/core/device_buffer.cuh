#pragma once
/// @file device_buffer.cuh
/// Move-only owner of a device array. The only place that allocates, frees and copies device
/// memory (STYLE convention 4): a buffer cannot be copied, so it cannot be freed twice.

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "novamd/core/cuda_check.cuh"

namespace novamd::core {

template <class T>
class DeviceBuffer {
 public:
  using value_type = T;

  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t size) { resize(size); }
  ~DeviceBuffer() { release(); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  /// Reallocates to `size` elements (contents are lost when the size changes).
  void resize(std::size_t size) {
    if (size == size_) return;
    release();
    if (size > 0) NOVAMD_CUDA_CHECK(cudaMalloc(&data_, size * sizeof(T)));
    size_ = size;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

  void copy_from_host(const std::vector<T>& host, cudaStream_t stream) {
    resize(host.size());
    if (size_ > 0) {
      NOVAMD_CUDA_CHECK(
          cudaMemcpyAsync(data_, host.data(), bytes(), cudaMemcpyHostToDevice, stream));
    }
  }
  void copy_to_host(std::vector<T>& host, cudaStream_t stream) const {
    host.resize(size_);
    if (size_ > 0) {
      NOVAMD_CUDA_CHECK(
          cudaMemcpyAsync(host.data(), data_, bytes(), cudaMemcpyDeviceToHost, stream));
    }
  }
  /// `other`'s contents, copied on the device (queued on `stream`).
  void copy_from_device(const DeviceBuffer& other, cudaStream_t stream) {
    resize(other.size());
    if (size_ > 0) {
      NOVAMD_CUDA_CHECK(
          cudaMemcpyAsync(data_, other.data_, bytes(), cudaMemcpyDeviceToDevice, stream));
    }
  }
  void fill_zero(cudaStream_t stream) {
    if (size_ > 0) NOVAMD_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
  }

 private:
  void release() noexcept {
    if (data_) cudaFree(data_);  // no check: destructors must not throw
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// One value in page-locked host memory that kernels can read and write directly (mapped): the
/// cheapest way for a kernel to tell the host a yes or no. Read it after synchronizing.
template <class T>
class MappedHostValue {
 public:
  MappedHostValue() { NOVAMD_CUDA_CHECK(cudaHostAlloc(&host_, sizeof(T), cudaHostAllocMapped)); }
  ~MappedHostValue() { cudaFreeHost(host_); }
  MappedHostValue(const MappedHostValue&) = delete;
  MappedHostValue& operator=(const MappedHostValue&) = delete;

  T& value() { return *host_; }
  /// The address kernels write to (unified addressing: the same pointer).
  T* device() { return host_; }
  /// The value at `from` (device memory) once `stream` reaches it: copied here, waited for.
  T read(const T* from, cudaStream_t stream) {
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(host_, from, sizeof(T), cudaMemcpyDeviceToHost, stream));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    return *host_;
  }

 private:
  T* host_ = nullptr;
};

/// An array in page-locked host memory: device-to-host copies into it are truly asynchronous
/// (several may be queued before one wait) and take one transfer each.
template <class T>
class PinnedHostArray {
 public:
  PinnedHostArray() = default;
  ~PinnedHostArray() { release(); }
  PinnedHostArray(const PinnedHostArray&) = delete;
  PinnedHostArray& operator=(const PinnedHostArray&) = delete;

  /// Reallocates to `size` elements (contents are lost when the size changes).
  void resize(std::size_t size) {
    if (size == size_) return;
    release();
    if (size > 0) NOVAMD_CUDA_CHECK(cudaHostAlloc(&host_, size * sizeof(T), cudaHostAllocDefault));
    size_ = size;
  }
  std::size_t size() const { return size_; }
  T* data() { return host_; }
  const T* data() const { return host_; }
  const T& operator[](std::size_t i) const { return host_[i]; }
  /// Queues the copy of `count` elements from `from` (device memory) to element `at` on;
  /// read them after synchronizing with `stream`.
  void queue_copy_from(const T* from, std::size_t count, std::size_t at, cudaStream_t stream) {
    if (count > 0)
      NOVAMD_CUDA_CHECK(
          cudaMemcpyAsync(host_ + at, from, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

 private:
  void release() noexcept {
    if (host_) cudaFreeHost(host_);  // no check: destructors must not throw
    host_ = nullptr;
    size_ = 0;
  }

  T* host_ = nullptr;
  std::size_t size_ = 0;
};

/// Which of the device's stream priorities a stream takes. Side streams of small, latency-bound
/// kernels (the PME mesh, the bonded terms) take the highest, so that the block scheduler
/// dispatches their blocks as soon as the pair kernel's blocks free a multiprocessor, rather
/// than after the pair kernel's last wave.
enum class StreamPriority { Default, Highest };

/// An owned CUDA stream.
class CudaStream {
 public:
  explicit CudaStream(StreamPriority priority = StreamPriority::Default) {
    int value = 0;  // the default priority, which is the least
    if (priority == StreamPriority::Highest) {
      int least = 0;
      NOVAMD_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &value));
    }
    NOVAMD_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, value));
  }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  cudaStream_t get() const { return stream_; }
  void synchronize() const { NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_{};
};

/// An owned CUDA event without timing, for ordering work across streams: record() on one
/// stream, then make_wait() another stream until the work queued before the record is done.
class CudaEvent {
 public:
  CudaEvent() { NOVAMD_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  void record(cudaStream_t stream) const { NOVAMD_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void make_wait(cudaStream_t stream) const {
    NOVAMD_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
  }
  /// Waits on the host until the work before the last record() is done.
  void synchronize() const { NOVAMD_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  cudaEvent_t event_{};
};

/// Work queued beside a main stream, on a stream of its own at the highest priority (a force
/// term's work that writes no force output: the PME mesh, the bonded term forces). follow()
/// gives the side stream after the main stream's work queued so far (whose results that work
/// reads); join() makes the main stream wait for the side stream's work queued so far.
class SideStream {
 public:
  cudaStream_t follow(cudaStream_t main) {
    ready_.record(main);
    ready_.make_wait(stream_.get());
    return stream_.get();
  }
  void join(cudaStream_t main) {
    done_.record(stream_.get());
    done_.make_wait(main);
  }
  /// The side stream, for more work after follow() (it waits for nothing more).
  cudaStream_t stream() const { return stream_.get(); }

 private:
  CudaStream stream_{StreamPriority::Highest};
  CudaEvent ready_, done_;
};

}  // namespace novamd::core
