// A folder of files for a test, removed with everything in it when the test ends.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace bowstring::testing {

class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("bowstring-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                .string();
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  /// The absolute path of `relative` inside the folder.
  std::string at(std::string_view relative) const { return path_ + "/" + std::string(relative); }
  /// Writes `text` to `relative` (its folders created), returning the file's path.
  std::string write(std::string_view relative, std::string_view text) const {
    const std::string file = at(relative);
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    return file;
  }

 private:
  std::string path_;
};

}  // namespace bowstring::testing
