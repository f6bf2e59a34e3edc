#pragma once
// Runs the `novamd` binary in a fresh temporary folder and captures its exit code and output.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

namespace novamd::test {

struct CliResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr together
};

/// A temporary folder removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("novamd_test_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `text` to `name` inside the folder and returns the full path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::ofstream(file) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

/// Runs the shell command `command` with the working directory `workdir`.
inline CliResult run_shell(const std::string& command, const std::filesystem::path& workdir) {
  const std::string line = "cd '" + workdir.string() + "' && " + command + " 2>&1";
  CliResult result;
  FILE* pipe = popen(line.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// The whole content of `file` ("" if it cannot be read).
inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

#ifdef NOVAMD_BINARY  // the CPU suite's path to the binary
/// Runs `novamd ARGS` with the working directory `workdir`.
inline CliResult run_novamd(const std::string& args, const std::filesystem::path& workdir) {
  return run_shell("'" NOVAMD_BINARY "' " + args, workdir);
}
#endif

}  // namespace novamd::test
