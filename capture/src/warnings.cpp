#include "tessera/capture/warnings.h"

#include "tessera/capture/records.h"

namespace tessera::capture {

bool read_warnings(const CaptureReader& reader, uint32_t first_present, uint32_t last_present,
                   std::vector<CaptureWarning>* out, std::string* error) {
  const auto& kinds = reader.summary().records_by_kind;
  if (const auto it = kinds.find(static_cast<uint32_t>(RecordKind::kWarning)); it == kinds.end() || it->second == 0)
    return true;
  uint32_t present = 0;
  std::string problem;
  const RecordVisitor visit = [&](uint32_t kind, std::span<const std::byte> body) {
    if (kind != static_cast<uint32_t>(RecordKind::kWarning)) return true;
    auto rec = decode_record<WarningRecord>(body);
    if (!rec) {
      problem = reader.name() + ": " + (present ? "frame " + std::to_string(present) + ": " : "") +
                "warning record does not decode";
      return false;
    }
    out->push_back({present, std::move(rec->text)});
    return true;
  };
  if (!reader.read_global(visit, error)) return false;
  if (!problem.empty()) {
    *error = problem;
    return false;
  }
  for (size_t i = 0; i < reader.frames().size(); ++i) {
    present = reader.frames()[i].present;
    if (present < first_present || present > last_present) continue;
    if (!reader.read_frame(i, visit, error)) return false;
    if (!problem.empty()) {
      *error = problem;
      return false;
    }
  }
  return true;
}

}  // namespace tessera::capture
