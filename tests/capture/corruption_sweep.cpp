// Corruption sweep: truncates a real capture file at, and flips a byte at, N positions each, and
// requires every damaged copy to be read to a clean error (or a clean success) with no crash and
// no sanitizer report. Every byte of a capture is covered by a checksum, so each flip must be
// detected and each truncation reported.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "scene.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"

using namespace tessera;

namespace {

// Everything a consumer would do with a file: open, verify, read every frame, global record
// and blob, and decode the records it knows. Returns the verify/open problem ("" if none).
std::string exercise(std::span<const std::byte> bytes) {
  std::string error;
  auto r = capture::CaptureReader::open_memory(bytes, "sweep.tcap", &error);
  if (!r) return error;
  const std::string problem = r->verify();
  auto visit = [](uint32_t kind, std::span<const std::byte> body) {
    if (kind == static_cast<uint32_t>(capture::RecordKind::kImage)) (void)capture::decode_record<capture::ImageRecord>(body);
    if (kind == static_cast<uint32_t>(capture::RecordKind::kCaptureInfo)) (void)capture::decode_record<capture::CaptureInfoRecord>(body);
    return true;
  };
  for (size_t i = 0; i < r->frames().size(); ++i) r->read_frame(i, visit, &error);
  r->read_global(visit, &error);
  for (const auto& h : r->blob_hashes()) (void)r->blob(h, &error);
  return problem.empty() ? "" : problem;
}

}  // namespace

int main(int argc, char** argv) {
  size_t positions = 10000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--positions") positions = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/tessera-sweep-" + std::to_string(::getpid()) + ".tcap";
  synthetic::SceneOptions scene;
  scene.frames = 3;
  scene.textures = 3;
  scene.texture_size = 32;
  scene.width = 64;
  scene.height = 32;
  capture::WriterOptions wo;
  wo.chunk_target_bytes = 8192;  // many chunks, so positions land in every structure
  if (auto e = synthetic::write_scene_file(path, scene, wo); !e.empty()) {
    std::fprintf(stderr, "corruption_sweep: %s\n", e.c_str());
    return 1;
  }
  std::vector<std::byte> good;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fseek(f, 0, SEEK_END);
    good.resize(static_cast<size_t>(std::ftell(f)));
    std::fseek(f, 0, SEEK_SET);
    if (std::fread(good.data(), 1, good.size(), f) != good.size()) good.clear();
    std::fclose(f);
  }
  std::remove(path.c_str());
  if (good.empty() || !exercise(good).empty()) {
    std::fprintf(stderr, "corruption_sweep: the undamaged capture does not verify\n");
    return 1;
  }

  std::mt19937_64 rng(20261123);
  size_t undetected_flips = 0, unreported_truncations = 0;
  for (size_t i = 0; i < positions; ++i) {
    // Truncation: points spread over the whole file (every length when positions >= size).
    const size_t cut = positions >= good.size() ? i % good.size() : i * good.size() / positions;
    if (exercise(std::span(good).first(cut)).empty()) ++unreported_truncations;
    // Flip: sweep positions in order while they last, then random ones.
    std::vector<std::byte> damaged = good;
    const size_t at = i < good.size() ? (i * 7919) % good.size() : rng() % good.size();
    damaged[at] ^= static_cast<std::byte>(1u + rng() % 255u);
    if (exercise(damaged).empty()) ++undetected_flips;
  }
  std::printf("corruption_sweep: file %zu bytes, %zu truncations, %zu flips: %zu undetected flips, "
              "%zu unreported truncations\n",
              good.size(), positions, positions, undetected_flips, unreported_truncations);
  return undetected_flips == 0 && unreported_truncations == 0 ? 0 : 1;
}
