// libFuzzer target for the capture reader: any byte string must lead to a clean error or a clean
// read, never a crash, hang or sanitizer report. Exercises everything a consumer does with a
// file: open (trailer or recovery scan), verify, every frame, global records, every blob, and
// the record decoders.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"

using namespace tessera::capture;

namespace {

bool decode_known(uint32_t kind, std::span<const std::byte> body) {
  switch (static_cast<RecordKind>(kind)) {
    case RecordKind::kCaptureInfo: (void)decode_record<CaptureInfoRecord>(body); break;
    case RecordKind::kWarning: (void)decode_record<WarningRecord>(body); break;
    case RecordKind::kDeviceInfo: (void)decode_record<DeviceInfoRecord>(body); break;
    case RecordKind::kHiddenExtension: (void)decode_record<HiddenExtensionRecord>(body); break;
    case RecordKind::kImage: (void)decode_record<ImageRecord>(body); break;
    case RecordKind::kBuffer: (void)decode_record<BufferRecord>(body); break;
    case RecordKind::kShaderModule: (void)decode_record<ShaderModuleRecord>(body); break;
    case RecordKind::kPresentedImage: (void)decode_record<PresentedImageRecord>(body); break;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  std::string error;
  auto reader = CaptureReader::open_memory(bytes, "fuzz.tcap", &error);
  if (!reader) return 0;
  (void)reader->verify();
  for (size_t i = 0; i < reader->frames().size(); ++i) reader->read_frame(i, decode_known, &error);
  reader->read_global(decode_known, &error);
  for (const auto& h : reader->blob_hashes()) (void)reader->blob(h, &error);
  // Record decoders also straight on the raw input: they face whatever a chunk holds.
  for (uint32_t kind : {0x0001u, 0x0002u, 0x0003u, 0x0004u, 0x0100u, 0x0101u, 0x0102u, 0x0200u}) decode_known(kind, bytes);
  return 0;
}
