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

void encode(ByteWriter& w, const CaptureInfoRecord& r) {
  w.put_varint(r.entries.size());
  for (const auto& [k, v] : r.entries) {
    w.put_string(k);
    w.put_string(v);
  }
}

bool decode(ByteReader& r, CaptureInfoRecord& out) {
  const uint64_t n = r.get_count(2);  // two empty strings at least
  out.entries.clear();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    std::string k = r.get_string();
    std::string v = r.get_string();
    out.entries.emplace_back(std::move(k), std::move(v));
  }
  return r.ok();
}

void encode(ByteWriter& w, const WarningRecord& r) { w.put_string(r.text); }
bool decode(ByteReader& r, WarningRecord& out) {
  out.text = r.get_string();
  return r.ok();
}

void encode(ByteWriter& w, const DeviceInfoRecord& r) {
  w.put(r.api_version);
  w.put(r.driver_version);
  w.put(r.vendor_id);
  w.put(r.device_id);
  w.put(r.device_type);
  w.put(r.driver_id);
  w.put_string(r.device_name);
  w.put_string(r.driver_name);
  w.put_string(r.driver_info);
  w.put_varint(r.memory_heaps.size());
  for (const auto& h : r.memory_heaps) {
    w.put(h.size);
    w.put(h.flags);
  }
  w.put_varint(r.memory_types.size());
  for (const auto& t : r.memory_types) {
    w.put(t.heap_index);
    w.put(t.property_flags);
  }
  if (r.has_limits == 0) return;  // written by 1.0 writers this way: no limits
  w.put(r.has_limits);
  const auto& l = r.limits;
  w.put(l.point_size_range[0]);
  w.put(l.point_size_range[1]);
  w.put(l.point_size_granularity);
  w.put(l.line_width_range[0]);
  w.put(l.line_width_range[1]);
  w.put(l.line_width_granularity);
  w.put(l.strict_lines);
  w.put(l.standard_sample_locations);
  w.put(l.framebuffer_color_sample_counts);
  w.put(l.point_clipping_behavior);
}

bool decode(ByteReader& r, DeviceInfoRecord& out) {
  out.api_version = r.get<uint32_t>();
  out.driver_version = r.get<uint32_t>();
  out.vendor_id = r.get<uint32_t>();
  out.device_id = r.get<uint32_t>();
  out.device_type = r.get<uint32_t>();
  out.driver_id = r.get<uint32_t>();
  out.device_name = r.get_string();
  out.driver_name = r.get_string();
  out.driver_info = r.get_string();
  out.memory_heaps.resize(r.get_count(12));
  for (auto& h : out.memory_heaps) {
    h.size = r.get<uint64_t>();
    h.flags = r.get<uint32_t>();
  }
  out.memory_types.resize(r.get_count(8));
  for (auto& t : out.memory_types) {
    t.heap_index = r.get<uint32_t>();
    t.property_flags = r.get<uint32_t>();
  }
  // Format 1.1 appends the limits; a 1.0 body ends here.
  if (!r.ok() || r.at_end()) return r.ok();
  out.has_limits = r.get<uint32_t>();
  auto& l = out.limits;
  l.point_size_range[0] = r.get<float>();
  l.point_size_range[1] = r.get<float>();
  l.point_size_granularity = r.get<float>();
  l.line_width_range[0] = r.get<float>();
  l.line_width_range[1] = r.get<float>();
  l.line_width_granularity = r.get<float>();
  l.strict_lines = r.get<uint32_t>();
  l.standard_sample_locations = r.get<uint32_t>();
  l.framebuffer_color_sample_counts = r.get<uint32_t>();
  l.point_clipping_behavior = r.get<uint32_t>();
  return r.ok();
}

void encode(ByteWriter& w, const HiddenExtensionRecord& r) {
  w.put_string(r.name);
  w.put(r.spec_version);
}
bool decode(ByteReader& r, HiddenExtensionRecord& out) {
  out.name = r.get_string();
  out.spec_version = r.get<uint32_t>();
  return r.ok();
}

void encode(ByteWriter& w, const ImageRecord& r) {
  w.put(r.image);
  w.put(r.image_type);
  w.put(r.format);
  w.put(r.width);
  w.put(r.height);
  w.put(r.depth);
  w.put(r.mip_levels);
  w.put(r.array_layers);
  w.put(r.samples);
  w.put(r.usage);
  w.put(r.layout);
  w.put_varint(r.subresources.size());
  for (const auto& s : r.subresources) {
    w.put(s.mip);
    w.put(s.layer);
    w.put(s.offset);
    w.put(s.size);
    w.put(s.aspect);
  }
  w.put_hash(r.contents);
}

bool decode(ByteReader& r, ImageRecord& out) {
  out.image = r.get<uint64_t>();
  out.image_type = r.get<uint32_t>();
  out.format = r.get<uint32_t>();
  out.width = r.get<uint32_t>();
  out.height = r.get<uint32_t>();
  out.depth = r.get<uint32_t>();
  out.mip_levels = r.get<uint32_t>();
  out.array_layers = r.get<uint32_t>();
  out.samples = r.get<uint32_t>();
  out.usage = r.get<uint32_t>();
  out.layout = r.get<uint32_t>();
  out.subresources.resize(r.get_count(28));
  for (auto& s : out.subresources) {
    s.mip = r.get<uint32_t>();
    s.layer = r.get<uint32_t>();
    s.offset = r.get<uint64_t>();
    s.size = r.get<uint64_t>();
    s.aspect = r.get<uint32_t>();
    // A subresource must lie inside a blob the size of the address space: reject wrap-around.
    if (s.offset + s.size < s.offset) r.fail();
  }
  out.contents = r.get_hash();
  return r.ok();
}

void encode(ByteWriter& w, const BufferRecord& r) {
  w.put(r.buffer);
  w.put(r.size);
  w.put(r.usage);
  w.put_hash(r.contents);
}
bool decode(ByteReader& r, BufferRecord& out) {
  out.buffer = r.get<uint64_t>();
  out.size = r.get<uint64_t>();
  out.usage = r.get<uint32_t>();
  out.contents = r.get_hash();
  return r.ok();
}

void encode(ByteWriter& w, const ShaderModuleRecord& r) {
  w.put(r.module);
  w.put_hash(r.code);
  w.put(r.code_size);
}
bool decode(ByteReader& r, ShaderModuleRecord& out) {
  out.module = r.get<uint64_t>();
  out.code = r.get_hash();
  out.code_size = r.get<uint64_t>();
  return r.ok();
}

void encode(ByteWriter& w, const PresentedImageRecord& r) {
  w.put(r.swapchain);
  w.put(r.image_index);
  w.put(r.format);
  w.put(r.width);
  w.put(r.height);
  w.put_hash(r.pixels);
}
bool decode(ByteReader& r, PresentedImageRecord& out) {
  out.swapchain = r.get<uint64_t>();
  out.image_index = r.get<uint32_t>();
  out.format = r.get<uint32_t>();
  out.width = r.get<uint32_t>();
  out.height = r.get<uint32_t>();
  out.pixels = r.get_hash();
  return r.ok();
}

}  // namespace tessera::capture
