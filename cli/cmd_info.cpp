// tessera info FILE: what a capture holds, read through its trailer (or recovered without it).
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "commands.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/capture/warnings.h"

namespace tessera::cli {
namespace {

struct InfoOptions {
  std::string file;
};

std::string human_bytes(uint64_t n) {
  char buf[32];
  if (n >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(n) / (1ull << 30));
  } else if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(n) / (1ull << 20));
  } else if (n >= 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024);
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(n));
  }
  return buf;
}

// What kind of data a blob holds, by the records that reference it. A blob is stored once
// however many records name it, and the same bytes can be both (on a driver whose image memory is
// host-visible, an image's readback equals its memory snapshot): the kind listed first here
// wins, so replay inputs come before frame outputs and a blob counted as an output is one that
// replay never reads.
enum class BlobKind { kTextures, kBuffers, kShaders, kPresentedImages, kRenderTargets, kPassContents, kUnreferenced };
constexpr const char* kBlobKindNames[] = {"textures", "buffers", "shaders", "presented images",
                                          "render-target contents", "render-pass contents", "unreferenced"};

std::unordered_map<capture::Hash128, BlobKind> classify_blobs(const capture::CaptureReader& reader,
                                                              std::string* error) {
  using capture::RecordKind;
  using capture::VkRecordKind;
  std::unordered_map<capture::Hash128, BlobKind> kinds;
  auto note = [&kinds](const capture::Hash128& h, BlobKind k) {
    if (h == capture::Hash128{}) return;
    auto [it, inserted] = kinds.emplace(h, k);
    if (!inserted && k < it->second) it->second = k;
  };
  const capture::RecordVisitor visit = [&](uint32_t kind, std::span<const std::byte> body) {
    switch (kind) {
      case static_cast<uint32_t>(RecordKind::kImage):
        if (auto r = capture::decode_record<capture::ImageRecord>(body)) note(r->contents, BlobKind::kTextures);
        break;
      case static_cast<uint32_t>(RecordKind::kBuffer):
        if (auto r = capture::decode_record<capture::BufferRecord>(body)) note(r->contents, BlobKind::kBuffers);
        break;
      case static_cast<uint32_t>(VkRecordKind::kMemoryContents):
        if (auto r = capture::decode_record<capture::MemoryContentsRecord>(body)) note(r->contents, BlobKind::kBuffers);
        break;
      case static_cast<uint32_t>(RecordKind::kShaderModule):
        if (auto r = capture::decode_record<capture::ShaderModuleRecord>(body)) note(r->code, BlobKind::kShaders);
        break;
      case static_cast<uint32_t>(RecordKind::kPresentedImage):
        if (auto r = capture::decode_record<capture::PresentedImageRecord>(body)) note(r->pixels, BlobKind::kPresentedImages);
        break;
      case static_cast<uint32_t>(VkRecordKind::kRenderTargetContents):
        if (auto r = capture::decode_record<capture::RenderTargetContentsRecord>(body)) note(r->contents, BlobKind::kRenderTargets);
        break;
      case static_cast<uint32_t>(VkRecordKind::kRenderPassContents):
        if (auto r = capture::decode_record<capture::RenderPassContentsRecord>(body)) note(r->contents, BlobKind::kPassContents);
        break;
      default:
        break;
    }
    return true;
  };
  if (!reader.read_global(visit, error)) return kinds;
  for (size_t i = 0; i < reader.frames().size(); ++i) {
    if (!reader.read_frame(i, visit, error)) return kinds;
  }
  return kinds;
}

// Stored bytes per record kind and per blob kind, so capture sizes compare on equal terms with
// other tools' (which keep no presented images or render-target contents).
bool print_storage(const capture::CaptureReader& reader) {
  std::string error;
  capture::StorageBreakdown b;
  const auto kinds = classify_blobs(reader, &error);
  if (!error.empty() || !reader.storage_breakdown(&b, &error)) {
    std::fprintf(stderr, "tessera info: %s\n", error.c_str());
    return false;
  }
  auto row = [](const std::string& name, uint64_t count, uint64_t raw, double stored) {
    std::printf("  %-26s %10llu %14llu %14.0f\n", name.c_str(), static_cast<unsigned long long>(count),
                static_cast<unsigned long long>(raw), stored);
  };
  std::printf("stored by record kind          count      raw bytes   stored bytes\n");
  for (const auto& [kind, share] : b.records_by_kind) {
    const char* name = capture::record_kind_name(kind);
    char unknown[32];
    std::snprintf(unknown, sizeof unknown, "kind 0x%08x", kind);
    row(name != nullptr ? name : unknown, share.count, share.raw_bytes, share.stored_bytes);
  }
  constexpr size_t kKinds = std::size(kBlobKindNames);
  capture::StorageShare per_kind[kKinds];
  for (const auto& [hash, share] : b.blobs) {
    auto it = kinds.find(hash);
    auto& k = per_kind[static_cast<size_t>(it == kinds.end() ? BlobKind::kUnreferenced : it->second)];
    k.count += 1;
    k.raw_bytes += share.raw_bytes;
    k.stored_bytes += share.stored_bytes;
  }
  std::printf("stored by blob kind            blobs      raw bytes   stored bytes\n");
  for (size_t i = 0; i < kKinds; ++i) row(kBlobKindNames[i], per_kind[i].count, per_kind[i].raw_bytes, per_kind[i].stored_bytes);
  std::printf("  %-26s %10s %14s %14.0f\n", "headers, index, footer", "", "", b.overhead_bytes);
  const double outputs = per_kind[static_cast<size_t>(BlobKind::kPresentedImages)].stored_bytes +
                         per_kind[static_cast<size_t>(BlobKind::kRenderTargets)].stored_bytes +
                         per_kind[static_cast<size_t>(BlobKind::kPassContents)].stored_bytes;
  std::printf("without outputs %.0f bytes (file less presented images, render-target and render-pass contents)\n",
              static_cast<double>(reader.summary().file_bytes) - outputs);
  return true;
}

int run_info(const InfoOptions& opt) {
  std::string error;
  auto reader = capture::CaptureReader::open(opt.file, &error);
  if (!reader) {
    std::fprintf(stderr, "tessera info: %s\n", error.c_str());
    return 1;
  }
  const auto& s = reader->summary();
  std::printf("file            %s\n", opt.file.c_str());
  std::printf("format          %u.%u\n", s.major, s.minor);
  std::printf("size            %s (%llu bytes)\n", human_bytes(s.file_bytes).c_str(),
              static_cast<unsigned long long>(s.file_bytes));
  std::printf("trailer         %s\n", s.has_trailer ? "present" : "missing (recovered by scanning)");
  if (!reader->recovery_reason().empty()) std::printf("recovery        %s\n", reader->recovery_reason().c_str());
  const auto& frames = reader->frames();
  std::printf("frames          %zu", frames.size());
  if (!frames.empty()) std::printf(" (presents %u-%u)", frames.front().present, frames.back().present);
  std::printf("\nchunks          %llu\n", static_cast<unsigned long long>(s.chunk_count));
  std::printf("records         %llu\n", static_cast<unsigned long long>(s.record_count));
  for (const auto& [kind, count] : s.records_by_kind) {
    const char* name = capture::record_kind_name(kind);
    if (name != nullptr) {
      std::printf("  %-26s %llu\n", name, static_cast<unsigned long long>(count));
    } else {
      std::printf("  %s 0x%08x %llu\n", kind >= 0xFFFF0000u ? "test kind   " : "unknown kind", kind,
                  static_cast<unsigned long long>(count));
    }
  }
  std::printf("blobs           %llu unique, %s\n", static_cast<unsigned long long>(s.blob_count),
              human_bytes(s.blob_bytes).c_str());
  const double ratio = s.stored_bytes ? static_cast<double>(s.raw_bytes) / static_cast<double>(s.stored_bytes) : 0.0;
  std::printf("payload         %s raw, %s stored, ratio %.2f\n", human_bytes(s.raw_bytes).c_str(),
              human_bytes(s.stored_bytes).c_str(), ratio);

  // Session metadata and warnings live in the global records.
  std::string read_error;
  std::string hidden;
  reader->read_global(
      [&hidden](uint32_t kind, std::span<const std::byte> body) {
        if (kind == static_cast<uint32_t>(capture::RecordKind::kCaptureInfo)) {
          if (auto rec = capture::decode_record<capture::CaptureInfoRecord>(body)) {
            for (const auto& [k, v] : rec->entries) std::printf("info            %s = %s\n", k.c_str(), v.c_str());
          }
        } else if (kind == static_cast<uint32_t>(capture::RecordKind::kDeviceInfo)) {
          if (auto rec = capture::decode_record<capture::DeviceInfoRecord>(body)) {
            std::printf("device          %s", rec->device_name.c_str());
            if (!rec->driver_name.empty()) std::printf(" (driver %s %s)", rec->driver_name.c_str(), rec->driver_info.c_str());
            std::printf("\n");
          }
        } else if (kind == static_cast<uint32_t>(capture::RecordKind::kHiddenExtension)) {
          if (auto rec = capture::decode_record<capture::HiddenExtensionRecord>(body)) {
            hidden += (hidden.empty() ? "" : " ") + rec->name;
          }
        }
        return true;
      },
      &read_error);
  if (!hidden.empty()) std::printf("hidden from app %s\n", hidden.c_str());
  // Every warning, those written while a frame was captured with the frame's present number;
  // on a damaged frame, those read before it (the global ones first) and then the error.
  std::vector<capture::CaptureWarning> warnings;
  if (read_error.empty()) capture::read_warnings(*reader, 0, UINT32_MAX, &warnings, &read_error);
  for (const capture::CaptureWarning& w : warnings) {
    if (w.present != 0) std::printf("warning         frame %u: %s\n", w.present, w.text.c_str());
    else std::printf("warning         %s\n", w.text.c_str());
  }
  if (!read_error.empty()) {
    std::fprintf(stderr, "tessera info: %s\n", read_error.c_str());
    return 1;
  }
  return print_storage(*reader) ? 0 : 1;
}

}  // namespace

void setup_info(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<InfoOptions>();
  auto* cmd = app.add_subcommand("info", "Summarise a capture file: frames, records by kind, blobs, compression");
  cmd->add_option("file", opt->file, "Capture file (.tcap)")->required();
  cmd->callback([opt, exit_code] { *exit_code = run_info(*opt); });
}

}  // namespace tessera::cli
