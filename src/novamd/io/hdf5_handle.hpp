#pragma once
/// @file hdf5_handle.hpp
/// A move-only owner of an HDF5 identifier (file, group, dataset, dataspace, datatype,
/// attribute, property list) that closes it with the matching H5?close. Only for sources built
/// with HDF5 (NOVAMD_HAVE_HDF5).

#include <hdf5.h>

#include <utility>

namespace novamd::io {

class Hdf5Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Hdf5Handle() = default;
  /// Takes ownership of `id` (a negative id, HDF5's failure value, owns nothing).
  Hdf5Handle(hid_t id, Closer close) : id_(id), close_(close) {}

  Hdf5Handle(Hdf5Handle&& other) noexcept
      : id_(std::exchange(other.id_, H5I_INVALID_HID)), close_(other.close_) {}
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      close_ = other.close_;
    }
    return *this;
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  ~Hdf5Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

}  // namespace novamd::io
