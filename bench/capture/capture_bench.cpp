// Capture library benchmarks: writer throughput (MB/s of raw input, until the file is closed and
// on disk) and compression ratio on texture-like and command-stream-like data; reader time to
// open a file and reach its last frame.
//
//   build/bin/capture_bench                      all
//   build/bin/capture_bench --benchmark_filter=Open
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "scene.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/writer.h"

using namespace tessera;

namespace {

std::string temp_file(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("tessera-bench-") + std::to_string(::getpid()) + "-" + name))
      .string();
}

// Textures as an application uploads them: 1024x1024 RGBA8 natural-image-like with full mips.
const std::vector<std::vector<std::byte>>& textures() {
  static const auto t = [] {
    std::vector<std::vector<std::byte>> out;
    for (uint32_t i = 0; i < 4; ++i) {
      std::vector<std::byte> packed;
      for (auto& mip : synthetic::mip_chain_rgba8(synthetic::natural_image_rgba8(1024, 1024, 100 + i), 1024, 1024)) {
        packed.insert(packed.end(), mip.begin(), mip.end());
      }
      out.push_back(std::move(packed));
    }
    return out;
  }();
  return t;
}

void report(benchmark::State& state, const capture::WriterStats& s, uint64_t raw_input) {
  state.SetBytesProcessed(static_cast<int64_t>(raw_input) * state.iterations());
  state.counters["ratio"] = static_cast<double>(s.raw_bytes) / static_cast<double>(std::max<uint64_t>(1, s.stored_bytes));
  state.counters["file_MiB"] = static_cast<double>(s.file_bytes) / (1 << 20);
}

void BM_WriteTextures(benchmark::State& state) {
  const std::string path = temp_file("tex.tcap");
  uint64_t raw = 0;
  capture::WriterStats stats;
  textures();  // generate outside the timed loop
  for (auto _ : state) {
    capture::WriterOptions o;
    o.compression_level = static_cast<int>(state.range(0));
    auto w = capture::CaptureWriter::open(path, o, nullptr);
    w->begin_frame(1);
    raw = 0;
    for (const auto& t : textures()) {
      w->put_blob(t);
      raw += t.size();
    }
    w->flush_frame();
    w->close();
    stats = w->stats();
  }
  report(state, stats, raw);
  std::filesystem::remove(path);
}
BENCHMARK(BM_WriteTextures)->ArgName("zstd_level")->Arg(-1)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteCommandStream(benchmark::State& state) {
  const std::string path = temp_file("cmd.tcap");
  constexpr uint32_t kFrames = 20, kDraws = 2000;
  std::vector<std::vector<std::vector<std::byte>>> frames;
  uint64_t raw = 0;
  for (uint32_t f = 1; f <= kFrames; ++f) {
    frames.push_back(synthetic::command_stream_records(f, kDraws, 7));
    for (const auto& r : frames.back()) raw += r.size() + 8;
  }
  capture::WriterStats stats;
  for (auto _ : state) {
    capture::WriterOptions o;
    o.compression_level = static_cast<int>(state.range(0));
    auto w = capture::CaptureWriter::open(path, o, nullptr);
    for (uint32_t f = 0; f < kFrames; ++f) {
      w->begin_frame(f + 1);
      for (const auto& r : frames[f]) w->write_record(synthetic::kSyntheticCommandKind, r);
      w->flush_frame();
    }
    w->close();
    stats = w->stats();
  }
  report(state, stats, raw);
  state.counters["records_per_s"] = benchmark::Counter(static_cast<double>(kFrames * kDraws) * static_cast<double>(state.iterations()),
                                                       benchmark::Counter::kIsRate);
  std::filesystem::remove(path);
}
BENCHMARK(BM_WriteCommandStream)->ArgName("zstd_level")->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond)->UseRealTime();

// A long capture: 2000 frames; open it and read the last frame's records.
void BM_OpenAndSeekLastFrame(benchmark::State& state) {
  const std::string path = temp_file("seek.tcap");
  {
    auto w = capture::CaptureWriter::open(path, {}, nullptr);
    for (uint32_t f = 1; f <= 2000; ++f) {
      w->begin_frame(f);
      for (const auto& r : synthetic::command_stream_records(f, 50, 3)) w->write_record(synthetic::kSyntheticCommandKind, r);
      w->put_blob(synthetic::natural_image_rgba8(16, 16, f));
      w->flush_frame();
    }
    w->close();
  }
  size_t records = 0;
  for (auto _ : state) {
    std::string error;
    auto r = capture::CaptureReader::open(path, &error);
    records = 0;
    r->read_frame(r->frames().size() - 1, [&](uint32_t, std::span<const std::byte>) { ++records; return true; }, &error);
    benchmark::DoNotOptimize(records);
  }
  state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
  state.counters["records"] = static_cast<double>(records);
  std::filesystem::remove(path);
}
BENCHMARK(BM_OpenAndSeekLastFrame)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
