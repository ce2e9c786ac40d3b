// libFuzzer target for the text users type or write: configuration specs (`--config`), `--set`
// values and configuration files, `--max-memory` sizes, sweep files (JSON, then their configuration grid), frame
// ranges, configuration names as the report takes them apart, and the report's figure and paper
// files (SQL with catalogue lines). Each must parse or throw its documented one-line error;
// any other exception, crash or sanitizer report is a finding.
//
// Input: byte 0 picks the parser, the rest is its text.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "config_spec.h"
#include "report_catalogue.h"
#include "sweep_file.h"
#include "sweep_plan.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/capture/frame_range.h"
#include "tessera/model/configuration.h"
#include "tessera/model/params.h"

using namespace tessera;

namespace {

std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    out.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (data[0] % 8) {
      case 0: (void)model::parse_configuration(text); break;
      case 1: {  // first line the spec, each further line a --set value
        std::vector<std::string> l = lines(text);
        const std::string spec = l.front();
        l.erase(l.begin());
        (void)model::build_configurations({spec}, "", "", l);
        break;
      }
      case 2: (void)model::build_configurations({"mobile4"}, text, "fuzz.cfg", {}); break;
      case 3: {
        const sweep::SweepFile file = sweep::parse_sweep_file(text, "/fuzz/sweep.json");
        (void)sweep::sweep_configs(file);
        break;
      }
      case 4: {
        uint32_t first = 0, last = 0;
        std::string why;
        if (capture::parse_frame_range(text, &first, &last, &why) && (first == 0 || first > last)) __builtin_trap();
        break;
      }
      case 5: (void)report::ConfigSpec::parse(std::string(text)); break;
      case 6: {  // a figure file, then the same text as paper 001's file
        (void)report::parse_catalogue({{"001-fig99-fuzz", std::string(text)}}, {});
        (void)report::parse_catalogue({}, {{"001", std::string(text)}});
        break;
      }
      case 7: {  // --max-memory
        uint64_t bytes = 0;
        std::string why;
        if (!frontend::parse_memory_size(text, &bytes, &why) && why.empty()) __builtin_trap();
        break;
      }
    }
  } catch (const model::ParamError&) {
  } catch (const sweep::SweepError&) {
  } catch (const report::CatalogueError&) {
  } catch (const std::invalid_argument&) {
    if (data[0] % 8 != 5) throw;  // only ConfigSpec::parse documents it
  }
  return 0;
}
