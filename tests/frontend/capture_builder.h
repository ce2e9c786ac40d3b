// Builds small capture files for the front-end tests with the capture writer, the way the layer
// writes them: object records (global, or inside a frame), then per submit a SubmitRecord, a
// CommandBufferRecord with its command count and the commands. Plus a PassRenderer test double
// that keeps a copy of every pass and dispatch it is handed.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../capture/test_util.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/capture/writer.h"
#include "tessera/frontend/replay.h"

namespace tessera::frontend::testing {

namespace cap = tessera::capture;

inline uint32_t fbits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// One copy region of one layer: source box (sx0, sy0)-(sx1, sy1) to destination box
// (dx0, dy0)-(dx1, dy1), depth 1.
inline cap::CopyRegion box(int32_t sx0, int32_t sy0, int32_t sx1, int32_t sy1, int32_t dx0, int32_t dy0,
                           int32_t dx1, int32_t dy1, uint32_t aspect = VK_IMAGE_ASPECT_COLOR_BIT) {
  cap::CopyRegion r;
  r.src_aspect = r.dst_aspect = aspect;
  r.src_layer_count = r.dst_layer_count = 1;
  r.src_x0 = sx0, r.src_y0 = sy0, r.src_x1 = sx1, r.src_y1 = sy1, r.src_z1 = 1;
  r.dst_x0 = dx0, r.dst_y0 = dy0, r.dst_x1 = dx1, r.dst_y1 = dy1, r.dst_z1 = 1;
  return r;
}

class CaptureBuilder {
 public:
  CaptureBuilder() : path_("frontend.tcap") {
    std::string error;
    cap::WriterOptions options;
    options.compression_level = 0;
    writer_ = cap::CaptureWriter::open(path_.str(), options, &error);
    EXPECT_NE(writer_, nullptr) << error;
  }

  template <typename R>
  void object(const R& rec) {
    writer_->write(rec);
  }
  void raw(uint32_t kind, const std::vector<std::byte>& body) { writer_->write_record(kind, body); }
  cap::Hash128 blob(const void* data, size_t n) {
    return writer_->put_blob({static_cast<const std::byte*>(data), n});
  }
  template <typename T>
  cap::Hash128 blob(const std::vector<T>& v) {
    return blob(v.data(), v.size() * sizeof(T));
  }

  void begin_frame(uint32_t present) {
    writer_->begin_frame(present);
    writer_->write(cap::FrameBoundaryRecord{present, 1});
    present_ = present;
  }
  void end_frame() {
    writer_->write(cap::FrameBoundaryRecord{present_, 0});
    writer_->flush_frame();
  }

  // Commands of one command buffer, written at submit().
  template <typename R>
  void cmd(const R& rec) {
    cap::ByteWriter w;
    encode(w, rec);
    commands_.emplace_back(cap::kind_of<R>(), w.take());
  }
  void cmd_raw(uint32_t kind, std::vector<std::byte> body) {
    commands_.emplace_back(kind, std::move(body));
  }
  // Writes the pending commands as one primary command buffer of one submit.
  void submit(uint64_t cb = 0xc0) {
    writer_->write(cap::SubmitRecord{0x9, {cb}});
    write_command_buffer(cb, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  }
  // Writes the pending commands as a command buffer record of `level` (no submit record):
  // secondaries go inline after their CmdExecuteCommandsRecord.
  void write_command_buffer(uint64_t cb, uint32_t level) {
    writer_->write(cap::CommandBufferRecord{cb, level, commands_.size()});
    for (auto& [kind, body] : commands_) writer_->write_record(kind, body);
    commands_.clear();
  }

  std::unique_ptr<cap::CaptureReader> finish() {
    writer_->close();
    std::string error;
    auto r = cap::CaptureReader::open(path_.str(), &error);
    EXPECT_NE(r, nullptr) << error;
    return r;
  }
  const std::string& path() const { return path_.str(); }

 private:
  tessera::testing::TempPath path_;
  std::unique_ptr<cap::CaptureWriter> writer_;
  std::vector<std::pair<uint32_t, std::vector<std::byte>>> commands_;
  uint32_t present_ = 0;
};

// Keeps a copy of every pass and dispatch; pointers inside stay valid while the replay lives.
class RecordingRenderer : public PassRenderer {
 public:
  void render_pass(const RenderPassInstance& pass, SkipCounts&) override {
    passes.push_back(pass);
  }
  void dispatch(const Dispatch& d, SkipCounts&) override { dispatches.push_back(d); }
  std::vector<RenderPassInstance> passes;
  std::vector<Dispatch> dispatches;
  std::vector<const Draw*> draws() const {
    std::vector<const Draw*> out;
    for (const auto& p : passes) {
      for (const auto& c : p.commands) {
        if (const auto* d = std::get_if<Draw>(&c)) out.push_back(d);
      }
    }
    return out;
  }
};

inline uint64_t skipped(const FrameResult& r, const std::string& reason) {
  for (const auto& [k, n] : r.skipped.reasons) {
    if (k == reason) return n;
  }
  return 0;
}

inline std::string reasons(const FrameResult& r) {
  std::string s;
  for (const auto& [k, n] : r.skipped.reasons) s += k + " x" + std::to_string(n) + "; ";
  return s;
}

// Shader module blob: the front end hands words on without parsing them.
inline std::vector<uint32_t> fake_spirv(uint32_t tag) { return {0x07230203u, 0x00010000u, tag, 1, 0}; }

struct Replayed {
  std::unique_ptr<cap::CaptureReader> reader;
  std::unique_ptr<CaptureReplay> replay;
  RecordingRenderer renderer;
  FrameResult result;
};

// Opens the built capture and replays frame 0.
inline std::unique_ptr<Replayed> replay(CaptureBuilder& b) {
  auto r = std::make_unique<Replayed>();
  r->reader = b.finish();
  std::string error;
  r->replay = CaptureReplay::open(*r->reader, &error);
  EXPECT_NE(r->replay, nullptr) << error;
  if (!r->replay) return r;
  EXPECT_TRUE(r->replay->replay_frame(0, r->renderer, &r->result, &error)) << error;
  return r;
}

}  // namespace tessera::frontend::testing
