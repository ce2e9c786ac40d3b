// libFuzzer target for what reads an access stream: the decoder (StreamReader), the workload
// profile, the frame index and the GPU model of every configuration `--schemes all` runs (each
// scheme's hooks see the stream through the model). A stream is the replay's own output, but a
// model fed a damaged one must still stop with one line, never crash, hang or read out of bounds.
//
// Input: byte 0 picks the configuration, the rest is one frame's stream.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"
#include "tessera/stream/workload_profile.h"

using namespace tessera;

namespace {

// One model per configuration, made once (a model's caches are large to build) and reset
// before each input, so an input's verdict does not depend on the inputs before it.
struct Models {
  std::vector<std::unique_ptr<model::GpuModel>> models;
  Models() {
    for (const std::string& spec : model::scheme_specs({"all"}, {}))
      models.push_back(model::parse_configuration(spec).make_model());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static Models all;
  const std::span<const uint8_t> stream(data + 1, size - 1);

  stream::StreamReader reader(stream);
  stream::Event event;
  while (reader.next(event)) {
  }
  std::string error;
  stream::WorkloadProfile profile;
  (void)stream::profile_frame(stream, &profile, &error);

  const auto frame = model::IndexedFrame::build(stream, &error);
  if (!frame) return 0;
  model::GpuModel& m = *all.models[data[0] % all.models.size()];
  m.reset();
  model::FrameResults results;
  (void)m.run(*frame, results, &error);
  return 0;
}
