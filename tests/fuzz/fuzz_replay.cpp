// libFuzzer target for the whole path a capture's bytes take to the access stream: the reader
// (open, verify), the front end's rebuild of the device objects from the global records, the
// command walk of the first three frames with its transfers, descriptor resolution and draw state, the
// tile-based renderer (SPIR-V interpretation, texture decoding and sampling, rasterization,
// blending) and the stream writer, then the stream read back into a workload profile. Any input
// must end in a one-line error or a rendered frame, never a crash, hang or sanitizer report.
//
// The container's checksums are recomputed over the input first: a mutated record then reaches
// the front end instead of failing its chunk's checksum (fuzz_capture_reader covers the
// checksums themselves). An input saved from here reproduces in any build, since it is the
// resealed bytes that the reader sees.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "tessera/capture/format.h"
#include "tessera/capture/hash.h"
#include "tessera/capture/reader.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/frontend/replay.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/access_stream.h"
#include "tessera/stream/workload_profile.h"

using namespace tessera;

namespace {
// The replay's memory budget for one input: enough for the seeds' objects and targets, small
// enough that a declared giant is refused (--max-memory's path) long before the fuzzer's own
// RSS limit, and that a mutated render area stays small enough to shade in seconds.
constexpr uint64_t kMaxMemory = uint64_t{64} << 20;
// The shader watchdog, lowered as in fuzz_spirv: a mutated loop bound ends in milliseconds.
constexpr uint64_t kBlockBudget = 4096;
constexpr size_t kFrames = 3;

namespace fmt = capture::format;

uint32_t low32_hash(std::span<const uint8_t> bytes) {
  return static_cast<uint32_t>(capture::hash64(std::as_bytes(bytes)));
}

// Rewrites the file header's, each chunk's and the footer's checksums (capture/format.h) over
// the bytes as they are, walking chunks from the header until one does not parse.
void reseal(std::vector<uint8_t>& file) {
  if (file.size() < sizeof(fmt::FileHeader)) return;
  fmt::FileHeader header;
  std::memcpy(&header, file.data(), sizeof header);
  header.header_hash = low32_hash({file.data(), offsetof(fmt::FileHeader, header_hash)});
  std::memcpy(file.data(), &header, sizeof header);
  uint64_t at = header.header_size < sizeof header ? sizeof header : header.header_size;
  while (at + sizeof(fmt::ChunkHeader) <= file.size()) {
    fmt::ChunkHeader chunk;
    std::memcpy(&chunk, file.data() + at, sizeof chunk);
    if (chunk.magic != fmt::kChunkMagic || chunk.stored_size > file.size() - at - sizeof chunk) break;
    chunk.payload_hash = capture::hash64(std::as_bytes(std::span(file.data() + at + sizeof chunk, chunk.stored_size)));
    std::memcpy(file.data() + at, &chunk, sizeof chunk);
    chunk.header_hash = low32_hash({file.data() + at, offsetof(fmt::ChunkHeader, header_hash)});
    std::memcpy(file.data() + at, &chunk, sizeof chunk);
    at += sizeof chunk + chunk.stored_size;
  }
  if (file.size() >= sizeof(fmt::FileHeader) + sizeof(fmt::Footer)) {
    const size_t footer_at = file.size() - sizeof(fmt::Footer);
    fmt::Footer footer;
    std::memcpy(&footer, file.data() + footer_at, sizeof footer);
    if (footer.magic == fmt::kFooterMagic) {
      footer.footer_hash = low32_hash({file.data() + footer_at, offsetof(fmt::Footer, footer_hash)});
      std::memcpy(file.data() + footer_at, &footer, sizeof footer);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> file(data, data + size);
  reseal(file);
  std::string error;
  auto reader = capture::CaptureReader::open_memory(std::as_bytes(std::span(file)), "fuzz.tcap", &error);
  if (!reader || reader->frames().empty()) return 0;
  frontend::MemoryBudget budget(kMaxMemory);
  auto replay = frontend::CaptureReplay::open(*reader, budget, &error);
  if (!replay) return 0;

  // The first frames, each with its stream read back: a capture taken at submit boundaries
  // holds its uploads alone in frame 1 and draws from frame 2.
  stream::StreamWriter writer;
  render::RenderConfig config;
  config.threads = 1;
  config.budget = &budget;
  config.shader_block_budget = kBlockBudget;
  render::Renderer renderer(&writer, config);
  for (size_t f = 0; f < std::min<size_t>(replay->frame_count(), kFrames); ++f) {
    frontend::FrameResult result;
    writer.frame_begin(static_cast<uint32_t>(f + 1), 64, 64);
    const bool rendered = replay->replay_frame(f, renderer, &result, &error);
    writer.frame_end();
    const std::vector<uint8_t> stream = writer.finish();
    if (!rendered) break;
    stream::WorkloadProfile profile;
    if (!stream::profile_frame(stream, &profile, &error)) __builtin_trap();  // our own stream must read back
  }
  return 0;
}
