// One compute workgroup (SPIR-V GLCompute execution model): LocalSize invocations in batches of
// kMaxLanes lanes, each batch with its own ShaderExecutor so its registers survive a barrier.
// The batches run in turns: each runs until every one of its live lanes waits at an
// OpControlBarrier (or has finished), and only when every batch got there do they go on, so
// "all invocations of the workgroup reach the barrier before any continues" holds, and every
// Workgroup storage write before a barrier is seen after it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/shader/shader_module.h"

namespace tessera::shader {

class WorkgroupExecutor {
 public:
  // `block_budget`: each batch's watchdog (ShaderExecutor).
  explicit WorkgroupExecutor(const ShaderModule& module,
                             uint64_t block_budget = ShaderExecutor::kDefaultBlockBudget);
  ~WorkgroupExecutor();
  WorkgroupExecutor(const WorkgroupExecutor&) = delete;
  WorkgroupExecutor& operator=(const WorkgroupExecutor&) = delete;

  // Runs workgroup `workgroup_id` (base included, vkCmdDispatchBase) of a dispatch of
  // `num_workgroups`. Workgroup storage starts zeroed. False with a one-line `error` when a batch
  // fails (the workgroup's writes so far stay).
  bool run(const uint32_t workgroup_id[3], const uint32_t num_workgroups[3], const Bindings& bindings,
           std::string& error);
  // Whether the last run failed on a batch's watchdog (ShaderExecutor::watchdog_fired).
  bool watchdog_fired() const { return watchdog_fired_; }
  uint32_t invocations() const { return invocations_; }
  // Dynamic SPIR-V instructions of every invocation of the last run.
  uint64_t instructions() const { return instructions_; }

 private:
  uint32_t invocations_ = 0;
  std::vector<std::unique_ptr<ShaderExecutor>> executors_;
  std::vector<std::unique_ptr<LaneBatch>> batches_;
  std::vector<uint32_t> workgroup_memory_;
  uint64_t instructions_ = 0;
  bool watchdog_fired_ = false;
};

}  // namespace tessera::shader
