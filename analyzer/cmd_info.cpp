// tessera info FILE: what a capture holds, read through its trailer (or recovered without it).
#include <cstdio>
#include <string>

#include "commands.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"

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
        } else if (kind == static_cast<uint32_t>(capture::RecordKind::kWarning)) {
          if (auto rec = capture::decode_record<capture::WarningRecord>(body)) {
            std::printf("warning         %s\n", rec->text.c_str());
          }
        }
        return true;
      },
      &read_error);
  if (!hidden.empty()) std::printf("hidden from app %s\n", hidden.c_str());
  if (!read_error.empty()) {
    std::fprintf(stderr, "tessera info: %s\n", read_error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

void setup_info(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<InfoOptions>();
  auto* cmd = app.add_subcommand("info", "Summarise a capture file: frames, records by kind, blobs, compression");
  cmd->add_option("file", opt->file, "Capture file (.tcap)")->required();
  cmd->callback([opt, exit_code] { *exit_code = run_info(*opt); });
}

}  // namespace tessera::cli
