#include "tessera/model/timeline.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "tessera/model/gpu_model.h"

namespace tessera::model {

static_assert(Timeline::kStates == kCoreStates, "a core track has a series per CoreState");

namespace {

const char* unit_name(Timeline::Unit u) {
  switch (u) {
    case Timeline::Unit::Rasterizer: return "rasterizer";
    case Timeline::Unit::Flush: return "flush";
    case Timeline::Unit::L2Bank: return "L2 bank";
    case Timeline::Unit::DramBank: return "DRAM bank";
  }
  return "?";
}

// A JSON string (the names are ours and the capture's; escape what JSON requires).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// Microseconds to the nanosecond: a bin of a few cycles stays apart from the next late in a frame.
std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

Timeline::Timeline(uint64_t bin_cycles) : bin_(bin_cycles) {
  if (bin_cycles == 0) throw std::invalid_argument("timeline: a bin must be at least one cycle");
}

void Timeline::begin_frame(uint64_t origin) {
  origin_ = origin;
  cores_.clear();
  for (auto& u : units_) u.clear();
  queue_max_.clear();
  queue_level_.clear();
  phases_.clear();
}

void Timeline::fragment_queue(uint32_t core, uint64_t t, uint32_t n) {
  if (t < origin_) return;
  if (queue_max_.size() <= core) {
    queue_max_.resize(core + 1);
    queue_level_.resize(core + 1, 0);
  }
  std::vector<uint32_t>& q = queue_max_[core];
  const size_t bin = static_cast<size_t>((t - origin_) / bin_);
  // The queue held its last level through the bins with no event, and until this one in its bin.
  const uint32_t level = queue_level_[core];
  const size_t from = q.size();
  if (q.size() <= bin) q.resize(bin + 1, 0);
  for (size_t k = from; k < bin; ++k) q[k] = level;
  q[bin] = std::max({q[bin], level, n});
  queue_level_[core] = n;
}

void Timeline::phase(std::string name, uint64_t from, uint64_t to) {
  phases_.push_back(Phase{std::move(name), std::max(from, origin_) - origin_, std::max(to, origin_) - origin_});
}

uint64_t Timeline::core_total(uint32_t core, CoreState s) const {
  if (core >= cores_.size()) return 0;
  uint64_t sum = 0;
  for (uint64_t v : cores_[core][static_cast<size_t>(s)]) sum += v;
  return sum;
}

uint64_t Timeline::unit_total(Unit u, uint32_t index, Activity a) const {
  const auto& units = units_[static_cast<size_t>(u)];
  if (index >= units.size()) return 0;
  uint64_t sum = 0;
  for (uint64_t v : units[index][static_cast<size_t>(a)]) sum += v;
  return sum;
}

void Timeline::write_json(std::ostream& out, double gpu_mhz, const std::string& title) const {
  // Timestamps in microseconds (the format's unit): cycle / MHz.
  const auto us = [&](uint64_t cycles) { return number(static_cast<double>(cycles) / gpu_mhz); };
  bool first = true;
  const auto event = [&](const std::string& body) {
    out << (first ? "\n" : ",\n") << '{' << body << '}';
    first = false;
  };
  const auto meta = [&](int pid, int tid, const char* what, const std::string& name) {
    event("\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"name\":\"" + what +
          "\",\"args\":{\"name\":" + quoted(name) + "}");
  };
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":" << quoted(title)
      << ",\"bin_cycles\":" << bin_ << ",\"gpu_mhz\":" << number(gpu_mhz) << "},\"traceEvents\":[";
  meta(1, 0, "process_name", title);
  meta(1, 0, "thread_name", "phases");
  for (const Phase& p : phases_) {
    event("\"ph\":\"X\",\"pid\":1,\"tid\":0,\"name\":" + quoted(p.name) + ",\"ts\":" + us(p.from) +
          ",\"dur\":" + us(p.to - p.from));
  }
  // Counter events: one per track and bin that has any cycles (a counter holds its value until
  // the next event, so a bin after an empty stretch first writes zeros).
  const auto counters = [&](const std::string& name, const std::vector<const Bins*>& series,
                            const std::vector<const char*>& labels) {
    size_t bins = 0;
    for (const Bins* b : series) bins = std::max(bins, b->size());
    bool zero = true;
    for (size_t k = 0; k <= bins; ++k) {
      std::string args;
      bool any = false;
      for (size_t i = 0; i < series.size(); ++i) {
        const uint64_t v = k < series[i]->size() ? (*series[i])[k] : 0;
        any = any || v != 0;
        args += std::string(i ? "," : "") + "\"" + labels[i] + "\":" + std::to_string(v);
      }
      if (!any && zero) continue;
      zero = !any;
      event("\"ph\":\"C\",\"pid\":1,\"name\":" + quoted(name) + ",\"ts\":" + us(k * bin_) + ",\"args\":{" + args + "}");
    }
  };
  std::vector<const char*> states;
  for (uint32_t s = 0; s < kCoreStates; ++s) states.push_back(core_state_name(static_cast<CoreState>(s)));
  for (size_t c = 0; c < cores_.size(); ++c) {
    std::vector<const Bins*> series;
    for (const Bins& b : cores_[c]) series.push_back(&b);
    counters("shader core " + std::to_string(c) + " (cycles per " + std::to_string(bin_) + ")", series, states);
  }
  for (size_t c = 0; c < queue_max_.size(); ++c) {
    Bins q(queue_max_[c].begin(), queue_max_[c].end());
    counters("fragment queue " + std::to_string(c) + " (most quads)", {&q}, {"quads"});
  }
  for (uint32_t u = 0; u < kUnits; ++u) {
    for (size_t i = 0; i < units_[u].size(); ++i) {
      const auto& a = units_[u][i];
      counters(std::string(unit_name(static_cast<Unit>(u))) + " " + std::to_string(i) + " (cycles per " +
                   std::to_string(bin_) + ")",
               {&a[0], &a[1]}, {"busy", "stall"});
    }
  }
  out << "\n]}\n";
}

}  // namespace tessera::model
