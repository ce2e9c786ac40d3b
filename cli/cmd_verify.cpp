// tessera verify FILE: exit 0 only when every chunk, checksum and the trailer are intact.
#include <cstdio>
#include <string>

#include "commands.h"
#include "tessera/capture/reader.h"

namespace tessera::cli {
namespace {

struct VerifyOptions {
  std::string file;
  bool quiet = false;
};

int run_verify(const VerifyOptions& opt) {
  std::string error;
  auto reader = capture::CaptureReader::open(opt.file, &error);
  if (!reader) {
    std::fprintf(stderr, "tessera verify: %s\n", error.c_str());
    return 1;
  }
  std::vector<std::string> notices;
  const std::string problem = reader->verify(&notices);
  for (const auto& n : notices) std::fprintf(stderr, "tessera verify: notice: %s\n", n.c_str());
  if (!problem.empty()) {
    std::fprintf(stderr, "tessera verify: %s\n", problem.c_str());
    return 1;
  }
  if (!opt.quiet) {
    const auto& s = reader->summary();
    std::printf("%s: intact (%zu frames, %llu chunks, %llu records, %llu blobs)\n", opt.file.c_str(),
                reader->frames().size(), static_cast<unsigned long long>(s.chunk_count),
                static_cast<unsigned long long>(s.record_count), static_cast<unsigned long long>(s.blob_count));
  }
  return 0;
}

}  // namespace

void setup_verify(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand("verify", "Check every chunk, checksum and the trailer of a capture file");
  cmd->add_option("file", opt->file, "Capture file (.tcap)")->required();
  cmd->add_flag("-q,--quiet", opt->quiet, "Print nothing when intact");
  cmd->callback([opt, exit_code] { *exit_code = run_verify(*opt); });
}

}  // namespace tessera::cli
