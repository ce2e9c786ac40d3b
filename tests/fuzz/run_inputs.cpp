// Runs a fuzz target's entry point over saved inputs outside libFuzzer, so that every build (the
// release and sanitizer stages too, not only the clang fuzz build) replays the inputs that once
// crashed a target: run_inputs FILE_OR_DIR... Prints how many inputs ran; a crash fails it.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", path.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("%s (%zu bytes)\n", path.c_str(), bytes.size());
  std::fflush(stdout);  // the input a crash happened on is the last one printed
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t ran = 0;
  for (int a = 1; a < argc; ++a) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(argv[a])) {
      for (const auto& e : std::filesystem::directory_iterator(argv[a]))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.emplace_back(argv[a]);
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      if (!run_file(f)) return 1;
      ++ran;
    }
  }
  std::printf("%zu inputs ran\n", ran);
  return ran == 0 ? 1 : 0;
}
