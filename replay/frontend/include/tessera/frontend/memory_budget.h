// The host memory a replay may hold for what a capture declares (`tessera replay --max-memory`).
// A capture is untrusted input: its records declare memory objects, images and draws of any
// size, and the replay would allocate them on the host. What the replay copies from those
// declarations (memory objects, images, a draw's or dispatch's arrays, render targets, texture
// copies) is reserved here first; a reservation beyond the limit is refused, and the replay
// stops with one line naming the capture, the frame and the object rather than allocate it or
// go on without its contents. The GPU model's state, the access stream, the shaders and the
// decoded capture grow with the work replayed and are not counted: the budget bounds what a
// capture can make the replay allocate, not the process's whole footprint.
//
// One budget may serve several replays of one capture at once (a study's shading passes, one
// per tile size, each hold their own copies of the objects): it is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tessera::frontend {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Half of the memory this process may have: the least of the machine's physical memory, its
  // cgroup's limit (v2 memory.max of its cgroup and each one above, or v1
  // memory.limit_in_bytes) and RLIMIT_AS; 4 GiB when none can be read. The replay's default.
  // Half, because the replay is not alone: the decoded capture, the shaders, the access stream
  // and the GPU model's state live beside what the budget counts, and a study's other
  // processes (a sweep runs several) share the machine.
  static uint64_t default_limit();
  // default_limit() from the limits read: half the least that is not 0 (0: none, or unread),
  // 4 GiB when all are 0.
  static uint64_t default_limit_from(std::initializer_list<uint64_t> limits);

  uint64_t limit() const { return limit_; }
  uint64_t held() const { return held_.load(std::memory_order_relaxed); }
  // Takes `bytes` from the budget; false (nothing taken) when that would pass the limit.
  bool reserve(uint64_t bytes);
  // Gives back `bytes` taken by reserve(). Giving back more than is held is a bookkeeping bug:
  // it asserts in debug builds; in release the budget clamps at 0 (never wraps to a huge held
  // that would refuse everything after) and over_released() says it happened.
  void release(uint64_t bytes);
  bool over_released() const { return over_released_.load(std::memory_order_relaxed); }

  // "<what> needs N, beyond the replay's memory budget of L (H held; --max-memory)": the end of
  // the line a refused reservation gives.
  std::string refusal(uint64_t bytes) const;

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> held_{0};
  std::atomic<bool> over_released_{false};
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
// A Vulkan handle as the replay's refusals name it: "0x3fe".
std::string format_handle(uint64_t handle);

// The text of a cgroup memory limit file: v2 memory.max (bytes, or "max" for none) or v1
// memory.limit_in_bytes (bytes; near 2^63 when unlimited). The bytes, or 0 when the file says
// there is no limit or does not hold one number.
uint64_t parse_cgroup_memory_limit(std::string_view text);
// The process's cgroups as /proc/self/cgroup lists them ("hierarchy:controllers:path" lines):
// the v2 path (the "0::" line) and the v1 memory controller's; empty when absent.
struct ProcCgroups {
  std::string v2, v1_memory;
};
ProcCgroups parse_proc_self_cgroup(std::string_view text);

}  // namespace tessera::frontend
