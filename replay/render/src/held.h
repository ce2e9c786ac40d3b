// Bytes the renderer holds for what a capture declares, taken from the replay's memory budget
// (frontend/memory_budget.h) and given back when destroyed: a draw's vertex stage arrays, the
// primitives binned for a subpass, the render area a multi-subpass pass keeps, the copies of the
// images the parallel raster phase may put back, the texture cache's copies.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "tessera/frontend/memory_budget.h"

namespace tessera::render {

class Held {
 public:
  Held() = default;
  explicit Held(frontend::MemoryBudget& budget) : budget_(&budget) {}
  ~Held() { release(); }
  Held(Held&& o) noexcept : budget_(o.budget_), bytes_(std::exchange(o.bytes_, 0)) {}
  Held& operator=(Held&& o) noexcept {
    if (this != &o) {
      release();
      budget_ = o.budget_;
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

  uint64_t bytes() const { return bytes_; }
  // Holds `n` more bytes; throws ReplayLimitError "<what> needs ..." when the budget is spent
  // (nothing more is then held).
  void take(uint64_t n, const std::string& what) {
    if (n == 0) return;
    if (!budget_->reserve(n)) throw frontend::ReplayLimitError(what + " " + budget_->refusal(n));
    bytes_ += n;
  }
  // Holds exactly `n` bytes, taking or giving back the difference.
  void hold(uint64_t n, const std::string& what) {
    if (n > bytes_) {
      take(n - bytes_, what);
    } else if (n < bytes_) {
      budget_->release(bytes_ - n);
      bytes_ = n;
    }
  }
  // Holds at least `n` bytes if the budget allows (true), else holds what it held (false).
  bool try_hold(uint64_t n) {
    if (n <= bytes_) return true;
    if (!budget_->reserve(n - bytes_)) return false;
    bytes_ = n;
    return true;
  }
  void release() {
    if (budget_ != nullptr && bytes_ != 0) budget_->release(bytes_);
    bytes_ = 0;
  }

 private:
  frontend::MemoryBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace tessera::render
