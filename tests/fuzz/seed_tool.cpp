// Seed corpora from the project's own captures (tests/fuzz/make_corpus.sh):
//   fuzz_seed_tool streams OUT_DIR CAPTURE...  every frame's access stream, one file each, behind
//                                              the configuration byte fuzz_stream_model reads first
//                                              (the frame's number, so seeds start on different
//                                              configurations)
//   fuzz_seed_tool stored IN OUT               IN rewritten with payloads stored uncompressed in
//                                              small chunks, so that a mutation of fuzz_replay's
//                                              input lands in records rather than in a zstd frame
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/capture/reader.h"
#include "tessera/capture/writer.h"
#include "tessera/frontend/replay.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/access_stream.h"

using namespace tessera;

namespace {

int fail(const std::string& problem) {
  std::fprintf(stderr, "fuzz_seed_tool: %s\n", problem.c_str());
  return 1;
}

int streams(const std::filesystem::path& out, int count, char** captures) {
  for (int a = 0; a < count; ++a) {
    std::string error;
    auto reader = capture::CaptureReader::open(captures[a], &error);
    auto replay = reader ? frontend::CaptureReplay::open(*reader, &error) : nullptr;
    if (!replay) return fail(error);
    stream::StreamWriter writer;
    render::Renderer renderer(&writer, {});
    for (size_t f = 0; f < replay->frame_count(); ++f) {
      frontend::FrameResult result;
      writer.frame_begin(static_cast<uint32_t>(f + 1), 64, 64);
      if (!replay->replay_frame(f, renderer, &result, &error)) return fail(error);
      writer.frame_end();
      const std::vector<uint8_t> stream = writer.finish();
      const std::string name = std::filesystem::path(captures[a]).stem().string() + "-" + std::to_string(f + 1) + ".stream";
      std::ofstream file(out / name, std::ios::binary);
      const char selector = static_cast<char>(f);
      file.write(&selector, 1);
      file.write(reinterpret_cast<const char*>(stream.data()), static_cast<std::streamsize>(stream.size()));
      if (!file) return fail((out / name).string() + ": cannot write");
    }
  }
  return 0;
}

int stored(const std::string& in, const std::string& out) {
  std::string error;
  auto reader = capture::CaptureReader::open(in, &error);
  if (!reader) return fail(error);
  capture::WriterOptions options;
  options.compression_level = 0;
  options.chunk_target_bytes = 16u << 10;
  auto writer = capture::CaptureWriter::open(out, options, &error);
  if (!writer) return fail(error);
  const auto copy = [&](uint32_t kind, std::span<const std::byte> body) {
    writer->write_record(kind, body);
    return true;
  };
  for (const auto& hash : reader->blob_hashes()) {
    const auto bytes = reader->blob(hash, &error);
    if (!bytes) return fail(error);
    writer->put_blob(bytes->data);
  }
  if (!reader->read_global(copy, &error)) return fail(error);
  for (size_t f = 0; f < reader->frames().size(); ++f) {
    writer->begin_frame(reader->frames()[f].present);
    if (!reader->read_frame(f, copy, &error)) return fail(error);
    writer->flush_frame();
  }
  return writer->close() ? 0 : fail(out + ": cannot write");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "streams" && argc >= 4) return streams(argv[2], argc - 3, argv + 3);
  if (mode == "stored" && argc == 4) return stored(argv[2], argv[3]);
  std::fprintf(stderr, "usage: fuzz_seed_tool streams OUT_DIR CAPTURE... | stored IN OUT\n");
  return 2;
}
