// Parameter registry of the GPU model: every parameter has a dotted name (`l1tex.size`), a type,
// a default, a one-line description and its valid range or choices. A ParamSet holds one full
// configuration: start from defaults or a named preset (docs/model.md, "Presets"), override with
// `key=value` strings or a config file, serialise to `key=value` text to store with results.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tessera::model {

// Bad key, bad value, bad preset: the message is one line naming the key and the problem.
class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ParamType { Int, Float, Bool, String };
std::string_view param_type_name(ParamType type);

using ParamValue = std::variant<int64_t, double, bool, std::string>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Int;
  std::string default_value;  // in the text form accepted by ParamSet::set
  std::string description;    // one line
  double min = 0;             // Int and Float: inclusive range
  double max = 0;
  std::vector<std::string> choices;  // String: allowed values (empty = any)
};

// A spec of each type, for registering parameters (the model's and the schemes').
inline constexpr double kMaxIntParam = 9.0e18;
ParamSpec int_param(std::string name, std::string def, std::string desc, double min, double max = kMaxIntParam);
ParamSpec float_param(std::string name, std::string def, std::string desc, double min, double max);
ParamSpec bool_param(std::string name, std::string def, std::string desc);
ParamSpec string_param(std::string name, std::string def, std::string desc, std::vector<std::string> choices);

class ParamRegistry {
 public:
  // Adds a parameter; throws ParamError on a duplicate name or an invalid default.
  void add(ParamSpec spec);
  const ParamSpec* find(std::string_view name) const;
  const std::vector<ParamSpec>& all() const { return specs_; }

  // The parameters of the GPU model (GPU, queues, caches, DRAM, energy, statistics). Later
  // components copy it and add their own.
  static const ParamRegistry& model();

 private:
  std::vector<ParamSpec> specs_;
  std::map<std::string, size_t, std::less<>> index_;
};

class ParamSet {
 public:
  // All parameters at their defaults. The registry must outlive the set.
  explicit ParamSet(const ParamRegistry& registry = ParamRegistry::model());

  // Throws ParamError: unknown parameter (with the nearest known name), or a bad value.
  void set(std::string_view name, std::string_view value);
  // "key=value" (spaces around both trimmed), as given to --set.
  void apply(std::string_view assignment);
  // A config file or stored configuration: one key=value per line, '#' comments, blank lines.
  // Errors name `origin` and the line number.
  void apply_text(std::string_view text, std::string_view origin);

  int64_t get_int(std::string_view name) const;
  uint32_t get_u32(std::string_view name) const;
  double get_float(std::string_view name) const;
  bool get_bool(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;
  // The value in canonical text form.
  std::string text(std::string_view name) const;

  // Every parameter as `key=value` lines in name order; apply_text of this text on a fresh set
  // reproduces this set exactly.
  std::string to_text() const;
  const ParamRegistry& registry() const { return *registry_; }

  bool operator==(const ParamSet& other) const { return values_ == other.values_; }

 private:
  const ParamValue& value(std::string_view name, ParamType type) const;

  const ParamRegistry* registry_;
  std::map<std::string, ParamValue, std::less<>> values_;
};

// Presets of docs/model.md, "Presets".
struct PresetInfo {
  std::string_view name;
  std::string_view description;
};
std::vector<PresetInfo> presets();
// Defaults with the preset's values applied; throws ParamError for an unknown preset name.
ParamSet make_preset(std::string_view name, const ParamRegistry& registry = ParamRegistry::model());

}  // namespace tessera::model
