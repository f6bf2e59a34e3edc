#pragma once
/// @file memory_file.hpp
/// An in-memory file (Linux memfd) with a path that the readers open like any other file, so
/// that the fuzz targets hand each input to the file-reading entry points unchanged and without
/// touching the disk.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace novamd::fuzz {

class MemoryFile {
 public:
  MemoryFile() : fd_(memfd_create("novamd_fuzz_input", 0)) {
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  /// Replaces the content with `size` bytes at `data`.
  void assign(const void* data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0) std::abort();
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t written = ::write(fd_, p, size);
      if (written <= 0) std::abort();
      p += written;
      size -= static_cast<std::size_t>(written);
    }
  }

  /// The path every open of which reads the current content from its start.
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

}  // namespace novamd::fuzz
