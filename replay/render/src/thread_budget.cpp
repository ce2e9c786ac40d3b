#include "tessera/render/thread_budget.h"

#include <algorithm>

namespace tessera::render {

ThreadBudget::ThreadBudget(unsigned threads) : threads_(std::max(1u, threads)), free_(threads_) {}

void ThreadBudget::take() {
  std::unique_lock lock(mutex_);
  ++waiting_;
  freed_.wait(lock, [this] { return free_ > 0; });
  --waiting_;
  --free_;
  // A take_idle() waiter may go now that no one waits here.
  if (waiting_ == 0 && free_ > 0) freed_.notify_all();
}

void ThreadBudget::take_idle() {
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [this] { return free_ > 0 && waiting_ == 0; });
  --free_;
}

bool ThreadBudget::try_take() {
  std::lock_guard lock(mutex_);
  if (waiting_ > 0 || free_ == 0) return false;
  --free_;
  return true;
}

void ThreadBudget::give() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  // Both kinds of waiter: notify_one could wake a take_idle() that may not go while a take()
  // waits, and leave that take() asleep.
  freed_.notify_all();
}

bool ThreadBudget::wanted() const {
  std::lock_guard lock(mutex_);
  return waiting_ > 0;
}

}  // namespace tessera::render
