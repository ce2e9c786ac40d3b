// A study: shade once, simulate many (docs/architecture.md, "Data flow"). Each captured frame is
// rendered once per tile size the configurations ask for by the functional tile-based renderer,
// which records the frame's access stream; the stream is indexed once and every configuration (a
// preset plus schemes, model/configuration.h) replays it, each configuration's model keeping its
// caches warm from frame to frame. The replayed image is compared with the image the application
// presented (PSNR). What becomes of the results is the sink's: the results database
// (DatabaseSink), PNG files and progress (the CLI's), or a test's own checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "results_db.h"
#include "tessera/capture/reader.h"
#include "tessera/frontend/replay.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/workload_profile.h"

namespace tessera::study {

// What to run on a capture: which presents, through which configurations.
struct StudySpec {
  // Presents reported (1-based, inclusive); the frames before `first` replay too, since each
  // frame's resources are what the previous ones left, but are neither compared nor simulated.
  uint32_t first = 0, last = UINT32_MAX;
  // None: shade and compare only (one 32x32 shading pass).
  std::vector<model::Configuration> configurations;
  // Threads of the study (0: one per core): the tiles of a render pass, and the steps of a frame
  // that follow its shading (the comparison, the workload profile, each configuration's model
  // run), which run while the next frame is shaded, share them. Results do not depend on it.
  unsigned threads = 0;
  // Host bytes the replay may hold for what the capture declares (frontend/memory_budget.h),
  // shared by every shading pass; 0: MemoryBudget::default_limit(). A capture needing more stops
  // the study with a StudyError naming the frame and the object.
  uint64_t max_memory = 0;
  // With one configuration: its model records the timeline of each frame it runs into this
  // (model/timeline.h); the last reported frame's is left in it. Null: none.
  model::Timeline* timeline = nullptr;
};

// What the functional replay found for one reported frame (the first shading pass's).
struct FrameOutcome {
  uint32_t present = 0;
  uint32_t width = 0, height = 0;
  std::optional<double> psnr_db;  // replayed against presented; +inf when identical
  std::string compare_note;       // why there is no PSNR
  uint64_t draws = 0, passes = 0, skipped = 0;
  uint64_t approximated = 0;  // draw stages rendered with a rule of ours (skips.approximations)
  render::RenderStats stats;
  render::ComputeStats compute;
  frontend::SkipCounts skips;
  uint64_t stream_bytes = 0;
  double render_seconds = 0;
  stream::WorkloadProfile workload;  // workload.* metrics, from the frame's access stream
};

// One configuration's results: per reported frame (an index into StudyResults::frames), the
// model's results.
struct ConfigurationRun {
  model::Configuration configuration;
  std::vector<std::pair<size_t, model::FrameResults>> frames;
};

// Seconds spent per stage of a study, summed over its frames and over the threads that ran
// them. A frame's steps after its shading run while the next frame is shaded, so the stages
// overlap and their sum exceeds the wall time; with more threads a stage's own seconds stay
// about the same (shading drops as its tiles spread), and the wall time shows the overlap.
struct StageSeconds {
  double shading = 0;  // front end and renderer: the study's thread's wall time while it shades (its tile helpers run within it)
  double index = 0;    // model::IndexedFrame::build, once per frame and tile size
  double model = 0;    // the configurations' model runs
  double profile = 0;  // the workload profile (stream::profile_frame)
  double compare = 0;  // PSNR and Sink::images (the PNGs `tessera replay --png` writes), together
  double images = 0;   // of which Sink::images
  double wall = 0;     // Session::run until every frame is done, before Sink::finished
};

struct StudyResults {
  std::string capture;  // the capture file, as Session::open named it
  std::string fingerprint;  // CaptureReader::fingerprint(), hex
  size_t capture_frames = 0;
  uint64_t capture_bytes = 0;
  std::vector<FrameOutcome> frames;
  std::vector<ConfigurationRun> runs;
  StageSeconds seconds;
};

// Where a study's results go. Every call but images() comes from the thread that runs the study;
// images() comes from a worker thread (a frame is compared while the next one is shaded), one
// call at a time, in frame order, possibly while the study's thread calls progress().
class Sink {
 public:
  virtual ~Sink() = default;
  // The configurations' models are made (a configuration the model refuses has thrown
  // model::ParamError before this) and the first frame is about to replay.
  virtual void begin() {}
  // Frame `done` of `total` (frames replayed, reported or not) is at the step `what`.
  virtual void progress(size_t /*done*/, size_t /*total*/, std::string_view /*what*/) {}
  // A reported frame's replayed image beside the presented one, both RGBA8 of width x height,
  // when the two could be compared.
  virtual void images(uint32_t /*present*/, uint32_t /*width*/, uint32_t /*height*/,
                      std::span<const uint8_t> /*replayed*/, std::span<const uint8_t> /*presented*/) {}
  // Every frame has replayed and every configuration has simulated it.
  virtual void finished(const StudyResults& /*results*/) {}
};

// Why a study stopped: one line naming the capture file and, where it applies, the frame and the
// configuration.
class StudyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The replay refused the capture (CaptureReplay::refused(): beyond the memory budget, an image
// no device creates, a command or shader beyond what the replay runs). Deterministic: the same
// capture under the same budget is refused again.
class ReplayRefused : public StudyError {
 public:
  using StudyError::StudyError;
};
// `tessera replay`'s exit status for ReplayRefused (docs/contracts.md): distinct from 1 (any
// other error, which may be transient: a full disk, a killed worker) so that a sweep tells a
// refusal from a failure worth running again, and from 2 (bad arguments), 127 (could not run)
// and 128+N (killed by signal N).
inline constexpr int kExitReplayRefused = 3;
// The capture holds no frame among the presents asked for.
class NoFrameInRange : public StudyError {
 public:
  using StudyError::StudyError;
};

// One capture, opened and checked once; each run replays it from its first frame.
class Session {
 public:
  // Throws StudyError when the file is not a readable capture or holds no complete frame.
  static std::unique_ptr<Session> open(const std::string& capture);
  const capture::CaptureReader& reader() const { return *reader_; }
  // Runs the study and hands its results to `sink` (finished) before returning them. Throws
  // model::ParamError for a configuration the model refuses (before sink.begin()), StudyError,
  // or what the sink throws; the sink has then had no finished().
  StudyResults run(const StudySpec& spec, Sink& sink) const;

 private:
  Session(std::string path, std::unique_ptr<capture::CaptureReader> reader)
      : path_(std::move(path)), reader_(std::move(reader)) {}
  std::string path_;
  std::unique_ptr<capture::CaptureReader> reader_;
};

// Session::open(capture)->run(spec, sink).
StudyResults run_study(const std::string& capture, const StudySpec& spec, Sink& sink);

// Writes a study's results into a results database (schema/sqlite), one transaction per run (a
// run = one configuration on one capture): the capture, the configuration with its full
// parameter set, and per reported frame the functional replay's metrics (replay.*, workload.*)
// beside the model's frame, tile and core metrics. Throws results::Error; a failed run's
// transaction is rolled back.
class DatabaseSink final : public Sink {
 public:
  explicit DatabaseSink(results::ResultsDb& db) : db_(db) {}
  void finished(const StudyResults& results) override;

 private:
  results::ResultsDb& db_;
};

// The functional replay's frame metrics stored with every run (docs/contracts.md names them).
std::vector<std::pair<std::string, double>> replay_metrics(const FrameOutcome& frame);

}  // namespace tessera::study
