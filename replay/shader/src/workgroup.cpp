#include "tessera/shader/workgroup.h"

#include <algorithm>
#include <cstring>

namespace tessera::shader {

WorkgroupExecutor::WorkgroupExecutor(const ShaderModule& module, uint64_t block_budget) {
  const uint32_t* size = module.info().local_size;
  invocations_ = size[0] * size[1] * size[2];
  const uint32_t batches = (invocations_ + kMaxLanes - 1) / kMaxLanes;
  for (uint32_t b = 0; b < batches; ++b) {
    executors_.push_back(std::make_unique<ShaderExecutor>(module, block_budget));
    auto batch = std::make_unique<LaneBatch>();
    std::memset(static_cast<void*>(batch.get()), 0, sizeof(LaneBatch));
    batch->lane_count = std::min(kMaxLanes, invocations_ - b * kMaxLanes);
    // Local invocation b * 64 + lane: x fastest, then y, then z (LocalInvocationIndex order).
    for (uint32_t lane = 0; lane < batch->lane_count; ++lane) {
      const uint32_t index = b * kMaxLanes + lane;
      batch->local_invocation_id[0][lane] = index % size[0];
      batch->local_invocation_id[1][lane] = index / size[0] % size[1];
      batch->local_invocation_id[2][lane] = index / (size[0] * size[1]);
    }
    for (uint32_t k = 0; k < 3; ++k) batch->workgroup_size[k] = size[k];
    batches_.push_back(std::move(batch));
  }
  workgroup_memory_.resize(module.info().workgroup_words);
}

WorkgroupExecutor::~WorkgroupExecutor() = default;

bool WorkgroupExecutor::run(const uint32_t workgroup_id[3], const uint32_t num_workgroups[3], const Bindings& bindings,
                            std::string& error) {
  watchdog_fired_ = false;
  std::fill(workgroup_memory_.begin(), workgroup_memory_.end(), 0u);
  Bindings local = bindings;
  local.workgroup_memory = workgroup_memory_.data();
  for (size_t b = 0; b < batches_.size(); ++b) {
    for (uint32_t k = 0; k < 3; ++k) {
      batches_[b]->workgroup_id[k] = workgroup_id[k];
      batches_[b]->num_workgroups[k] = num_workgroups[k];
    }
    executors_[b]->start(*batches_[b], local);
  }
  // Rounds: every batch runs to its next barrier (or its end); then the next round.
  std::vector<bool> done(batches_.size(), false);
  for (bool waiting = true; waiting;) {
    waiting = false;
    for (size_t b = 0; b < batches_.size(); ++b) {
      if (done[b]) continue;
      switch (executors_[b]->resume(error)) {
        case ShaderExecutor::Status::Done: done[b] = true; break;
        case ShaderExecutor::Status::Barrier: waiting = true; break;
        case ShaderExecutor::Status::Error:
          watchdog_fired_ = executors_[b]->watchdog_fired();
          return false;
      }
    }
  }
  instructions_ = 0;
  for (const auto& batch : batches_)
    for (uint32_t lane = 0; lane < batch->lane_count; ++lane) instructions_ += batch->instruction_count[lane];
  return true;
}

}  // namespace tessera::shader
