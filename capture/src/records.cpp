#include "tessera/capture/records.h"

#include "tessera/capture/vk_records.h"

namespace tessera::capture {

const char* record_kind_name(uint32_t kind) {
  switch (static_cast<RecordKind>(kind)) {
    case RecordKind::kCaptureInfo: return "capture_info";
    case RecordKind::kWarning: return "warning";
    case RecordKind::kDeviceInfo: return "device_info";
    case RecordKind::kHiddenExtension: return "hidden_extension";
    case RecordKind::kImage: return "image";
    case RecordKind::kBuffer: return "buffer";
    case RecordKind::kShaderModule: return "shader_module";
    case RecordKind::kPresentedImage: return "presented_image";
  }
  return vk_record_kind_name(kind);
}

const std::string* CaptureInfoRecord::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

}  // namespace tessera::capture
