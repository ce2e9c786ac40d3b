// run_study: the functional replay shades each frame once per tile size, and every configuration
// of that tile size simulates the frame's access stream (study.h).
#include "tessera/study/study.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "image_compare.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/stream/access_stream.h"

namespace tessera::study {

namespace {

// One rendering of the capture per tile size (gpu.tile_width x gpu.tile_height): the renderer
// tiles the frame and records the stream with it. Each pass replays the capture from its start
// (its own objects and images), so any number of tile sizes serve one study.
struct ShadingPass {
  uint32_t tile_width = 32, tile_height = 32;
  std::unique_ptr<frontend::CaptureReplay> replay;
  stream::StreamWriter writer;
  std::unique_ptr<render::Renderer> renderer;
  std::vector<size_t> configs;  // indices into the study's configurations
};

// Size of the image the frame presented (the FrameBegin event carries it), read from the frame's
// PresentedImage record before the frame is replayed; 0 x 0 when the capture has none.
std::pair<uint32_t, uint32_t> presented_size(const capture::CaptureReader& reader, size_t frame) {
  std::pair<uint32_t, uint32_t> size{0, 0};
  std::string error;
  reader.read_frame(
      frame,
      [&](uint32_t kind, std::span<const std::byte> body) {
        if (kind != static_cast<uint32_t>(capture::RecordKind::kPresentedImage)) return true;
        if (auto p = capture::decode_record<capture::PresentedImageRecord>(body)) size = {p->width, p->height};
        return false;
      },
      &error);
  return size;
}

// Compares the replayed swapchain image with the presented pixels, and hands both to the sink.
void compare_presented(frontend::CaptureReplay& replay, const frontend::PresentedImage& presented, Sink& sink,
                       FrameOutcome* out) {
  const frontend::Image* image = replay.find_image(presented.swapchain_image);
  if (image == nullptr || !image->defined || image->planes.empty()) {
    out->compare_note = "presented image was not rendered by the replay";
    return;
  }
  std::string error;
  std::vector<uint8_t> replayed, reference;
  if (presented.mip >= image->mip_levels || presented.layer >= image->array_layers) {
    out->compare_note = "the replayed image has no mip " + std::to_string(presented.mip) + ", layer " +
                        std::to_string(presented.layer);
    return;
  }
  const uint32_t width = std::max(1u, image->width >> presented.mip), height = std::max(1u, image->height >> presented.mip);
  const auto& plane = image->subresource(frontend::Aspect::ColorOrDepth, presented.layer, presented.mip);
  if (!image::to_rgba8(image->format, width, height, plane, &replayed, &error) ||
      !image::to_rgba8(presented.format, presented.width, presented.height, presented.pixels, &reference, &error)) {
    out->compare_note = error;
    return;
  }
  if (width != presented.width || height != presented.height) {
    out->compare_note = "replayed image is " + std::to_string(width) + "x" + std::to_string(height) +
                        ", presented " + std::to_string(presented.width) + "x" + std::to_string(presented.height);
    return;
  }
  out->psnr_db =
      image::psnr_rgb(replayed.data(), reference.data(), static_cast<size_t>(presented.width) * presented.height).psnr_db;
  sink.images(presented.present, presented.width, presented.height, replayed, reference);
}

// A frame captured without a present (at submit boundaries, layer/README.md): the final contents
// of its last colour target on the captured device stand for the presented image. nullopt with
// *note saying what is missing.
std::optional<frontend::PresentedImage> final_color_target(const capture::CaptureReader& reader,
                                                            const frontend::FrameResult& r, std::string* note) {
  if (r.last_color_target == 0) {
    *note = "the capture holds no presented image for this frame, and it drew to no colour target";
    return std::nullopt;
  }
  constexpr uint32_t kColorAspect = 1;  // VK_IMAGE_ASPECT_COLOR_BIT
  for (const capture::RenderTargetContentsRecord& rt : r.render_targets) {
    if (rt.image != r.last_color_target) continue;
    for (const auto& sub : rt.subresources) {
      if (sub.mip != r.last_color_mip || sub.layer != r.last_color_layer || sub.aspect != kColorAspect) continue;
      std::string error;
      const std::optional<capture::Bytes> bytes = reader.blob(rt.contents, &error);
      if (!bytes || sub.offset > bytes->data.size() || sub.size > bytes->data.size() - sub.offset) {
        *note = "the final contents of the frame's last colour target are missing" +
                (error.empty() ? std::string() : " (" + error + ")");
        return std::nullopt;
      }
      frontend::PresentedImage p;
      p.present = r.present;
      p.swapchain_image = rt.image;
      p.format = rt.format;
      p.width = std::max(1u, rt.width >> sub.mip);
      p.height = std::max(1u, rt.height >> sub.mip);
      p.mip = sub.mip;
      p.layer = sub.layer;
      const auto* first = reinterpret_cast<const uint8_t*>(bytes->data.data()) + sub.offset;
      p.pixels.assign(first, first + sub.size);
      return p;
    }
  }
  *note = "the capture holds no presented image for this frame, nor the final contents of its last colour target";
  return std::nullopt;
}

// Calls work(k) for every k < n on up to `threads` threads (this one included), each k once.
// The configurations of a frame are independent models over one read-only IndexedFrame, so
// running them at once changes no result.
template <typename Work>
void for_each_parallel(size_t n, unsigned threads, Work work) {
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t k = next++; k < n; k = next++) work(k);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

class Study {
 public:
  Study(const std::string& path, const capture::CaptureReader& reader, const StudySpec& spec, Sink& sink)
      : path_(path),
        reader_(&reader),
        spec_(spec),
        sink_(sink),
        threads_(spec.threads != 0 ? spec.threads : std::max(1u, std::thread::hardware_concurrency())),
        budget_(spec.max_memory != 0 ? spec.max_memory : frontend::MemoryBudget::default_limit()) {}

  StudyResults run() {
    open();
    sink_.begin();
    const auto& frames = reader_->frames();
    size_t end = 0;
    for (size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].present <= spec_.last) end = i + 1;
    }
    for (size_t i = 0; i < end; ++i) replay_frame(i, end);
    if (results_.frames.empty()) {
      throw NoFrameInRange(path_ + ": no captured frame among presents " + std::to_string(spec_.first) + "-" +
                           (spec_.last == UINT32_MAX ? std::string() : std::to_string(spec_.last)));
    }
    sink_.finished(results_);
    return std::move(results_);
  }

 private:
  // The configurations' models and one shading pass per tile size (the first one also gives the
  // frames' PSNR and images).
  void open() {
    std::string error;
    results_.capture = path_;
    results_.fingerprint = reader_->fingerprint().hex();
    results_.capture_frames = reader_->frames().size();
    results_.capture_bytes = reader_->summary().file_bytes;
    for (const model::Configuration& c : spec_.configurations) {
      models_.push_back(c.make_model());
      results_.runs.push_back(ConfigurationRun{c, {}});
    }
    if (spec_.timeline) {
      if (models_.size() != 1) throw StudyError("a timeline is recorded for one configuration, not " + std::to_string(models_.size()));
      models_[0]->set_timeline(spec_.timeline);
    }
    if (spec_.configurations.empty()) pass_for(32, 32);
    for (size_t i = 0; i < spec_.configurations.size(); ++i) {
      const model::ParamSet& p = spec_.configurations[i].params;
      pass_for(p.get_u32("gpu.tile_width"), p.get_u32("gpu.tile_height")).configs.push_back(i);
    }
    for (auto& s : shading_) {
      bool refused = false;
      s->replay = frontend::CaptureReplay::open(*reader_, budget_, &error, &refused);
      if (!s->replay) {
        if (refused) throw ReplayRefused(error);
        throw StudyError(error);
      }
      render::RenderConfig rc;
      rc.tile_width = s->tile_width;
      rc.tile_height = s->tile_height;
      rc.threads = threads_;  // the tiles of each render pass; the model runs after shading use the same threads
      rc.budget = &budget_;
      s->renderer = std::make_unique<render::Renderer>(&s->writer, rc);
    }
  }

  ShadingPass& pass_for(uint32_t w, uint32_t h) {
    for (auto& s : shading_) {
      if (s->tile_width == w && s->tile_height == h) return *s;
    }
    auto s = std::make_unique<ShadingPass>();
    s->tile_width = w;
    s->tile_height = h;
    shading_.push_back(std::move(s));
    return *shading_.back();
  }

  // Frames replay in capture order from the first: each frame's resources are what the previous
  // frames left (render targets sampled later, buffers written by transfers).
  void replay_frame(size_t i, size_t end) {
    const capture::FrameInfo& info = reader_->frames()[i];
    const bool selected = info.present >= spec_.first && info.present <= spec_.last;
    const auto [width, height] = presented_size(*reader_, i);
    FrameOutcome f;
    f.present = info.present;
    for (size_t pi = 0; pi < shading_.size(); ++pi) {
      ShadingPass& s = *shading_[pi];
      sink_.progress(i, end, "frame " + std::to_string(f.present) + ": shading " + std::to_string(s.tile_width) + "x" +
                                 std::to_string(s.tile_height));
      const std::vector<uint8_t> stream = shade(s, i, width, height, pi == 0, selected, &f);
      if (selected && !s.configs.empty()) simulate(s, stream, i, end, f.present);
    }
    if (selected) results_.frames.push_back(std::move(f));
  }

  // Renders frame i in shading pass s and returns its access stream; the first pass also fills
  // the frame's outcome.
  std::vector<uint8_t> shade(ShadingPass& s, size_t i, uint32_t width, uint32_t height, bool first_pass,
                             bool selected, FrameOutcome* f) {
    std::string error;
    frontend::FrameResult result;
    const auto t0 = std::chrono::steady_clock::now();
    s.renderer->reset_stats();
    s.writer.frame_begin(f->present, width, height);
    if (!s.replay->replay_frame(i, *s.renderer, &result, &error)) {
      if (s.replay->refused()) throw ReplayRefused(error);
      throw StudyError(error);
    }
    s.writer.frame_end();
    std::vector<uint8_t> stream = s.writer.finish();
    if (!first_pass) return stream;
    f->stats = s.renderer->frame_stats();
    f->compute = s.renderer->compute_stats();
    f->render_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    f->draws = result.draws;
    f->passes = result.passes;
    f->skips = result.skipped;
    f->skipped = result.skipped.total();
    f->stream_bytes = stream.size();
    std::optional<frontend::PresentedImage> reference = std::move(result.presented);
    if (!reference) reference = final_color_target(*reader_, result, &f->compare_note);
    if (reference) {
      f->width = reference->width;
      f->height = reference->height;
      // Frames before the reported range only carry state forward: no comparison, no images.
      if (selected) compare_presented(*s.replay, *reference, sink_, f);
    }
    // The workload is what was drawn, the same for every tile size: profile one stream.
    if (selected && !stream::profile_frame(stream, &f->workload, &error)) {
      throw StudyError(path_ + ": frame " + std::to_string(f->present) + ": access stream " + error);
    }
    return stream;
  }

  // Every configuration of shading pass s simulates the frame: indexed once, then the models run
  // on up to threads_ threads.
  void simulate(const ShadingPass& s, const std::vector<uint8_t>& stream, size_t i, size_t end, uint32_t present) {
    std::string error;
    const std::unique_ptr<model::IndexedFrame> indexed = model::IndexedFrame::build(stream, &error);
    if (!indexed) throw StudyError(path_ + ": frame " + std::to_string(present) + ": " + error);
    const size_t n = s.configs.size();
    const size_t used = std::min<size_t>(threads_, n);
    sink_.progress(i, end, "frame " + std::to_string(present) + ": " + plural(n, "configuration") + " on " +
                               plural(used, "thread"));
    std::vector<model::FrameResults> results(n);
    std::vector<std::string> errors(n);
    std::vector<char> ran(n, 0);
    for_each_parallel(n, threads_, [&](size_t k) {
      try {
        ran[k] = models_[s.configs[k]]->run(*indexed, results[k], &errors[k]) ? 1 : 0;
      } catch (const std::exception& e) {
        errors[k] = e.what();
      }
    });
    for (size_t k = 0; k < n; ++k) {
      ConfigurationRun& run = results_.runs[s.configs[k]];
      if (!ran[k]) {
        throw StudyError(path_ + ": frame " + std::to_string(present) + ", config " + run.configuration.name +
                         ": " + errors[k]);
      }
      run.frames.emplace_back(results_.frames.size(), std::move(results[k]));
    }
  }

  const std::string& path_;
  const capture::CaptureReader* reader_;
  const StudySpec& spec_;
  Sink& sink_;
  const unsigned threads_;
  // One for every shading pass (each holds its own copy of the capture's objects); declared
  // before shading_, so it outlives them.
  frontend::MemoryBudget budget_;
  std::vector<std::unique_ptr<model::GpuModel>> models_;  // per configuration, warm across frames
  std::vector<std::unique_ptr<ShadingPass>> shading_;
  StudyResults results_;
};

}  // namespace

std::unique_ptr<Session> Session::open(const std::string& capture) {
  std::string error;
  std::unique_ptr<capture::CaptureReader> reader = capture::CaptureReader::open(capture, &error);
  if (!reader) throw StudyError(error);
  if (reader->frames().empty()) throw StudyError(capture + ": the capture holds no complete frame");
  return std::unique_ptr<Session>(new Session(capture, std::move(reader)));
}

StudyResults Session::run(const StudySpec& spec, Sink& sink) const { return Study(path_, *reader_, spec, sink).run(); }

StudyResults run_study(const std::string& capture, const StudySpec& spec, Sink& sink) {
  return Session::open(capture)->run(spec, sink);
}

}  // namespace tessera::study
