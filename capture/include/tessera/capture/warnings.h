// The warning records of a capture (records.h, WarningRecord): what the layer met that it could
// not record faithfully. They are written where they happen, so a warning met while a frame was
// being captured belongs to that frame; both `tessera info` and `tessera replay` print them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/capture/reader.h"

namespace tessera::capture {

struct CaptureWarning {
  uint32_t present = 0;  // the frame's present number; 0 for a warning outside every frame
  std::string text;
};

// The warnings outside every frame, then those of the frames whose present number is in
// [first_present, last_present], in file order. Reads no frame when the summary counts no warning
// record. False with *error on damaged records; a warning that does not decode is an error too.
// What was read before the error stays in *out (the global warnings first).
bool read_warnings(const CaptureReader& reader, uint32_t first_present, uint32_t last_present,
                   std::vector<CaptureWarning>* out, std::string* error);

}  // namespace tessera::capture
