// ShaderModule: one SPIR-V entry point, validated, normalised by the SPIRV-Tools optimizer and
// decoded once into a compact register-machine program that ShaderExecutor runs over batches
// of lanes (lanes.h).
//
// Why normalise first: after exhaustive inlining, SSA rewrite and scalar replacement, a shader
// is one function of SSA values, so the interpreter needs no call stack and nearly no memory
// operations; every SSA value becomes a run of scalar registers, each kMaxLanes wide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/shader/lanes.h"
#include "tessera/shader/texture_sampler.h"

namespace tessera::shader {

enum class Stage : uint8_t { Vertex, Fragment, Compute };
enum class ScalarType : uint8_t { Bool, Int32, UInt32, Float32 };

// A specialization constant value, by SpecId, as its 32-bit pattern (VkSpecializationInfo).
struct SpecConstantValue {
  uint32_t spec_id = 0;
  uint32_t bits = 0;
};

// A user Input/Output variable with a Location decoration. The rasterizer interpolates fragment
// inputs slot by slot: slot 4*location + component for each of `location_count` locations.
struct InterfaceVariable {
  std::string name;
  uint32_t location = 0;
  uint32_t component = 0;       // first component (Component decoration)
  uint32_t location_count = 1;  // matrices and arrays use one location per column/element
  uint32_t vector_size = 1;     // components per location
  ScalarType scalar = ScalarType::Float32;
  bool flat = false;
  bool noperspective = false;
  bool centroid = false;
  bool sample = false;  // Sample decoration: interpolated at each sample (per-sample shading)
};

enum class ResourceKind : uint8_t {
  UniformBuffer,
  StorageBuffer,
  CombinedImageSampler,
  SampledImage,
  Sampler,
  StorageImage,
};

// A descriptor the shader uses (DescriptorSet + Binding decorations).
struct ResourceBinding {
  std::string name;
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t array_size = 1;
  ResourceKind kind = ResourceKind::UniformBuffer;
  uint32_t block_size = 0;  // bytes of the declared block (buffers)
  // Buffers: the element of the binding's descriptor array this entry reads. An array of N
  // blocks is N entries, one per descriptor (Vulkan: each element is its own descriptor).
  uint32_t array_element = 0;
};

struct BufferView {
  const std::byte* data = nullptr;
  size_t size = 0;
  // The same bytes for stores and atomics (storage buffers); null when the view is read-only,
  // and then stores to it have no effect.
  std::byte* writable = nullptr;
};

// What one execute() reads and writes besides the lane batch. `buffers` is indexed like
// ShaderModule::resources() (entries for images are ignored). Out-of-range buffer reads return
// 0 and out-of-range stores are dropped rather than fault (robustBufferAccess semantics).
struct Bindings {
  std::span<const BufferView> buffers;
  BufferView push_constants;
  TextureSampler* sampler = nullptr;
  StorageImages* storage_images = nullptr;
  // Compute: the workgroup's Workgroup storage, ShaderInfo::workgroup_words 32-bit words shared by
  // every invocation of the workgroup.
  uint32_t* workgroup_memory = nullptr;
};

struct ShaderInfo {
  Stage stage = Stage::Fragment;
  std::string entry_point;
  // XXH3-128 of the SPIR-V bytes as given, 32 hex digits high half first: the same content
  // hash the capture file uses for the shader blob, so errors can be traced back to it.
  std::string hash;
  std::vector<InterfaceVariable> inputs;
  std::vector<InterfaceVariable> outputs;
  uint32_t push_constant_size = 0;  // 0: no push-constant block
  // Fragment: the pipeline must use late depth testing when either is true (Vulkan spec
  // 28.4 "Early Fragment Test Mode": early tests are only valid when the shader neither
  // writes depth nor discards, unless EarlyFragmentTests is declared).
  bool writes_frag_depth = false;
  bool has_discard = false;
  bool early_fragment_tests = false;
  bool origin_upper_left = true;
  // Fragment built-ins read or written (lanes.h fields the caller then fills or reads). A
  // shader reading SampleId or SamplePosition, or with a Sample-decorated input, is shaded once
  // per sample (spec "Sample Shading").
  bool reads_point_coord = false, reads_sample_id = false, reads_sample_position = false;
  bool reads_sample_mask = false, writes_sample_mask = false;
  bool sample_interpolation = false;
  // Vertex.
  bool writes_point_size = false;
  // Elements of the ClipDistance and CullDistance outputs (their arrays' sizes; 0: none).
  uint32_t clip_distances = 0, cull_distances = 0;
  // Compute: LocalSize / LocalSizeId execution mode, or the WorkgroupSize built-in constant.
  uint32_t local_size[3] = {1, 1, 1};
  uint32_t workgroup_words = 0;  // Workgroup storage, in 32-bit words
  bool has_barrier = false;      // OpControlBarrier present
  // Stores, atomics or image writes: the shader has side effects beyond its outputs.
  bool has_side_effects = false;
  // Size of the normalised program, for reports.
  uint32_t spirv_instruction_count = 0;
  uint32_t register_count = 0;
};

struct Program;  // the decoded form (program.h, internal)

class ShaderModule {
 public:
  // Validates, normalises and decodes. On failure returns null and sets `error` to one line,
  // e.g. "shader 5c1d...(32 hex digits): unsupported opcode OpImageSparseSampleImplicitLod".
  static std::unique_ptr<ShaderModule> create(std::span<const uint32_t> words,
                                              std::string_view entry_point, Stage stage,
                                              std::span<const SpecConstantValue> spec_constants,
                                              std::string& error);
  ~ShaderModule();
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;

  const ShaderInfo& info() const { return info_; }
  const std::vector<ResourceBinding>& resources() const { return resources_; }
  // The normalised SPIR-V the program was decoded from (for inspection and hashing).
  const std::vector<uint32_t>& normalised_spirv() const { return optimised_; }
  const Program& program() const { return *program_; }

 private:
  ShaderModule();
  ShaderInfo info_;
  std::vector<ResourceBinding> resources_;
  std::vector<uint32_t> optimised_;
  std::unique_ptr<Program> program_;
};

// Per-thread execution state for one module: the register file (SoA, kMaxLanes per scalar
// register) with constants preloaded. Create once, call execute() for each batch.
class ShaderExecutor {
 public:
  // Block executions one batch may run before the watchdog stops it (a shader that never
  // terminates). Most shaders run thousands, but a legitimate compute shader may loop over a
  // large buffer in one invocation: 2^24 blocks (a few seconds of one batch, at about 150 ms
  // per million) lets a loop of millions of iterations finish, and bounds the time an endless
  // one costs before the replay stops.
  static constexpr uint64_t kDefaultBlockBudget = uint64_t{1} << 24;
  // `block_budget` lowers the watchdog where a fast verdict matters more than a long shader (the
  // SPIR-V fuzz target, where every looping input would otherwise run 2^24 blocks).
  explicit ShaderExecutor(const ShaderModule& module, uint64_t block_budget = kDefaultBlockBudget);
  ~ShaderExecutor();
  ShaderExecutor(const ShaderExecutor&) = delete;
  ShaderExecutor& operator=(const ShaderExecutor&) = delete;

  // Runs the entry point for batch.lane_count lanes. The dynamic instruction count of a lane
  // is the number of normalised SPIR-V instructions it executed (OpPhi and terminators count;
  // OpLabel and merge declarations do not). Returns false and sets `error` when the bindings
  // are unusable (an image instruction with no sampler bound) or the batch runs more blocks
  // than the executor's budget (a shader that never terminates); batch outputs are then undefined. An
  // OpControlBarrier in a lone batch is passed as soon as all its lanes reach it.
  bool execute(LaneBatch& batch, const Bindings& bindings, std::string& error);

  // The same run in steps, for the batches of one compute workgroup (each with its own
  // executor, so its registers survive): start(), then resume() until Done. Barrier means every
  // live lane of the batch waits at an OpControlBarrier; the caller brings the workgroup's other
  // batches there before resuming any ("OpControlBarrier": all invocations of the workgroup
  // reach it before any continues). `batch` and `bindings` must live until Done or Error.
  enum class Status : uint8_t { Done, Barrier, Error };
  void start(LaneBatch& batch, const Bindings& bindings);
  Status resume(std::string& error);
  // Whether the last run's error was the watchdog's (its block budget spent) rather than
  // unusable bindings: the replay stops on it, where an unusable binding only drops the batch.
  bool watchdog_fired() const;

 private:
  struct State;
  const ShaderModule& module_;
  uint64_t block_budget_;
  std::vector<uint32_t> registers_;
  std::unique_ptr<State> state_;
};

}  // namespace tessera::shader
