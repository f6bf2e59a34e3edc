// Output paths checked before the first step (io::check_output_path): the folder must exist, be a
// folder and be writable; the path must be absent or a regular file. Each refusal names the
// setting, the path and what is wrong, and leaves everything as it was.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "novamd/io/output_path.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

namespace fs = std::filesystem;
using novamd::io::check_output_path;
using novamd::io::non_regular_kind;
using novamd::test::input_error_of;
using novamd::test::TempDir;

constexpr const char* kKey = "output.checkpoint.file";

/// The message of check_output_path(path, kKey); it must start with the key and the path.
std::string refusal(const fs::path& path) {
  const std::string message = input_error_of([&] { check_output_path(path, kKey); });
  EXPECT_EQ(message.rfind(std::string(kKey) + ": " + path.string() + ": ", 0), 0u) << message;
  return message;
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(OutputPath, NewOrRegularFilesInAWritableFolderPass) {
  TempDir dir;
  EXPECT_NO_THROW(check_output_path(dir.path() / "run.chk", kKey));
  std::ofstream(dir.path() / "old.chk") << "an earlier checkpoint";
  EXPECT_NO_THROW(check_output_path(dir.path() / "old.chk", kKey));
  EXPECT_FALSE(non_regular_kind(dir.path() / "old.chk"));
  EXPECT_FALSE(non_regular_kind(dir.path() / "absent.chk"));
  EXPECT_NO_THROW(check_output_path("novamd_output_path_test.chk", kKey));  // the working folder
  EXPECT_FALSE(fs::exists(dir.path() / "run.chk"));                         // nothing is created
}

TEST(OutputPath, MissingFolderOrAFileAsTheFolder) {
  TempDir dir;
  const fs::path missing = dir.path() / "nodir";
  EXPECT_HAS(refusal(missing / "r.chk"),
             "the folder '" + missing.string() + "' does not exist; expected an existing folder");
  std::ofstream(dir.path() / "plain") << "x";
  EXPECT_HAS(refusal(dir.path() / "plain" / "r.chk"),
             "'" + (dir.path() / "plain").string() + "' is a regular file, not a folder");
  EXPECT_HAS(input_error_of([] { check_output_path("", kKey); }),
             std::string(kKey) + ": the path is empty");
}

TEST(OutputPath, FolderThatIsNotWritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "SKIPPED: root may write to any folder";
  TempDir dir;
  const fs::path locked = dir.path() / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_HAS(refusal(locked / "r.chk"), "the folder '" + locked.string() + "' is not writable");
  fs::permissions(locked, fs::perms::owner_all);
}

TEST(OutputPath, FolderAtThePath) {
  TempDir dir;
  fs::create_directory(dir.path() / "run.chk");
  EXPECT_HAS(refusal(dir.path() / "run.chk"),
             "the path is a folder; expected a new file or a regular file to replace");
}

TEST(OutputPath, SymbolicLinksAreRefusedEvenToARegularFile) {
  TempDir dir;
  std::ofstream(dir.path() / "target.chk") << "keep me";
  fs::create_symlink(dir.path() / "target.chk", dir.path() / "run.chk");
  fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling.chk");
  EXPECT_HAS(refusal(dir.path() / "run.chk"), "the path is a symbolic link");
  EXPECT_HAS(refusal(dir.path() / "dangling.chk"), "the path is a symbolic link");
  EXPECT_EQ(*non_regular_kind(dir.path() / "run.chk"), "a symbolic link");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "run.chk"));
  EXPECT_FALSE(fs::exists(dir.path() / "nowhere"));
}

TEST(OutputPath, FifoAtThePath) {
  TempDir dir;
  const fs::path fifo = dir.path() / "run.chk";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_HAS(refusal(fifo), "the path is a named pipe (fifo)");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
}

}  // namespace
