// run_study: the functional replay shades each frame once per tile size, and every configuration
// of that tile size simulates the frame's access stream (study.h).
#include "tessera/study/study.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

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

// The replayed swapchain image and the presented pixels as RGBA8, taken on the study's thread
// before the next frame replays into the image; empty with out->compare_note set when the two
// cannot be compared.
struct ImagePair {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> replayed, presented;
};
std::optional<ImagePair> images_to_compare(frontend::CaptureReplay& replay, const frontend::PresentedImage& presented,
                                           FrameOutcome* out) {
  const frontend::Image* image = replay.find_image(presented.swapchain_image);
  if (image == nullptr || !image->defined || image->planes.empty()) {
    out->compare_note = "presented image was not rendered by the replay";
    return std::nullopt;
  }
  std::string error;
  ImagePair pair;
  if (presented.mip >= image->mip_levels || presented.layer >= image->array_layers) {
    out->compare_note = "the replayed image has no mip " + std::to_string(presented.mip) + ", layer " +
                        std::to_string(presented.layer);
    return std::nullopt;
  }
  const uint32_t width = std::max(1u, image->width >> presented.mip), height = std::max(1u, image->height >> presented.mip);
  const auto& plane = image->subresource(frontend::Aspect::ColorOrDepth, presented.layer, presented.mip);
  if (!image::to_rgba8(image->format, width, height, plane, &pair.replayed, &error) ||
      !image::to_rgba8(presented.format, presented.width, presented.height, presented.pixels, &pair.presented, &error)) {
    out->compare_note = error;
    return std::nullopt;
  }
  if (width != presented.width || height != presented.height) {
    out->compare_note = "replayed image is " + std::to_string(width) + "x" + std::to_string(height) +
                        ", presented " + std::to_string(presented.width) + "x" + std::to_string(presented.height);
    return std::nullopt;
  }
  pair.width = width;
  pair.height = height;
  return pair;
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

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Where a step stands in the order a study met its steps one after the other: per frame, per
// shading pass, the shading, the comparison with the presented image, the workload profile,
// the index, then each configuration's model run. Steps run on several threads, out of this
// order; the error a study reports is the first in this order, whichever thread met it first,
// so it is the one the steps run one after the other would have stopped at.
struct Order {
  size_t frame = 0, pass = 0, step = 0;
  auto operator<=>(const Order&) const = default;
};
enum Step : size_t { kShade = 0, kCompare = 1, kProfile = 2, kIndex = 3, kModel = 4 };
// Priorities of Task: the index and the model runs are the chain every frame waits for; the
// comparison and the profile wait until the study's thread waits for them (frame i - 3's before
// it shades frame i) or for the end, beside the last frame's model runs, where the other threads
// have nothing else to do.
constexpr int kIndexFirst = 0, kModelNext = 1, kFill = 2;

// What a frame's steps after its shading share: its stream (one per shading pass) and, once
// built, the stream's index. Held until the last of them is done.
struct Unit {
  std::vector<uint8_t> stream;
  std::unique_ptr<model::IndexedFrame> indexed;
};

// A step of a frame that runs on a worker thread while the study's thread shades the next one.
struct Task {
  Order order;
  // Which ready step a free thread takes first: the index, then the model runs (each
  // configuration's frames form a chain, the longest path of a study), then the rest (kFill).
  int priority = 0;
  std::vector<std::shared_ptr<Task>> after;  // done before this one starts
  std::function<void()> run;
  double* seconds = nullptr;  // the stage's sum it adds its time to
  bool claimed = false, done = false;
};

class Study {
 public:
  Study(const std::string& path, const capture::CaptureReader& reader, const StudySpec& spec, Sink& sink)
      : path_(path),
        reader_(&reader),
        spec_(spec),
        sink_(sink),
        threads_(spec.threads != 0 ? spec.threads : std::max(1u, std::thread::hardware_concurrency())),
        budget_(spec.max_memory != 0 ? spec.max_memory : frontend::MemoryBudget::default_limit()),
        threads_budget_(threads_) {}

  ~Study() { stop_workers(); }

  StudyResults run() {
    const auto t0 = Clock::now();
    open();
    sink_.begin();
    const auto& frames = reader_->frames();
    size_t end = 0;
    for (size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].present <= spec_.last) end = i + 1;
    }
    start_workers();
    // The study's thread holds one of the budget's threads while it shades (the tiles' helpers
    // take the others when the models leave them free).
    threads_budget_.take();
    try {
      for (size_t i = 0; i < end && !failed(); ++i) replay_frame(i, end);
    } catch (...) {
      fail(Order{current_frame_, current_pass_, current_step_}, std::current_exception());
    }
    wait_for([this] { return tasks_.empty(); }, true);
    threads_budget_.give();
    stop_workers();
    if (failure_) std::rethrow_exception(failure_);
    results_.frames.assign(std::make_move_iterator(outcomes_.begin()), std::make_move_iterator(outcomes_.end()));
    if (results_.frames.empty()) {
      throw NoFrameInRange(path_ + ": no captured frame among presents " + std::to_string(spec_.first) + "-" +
                           (spec_.last == UINT32_MAX ? std::string() : std::to_string(spec_.last)));
    }
    results_.seconds = seconds_;
    results_.seconds.wall = seconds_since(t0);
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
    last_model_.resize(models_.size());
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
      rc.threads = threads_;  // the tiles of each render pass, with helpers the frames' models leave free
      rc.thread_budget = &threads_budget_;
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
  // frames left (render targets sampled later, buffers written by transfers). What a frame's
  // stream and images feed (the comparison, the profile, the models) runs on worker threads while
  // the next frame is shaded. Before frame i is shaded, frame i - 2's index and model runs are
  // done and frame i - 3's every step, so the streams held beside the one being written are
  // those of frame i - 1 (one per tile size), of frame i's earlier tile sizes, and at most the
  // first one of frame i - 2 for its profile. They are not taken from the memory budget (the
  // budget bounds what the capture declares; the stream, like the models' state, lives beside
  // it, frontend/memory_budget.h).
  void replay_frame(size_t i, size_t end) {
    current_frame_ = i;
    current_pass_ = 0;
    if (i >= 2) wait_for([this, i] { return chain_done(i - 2); }, false);
    if (i >= 3) wait_for([this, i] { return frame_steps_done(i - 3); }, true);
    const capture::FrameInfo& info = reader_->frames()[i];
    const bool selected = info.present >= spec_.first && info.present <= spec_.last;
    const auto [width, height] = presented_size(*reader_, i);
    FrameOutcome* f = nullptr;
    if (selected) {
      outcomes_.emplace_back();
      f = &outcomes_.back();
    }
    FrameOutcome unreported;
    if (f == nullptr) f = &unreported;
    f->present = info.present;
    const size_t reported = outcomes_.size() - 1;  // f's index among the reported frames
    for (size_t pi = 0; pi < shading_.size() && !failed(); ++pi) {
      current_pass_ = pi;
      current_step_ = kShade;
      ShadingPass& s = *shading_[pi];
      sink_.progress(i, end, "frame " + std::to_string(f->present) + ": shading " + std::to_string(s.tile_width) + "x" +
                                 std::to_string(s.tile_height));
      const auto t0 = Clock::now();
      auto unit = std::make_shared<Unit>();
      std::optional<ImagePair> images;
      unit->stream = shade(s, i, width, height, pi == 0, selected, f, &images);
      add_seconds(&seconds_.shading, seconds_since(t0));
      if (!selected) continue;
      // In the order the steps would run one after the other (Order): the comparison and the
      // profile, then the index and the model runs. A worker takes the ready step of the highest
      // priority whatever the order they came in (the index first), and an error the study's
      // thread meets from here on (the sink's progress line, an allocation) is placed after the
      // comparison it has queued, as it came after the images were handed over.
      if (pi == 0) {
        if (images) compare(i, std::move(*images), f);
        profile(i, unit, f);
      }
      current_step_ = kIndex;
      if (!s.configs.empty()) simulate(s, unit, i, pi, end, reported);
    }
  }

  // Renders frame i in shading pass s and returns its access stream; the first pass also fills
  // the frame's outcome and, for a reported frame, takes the images to compare.
  std::vector<uint8_t> shade(ShadingPass& s, size_t i, uint32_t width, uint32_t height, bool first_pass,
                             bool selected, FrameOutcome* f, std::optional<ImagePair>* images) {
    std::string error;
    frontend::FrameResult result;
    const auto t0 = Clock::now();
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
    f->render_seconds = seconds_since(t0);
    f->draws = result.draws;
    f->passes = result.passes;
    f->skips = result.skipped;
    f->skipped = result.skipped.total();
    f->approximated = result.skipped.approximated();
    f->stream_bytes = stream.size();
    std::optional<frontend::PresentedImage> reference = std::move(result.presented);
    if (!reference) reference = final_color_target(*reader_, result, &f->compare_note);
    if (reference) {
      f->width = reference->width;
      f->height = reference->height;
      // Frames before the reported range only carry state forward: no comparison, no images.
      if (selected) *images = images_to_compare(*s.replay, *reference, f);
    }
    return stream;
  }

  // The PSNR of the frame's images and the sink's images(), in frame order.
  void compare(size_t i, ImagePair images, FrameOutcome* f) {
    auto pair = std::make_shared<ImagePair>(std::move(images));
    auto t = std::make_shared<Task>();
    t->order = {i, 0, kCompare};
    t->priority = kFill;
    if (last_compare_) t->after.push_back(last_compare_);
    // One after the other, frame i's images are handed over after frame i - 1's model runs: if
    // one of those fails, the images of frame i must not be written (they would come after the
    // error the study reports). last_model_ holds frame i - 1's runs until simulate() of frame i.
    for (const std::shared_ptr<Task>& m : last_model_) {
      if (m) t->after.push_back(m);
    }
    t->seconds = &seconds_.compare;
    t->run = [this, pair, f] {
      f->psnr_db = image::psnr_rgb(pair->replayed.data(), pair->presented.data(),
                                   static_cast<size_t>(pair->width) * pair->height)
                       .psnr_db;
      const auto t0 = Clock::now();
      sink_.images(f->present, pair->width, pair->height, pair->replayed, pair->presented);
      add_seconds(&seconds_.images, seconds_since(t0));
    };
    last_compare_ = t;
    submit(std::move(t));
  }

  // The workload is what was drawn, the same for every tile size: profile one stream.
  void profile(size_t i, const std::shared_ptr<Unit>& unit, FrameOutcome* f) {
    auto t = std::make_shared<Task>();
    t->order = {i, 0, kProfile};
    t->priority = kFill;
    t->seconds = &seconds_.profile;
    t->run = [this, unit, f] {
      std::string error;
      if (!stream::profile_frame(unit->stream, &f->workload, &error)) {
        throw StudyError(path_ + ": frame " + std::to_string(f->present) + ": access stream " + error);
      }
    };
    submit(std::move(t));
  }

  // Every configuration of shading pass s simulates the frame: indexed once, then each model
  // runs it after its run of the previous frame (its caches stay warm from frame to frame).
  void simulate(const ShadingPass& s, const std::shared_ptr<Unit>& unit, size_t i, size_t pi, size_t end,
                size_t reported) {
    const uint32_t present = reader_->frames()[i].present;
    const size_t n = s.configs.size();
    const size_t used = std::min<size_t>(threads_, n);
    sink_.progress(i, end, "frame " + std::to_string(present) + ": " + plural(n, "configuration") + " on " +
                               plural(used, "thread"));
    auto index = std::make_shared<Task>();
    index->order = {i, pi, kIndex};
    index->priority = kIndexFirst;
    index->seconds = &seconds_.index;
    index->run = [this, unit, present] {
      std::string error;
      unit->indexed = model::IndexedFrame::build(unit->stream, &error);
      if (!unit->indexed) throw StudyError(path_ + ": frame " + std::to_string(present) + ": " + error);
    };
    submit(index);
    for (size_t k = 0; k < n; ++k) {
      const size_t c = s.configs[k];
      auto t = std::make_shared<Task>();
      t->order = {i, pi, kModel + k};
      t->priority = kModelNext;
      t->after.push_back(index);
      if (last_model_[c]) t->after.push_back(last_model_[c]);
      t->seconds = &seconds_.model;
      t->run = [this, unit, c, present, reported] {
        model::FrameResults results;
        std::string error;
        bool ran = false;
        try {
          ran = models_[c]->run(*unit->indexed, results, &error);
        } catch (const std::exception& e) {
          error = e.what();
        }
        ConfigurationRun& run = results_.runs[c];
        if (!ran) {
          throw StudyError(path_ + ": frame " + std::to_string(present) + ", config " + run.configuration.name +
                           ": " + error);
        }
        run.frames.emplace_back(reported, std::move(results));
      };
      last_model_[c] = t;
      submit(std::move(t));
    }
  }

  // --- the worker threads -------------------------------------------------------------------

  // Workers for the index and model runs, each waiting for a thread of the budget once it has a
  // step (helpers of the shading then leave between tiles): as many as the budget's threads, but
  // no more than can be busy at once (every configuration's run of a frame and the next index).
  // And one for the rest, which runs whatever is ready on a thread nothing else wants while the
  // study's thread waits. A worker the system will not start (a process or cgroup limit on
  // threads) is done without: if one is missing, the study's thread also runs ready steps
  // whenever it waits, so no step is left without a thread.
  void start_workers() {
    const size_t wanted = std::min<size_t>(threads_, models_.size() + 1);
    try {
      for (size_t w = 0; w < wanted; ++w) workers_.emplace_back([this] { work(false); });
      workers_.emplace_back([this] { work(true); });
    } catch (const std::system_error&) {
      inline_steps_ = true;
    }
  }

  void stop_workers() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  void submit(std::shared_ptr<Task> t) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(t));
    }
    changed_.notify_all();
  }

  // The ready step to run next (claimed), or null. Steps after the first error are dropped:
  // the study reports that error, and what follows it would not have run.
  std::shared_ptr<Task> pick(bool fill) {
    std::shared_ptr<Task> best;
    for (size_t k = 0; k < tasks_.size();) {
      const std::shared_ptr<Task>& t = tasks_[k];
      if (!t->claimed && failure_ && failed_at_ < t->order) {
        t->done = true;
        tasks_.erase(tasks_.begin() + static_cast<std::ptrdiff_t>(k));
        changed_.notify_all();
        continue;
      }
      const bool ready = !t->claimed && (fill || t->priority != kFill) &&
                         std::all_of(t->after.begin(), t->after.end(), [](const auto& d) { return d->done; });
      if (ready && (!best || std::pair(t->priority, t->order) < std::pair(best->priority, best->order))) best = t;
      ++k;
    }
    if (best) best->claimed = true;
    return best;
  }

  // fill: the worker of idle threads.
  void work(bool fill) {
    for (;;) {
      std::shared_ptr<Task> t;
      if (fill) {
        {
          // Only while the study's thread waits for them or for the end: while it shades, a
          // free thread is better spent on its tiles (the model runs wait for its stream), and
          // the steps here can wait for the end, beside the last frame's model runs.
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return (waiting_ && ready_to_fill()) || stopping_; });
          if (!ready_to_fill()) return;
        }
        threads_budget_.take_idle();
        {
          std::lock_guard lock(mutex_);
          if (waiting_) t = pick(true);  // the study's thread may have gone back to shading
        }
        if (!t) {
          threads_budget_.give();
          continue;
        }
      } else {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return (t = pick(false)) != nullptr || stopping_; });
          if (!t) return;
        }
        threads_budget_.take();
      }
      execute(t, true);
    }
  }

  // Runs a claimed step and retires it; with give_thread, gives the budget's thread back before
  // the step is seen done (a worker's thread; the study's thread keeps its own).
  void execute(const std::shared_ptr<Task>& t, bool give_thread = false) {
    const auto t0 = Clock::now();
    std::exception_ptr error;
    try {
      t->run();
    } catch (...) {
      error = std::current_exception();
    }
    const double took = seconds_since(t0);
    if (give_thread) threads_budget_.give();
    t->run = nullptr;  // what it holds (the frame's stream) goes now
    {
      std::lock_guard lock(mutex_);
      *t->seconds += took;
      if (error) fail_locked(t->order, error);
      t->done = true;
      tasks_.erase(std::find(tasks_.begin(), tasks_.end(), t));
    }
    changed_.notify_all();
  }

  // Whether a step is ready (under the lock; drops the steps after a failure as pick() does).
  bool ready_to_fill() {
    for (size_t k = 0; k < tasks_.size(); ++k) {
      const Task& t = *tasks_[k];
      if (!t.claimed && (!failure_ || t.order < failed_at_) &&
          std::all_of(t.after.begin(), t.after.end(), [](const auto& d) { return d->done; }))
        return true;
    }
    return false;
  }

  void fail_locked(const Order& at, std::exception_ptr error) {
    if (!failure_ || at < failed_at_) {
      failure_ = std::move(error);
      failed_at_ = at;
    }
  }
  void fail(const Order& at, std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      fail_locked(at, std::move(error));
    }
    changed_.notify_all();
  }
  bool failed() {
    std::lock_guard lock(mutex_);
    return failure_ != nullptr;
  }
  // Whether the index and model runs of frame i (and before) are done.
  bool chain_done(size_t i) const {
    return std::none_of(tasks_.begin(), tasks_.end(),
                        [i](const auto& t) { return t->order.frame <= i && t->priority != kFill; });
  }
  // Whether every step of frame i (and before) is done.
  bool frame_steps_done(size_t i) const {
    return std::none_of(tasks_.begin(), tasks_.end(), [i](const auto& t) { return t->order.frame <= i; });
  }
  void add_seconds(double* stage, double s) {
    std::lock_guard lock(mutex_);
    *stage += s;
  }
  // Waits, on the study's thread, until `done` holds (checked under the lock); the thread's
  // share of the budget goes to the workers meanwhile, to the comparison and profile too when
  // `fill` (not while it waits for a model run: one of them started then would hold its thread
  // past the moment the next model run could start).
  template <typename Done>
  void wait_for(Done done, bool fill) {
    std::unique_lock lock(mutex_);
    if (done()) return;
    if (inline_steps_) {
      // Not every worker could be started: run ready steps here, on the budget thread the
      // study's thread holds, until `done` holds (a worker that did start may run some too).
      while (!done()) {
        std::shared_ptr<Task> t = pick(true);
        if (!t) {
          changed_.wait(lock);
          continue;
        }
        lock.unlock();
        execute(t);
        lock.lock();
      }
      return;
    }
    waiting_ = fill;
    lock.unlock();
    changed_.notify_all();
    threads_budget_.give();
    lock.lock();
    changed_.wait(lock, done);
    waiting_ = false;
    lock.unlock();
    threads_budget_.take();
  }

  const std::string& path_;
  const capture::CaptureReader* reader_;
  const StudySpec& spec_;
  Sink& sink_;
  const unsigned threads_;
  // One for every shading pass (each holds its own copy of the capture's objects); declared
  // before shading_, so it outlives them.
  frontend::MemoryBudget budget_;
  // The threads of the study: the study's thread while it shades, the tiles' helpers, the workers.
  render::ThreadBudget threads_budget_;
  std::vector<std::unique_ptr<model::GpuModel>> models_;  // per configuration, warm across frames
  std::vector<std::unique_ptr<ShadingPass>> shading_;
  StudyResults results_;
  std::deque<FrameOutcome> outcomes_;  // the reported frames (stable while steps fill them)
  StageSeconds seconds_;
  size_t current_frame_ = 0, current_pass_ = 0, current_step_ = kShade;  // where the study's thread is

  std::mutex mutex_;
  std::condition_variable changed_;  // a step submitted or done, a failure, stopping
  std::vector<std::shared_ptr<Task>> tasks_;  // submitted, not done
  std::shared_ptr<Task> last_compare_;        // Sink::images() in frame order
  std::vector<std::shared_ptr<Task>> last_model_;  // per configuration, its run of the previous frame
  std::exception_ptr failure_;
  Order failed_at_;
  bool stopping_ = false;
  bool waiting_ = false;  // the study's thread waits, and the comparison and profile may run
  bool inline_steps_ = false;  // a worker could not be started: the study's thread runs steps too
  std::vector<std::thread> workers_;
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
