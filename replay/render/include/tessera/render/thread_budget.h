// Threads shared by the work of one process: a study shades frame i+1 while the GPU model runs
// frame i, and both draw from one budget of --threads threads, so the machine is not
// oversubscribed (a model thread time-sliced with tile threads would stretch the chain of frames
// every configuration must simulate in order).
#pragma once

#include <condition_variable>
#include <mutex>

namespace tessera::render {

class ThreadBudget {
 public:
  // `threads` threads (at least 1), all free.
  explicit ThreadBudget(unsigned threads);
  ThreadBudget(const ThreadBudget&) = delete;
  ThreadBudget& operator=(const ThreadBudget&) = delete;

  unsigned threads() const { return threads_; }
  // Waits for a free thread and takes it. A waiter is served before try_take() callers.
  void take();
  // Takes a free thread when one is free and nobody waits in take(); false otherwise.
  bool try_take();
  // Waits until a thread is free and nobody waits in take(), and takes it: work that may wait
  // (it is not on the longest path) runs on what would otherwise idle, and makes no helper
  // leave for it (wanted() stays false).
  void take_idle();
  // Gives a taken thread back.
  void give();
  // Whether someone waits in take(): elastic work (the tiles of a pass, which the calling thread
  // finishes alone if need be) gives a helper's thread back between two tiles.
  bool wanted() const;

 private:
  const unsigned threads_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  unsigned free_ = 0;
  unsigned waiting_ = 0;
};

}  // namespace tessera::render
