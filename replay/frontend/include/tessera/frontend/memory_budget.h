// The host memory a replay may hold for what a capture declares (`tessera replay --max-memory`).
// A capture is untrusted input: its records declare memory objects, images and draws of any
// size, and the replay would allocate them on the host. Everything the replay holds that scales
// with a declared size is reserved here first; a reservation beyond the limit is refused, and
// the replay stops with one line naming the capture, the frame and the object (never an
// out-of-memory kill, never contents quietly left out).
//
// One budget may serve several replays of one capture at once (a study's shading passes, one
// per tile size, each hold their own copies of the objects): it is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tessera::frontend {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Half of the machine's physical memory (4 GiB when it cannot be read): the replay's default.
  // Half, because the replay is not alone: the decoded capture, the shaders, the access stream
  // and the GPU model's state live beside what the budget counts, and a study's other
  // processes (a sweep runs several) share the machine.
  static uint64_t default_limit();

  uint64_t limit() const { return limit_; }
  uint64_t held() const { return held_.load(std::memory_order_relaxed); }
  // Takes `bytes` from the budget; false (nothing taken) when that would pass the limit.
  bool reserve(uint64_t bytes);
  void release(uint64_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }

  // "<what> needs N, beyond the replay's memory budget of L (H held; --max-memory)": the end of
  // the line a refused reservation gives.
  std::string refusal(uint64_t bytes) const;

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> held_{0};
};

// What a PassRenderer throws when a draw or dispatch cannot be replayed within the replay's
// bounds (the memory budget, the shader watchdog): CaptureReplay::replay_frame turns it into
// its one-line error naming the capture and the frame.
class ReplayLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A size as `--max-memory` takes it: bytes, or a number with K, M, G or T (powers of 1024, an
// optional trailing B or iB: 512M, 12G, 1.5GiB). False with *error saying why.
bool parse_memory_size(std::string_view text, uint64_t* bytes, std::string* error);
// Bytes for messages: "512 B", "1.5 KiB", "12.0 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace tessera::frontend
