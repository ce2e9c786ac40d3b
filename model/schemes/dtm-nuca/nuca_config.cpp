#include "dtm-nuca/nuca_config.h"

#include <string>
#include <vector>

#include "tessera/model/busy_calendar.h"

namespace tessera::model::dtm_nuca {

namespace {

// The nuca.* parameters an organisation has no use for, and why. Setting one away from its
// default is refused: a parameter that does nothing would be a silent no-op.
struct Unused {
  Organisation organisation;
  std::vector<const char*> names;
  const char* why;
};

const std::vector<Unused>& unused_params() {
  static const std::vector<Unused> table = {
      {Organisation::DtmNuca, {"nuca.directory_latency"}, "only d-nuca has a directory"},
      {Organisation::DtmNucaDist, {"nuca.owner_lookup"}, "each node reads its own table with the tag probe (paper 000 IV-B)"},
      {Organisation::DtmNucaDist,
       {"nuca.table_latency", "nuca.directory_latency"},
       "each node reads its own Affinity Table inside the node: there is no table node (paper 000 IV-B)"},
      {Organisation::DNuca,
       {"nuca.buckets", "nuca.counter_bits", "nuca.page_blocks", "nuca.epoch_accesses", "nuca.count_hits",
        "nuca.hysteresis", "nuca.table_latency", "nuca.owner_lookup", "nuca.requester_fill"},
       "it has no Affinity Table: its directory names the holder of each block (paper 000 VI)"},
  };
  return table;
}

void refuse_unused(const ParamSet& p, Organisation organisation) {
  const ParamSet defaults(p.registry());
  for (const Unused& u : unused_params()) {
    if (u.organisation != organisation) continue;
    for (const char* name : u.names) {
      if (p.text(name) == defaults.text(name)) continue;
      throw ParamError(std::string(name) + "=" + p.text(name) + " does nothing with nuca.organisation=" +
                       organisation_name(organisation) + " (" + u.why + "); leave it at " + defaults.text(name));
    }
  }
}

// A link books a packet's flits in its calendar (busy_calendar.h), at most kWindow cycles: the
// largest dtm-nuca-dist synchronisation packet the parameter ranges allow must fit, or a run could
// fail half-way (65536 buckets x (1 + 16) bits in 1 B flits: 139,265 flits of 2^20).
static_assert(DistributedAffinityTables::sync_packet_flits(DistributedTablesConfig{
                  1, kMaxBuckets, kMaxCounterBits, 1, 1, kMinFlitBytes, 0}) <= BusyCalendar::kWindow,
              "a synchronisation packet the nuca.* parameters allow exceeds a link's booking window");

}  // namespace

const char* organisation_name(Organisation organisation) {
  switch (organisation) {
    case Organisation::DtmNuca: return "dtm-nuca";
    case Organisation::DtmNucaDist: return "dtm-nuca-dist";
    case Organisation::DNuca: return "d-nuca";
  }
  return "?";
}

std::vector<std::string> organisation_names() {
  return {organisation_name(Organisation::DtmNuca), organisation_name(Organisation::DtmNucaDist),
          organisation_name(Organisation::DNuca)};
}

std::vector<ParamSpec> params() {
  return {
      string_param("nuca.organisation", "dtm-nuca",
                   "NUCA of the L1 texture caches: centralized or distributed Affinity Table, or the D-NUCA bound (paper "
                   "000 sections IV-A, IV-B, VI; the variants set it)",
                   organisation_names()),
      int_param("nuca.buckets", "32", "buckets in the Affinity Table (paper 000 Table I)", 1, kMaxBuckets),
      int_param("nuca.counter_bits", "4", "bits of each affinity saturating counter (Table I)", 1, kMaxCounterBits),
      int_param("nuca.page_blocks", "8", "consecutive blocks per page; pages map to buckets modulo nuca.buckets (Table I)", 1,
                1 << 20),
      int_param("nuca.hop_latency", "1", "cycles per hop on the 2D mesh between texture caches (Table I)", 0, 1000),
      int_param("nuca.epoch_accesses", "20000",
                "texture accesses per epoch; at its end counters reset and ownership is recomputed (Table I)", 1,
                static_cast<double>(kMaxEpochAccesses)),
      int_param("nuca.hysteresis", "25",
                "percent by which a saturating counter must exceed the owner's to take its bucket (our choice: the paper "
                "gives none)",
                0, 1000),
      bool_param("nuca.count_hits", "true",
                 "every texture access increments its processor's affinity counter (III-B); false: only the local misses "
                 "that ask for an owner (III-A)"),
      int_param("nuca.mesh_cols", "0", "mesh columns; 0 = most square rows x cols with rows <= cols (must divide the cores)", 0,
                1 << 16),
      int_param("nuca.flit_bytes", "64",
                "bytes per mesh flit (link width, one flit per cycle); a packet is a head flit plus its payload in flits",
                kMinFlitBytes, 1024),
      int_param("nuca.router_buffer", "4",
                "packets each mesh router input port holds (virtual cut-through, a slot per packet; a full one "
                "back-pressures the hop before it); 0 = unbounded. Ours: the paper gives none; 4 is gem5 Garnet 2.0's "
                "default of 4 virtual channels per virtual network, a packet each (here one network carries requests, "
                "answers and lines)",
                0, InputBuffer::kMaxCapacity),
      int_param("nuca.table_latency", "1",
                "cycles from the centralized Affinity Table taking a request to its answer (it takes one per cycle)", 1, 1000),
      bool_param("nuca.owner_lookup", "false",
                 "a local miss of the bucket's owner asks the centralized table before reading L2 (false: the owner, "
                 "which knows its buckets as III-B's LRU rule needs, reads L2 at once)"),
      bool_param("nuca.requester_fill", "false",
                 "our sensitivity, not the paper's: a line served by a remote L1 is also put in the requester's L1, at "
                 "the LRU position (needs l1tex.policy=lru)"),
      int_param("nuca.directory_latency", "2",
                "cycles from the d-nuca directory taking a lookup to its answer (it takes one per cycle)", 1, 1000),
  };
}

DtmNucaConfig DtmNucaConfig::from_params(const ParamSet& p) {
  DtmNucaConfig c;
  const std::string& organisation = p.get_string("nuca.organisation");
  for (Organisation o : {Organisation::DtmNuca, Organisation::DtmNucaDist, Organisation::DNuca}) {
    if (organisation == organisation_name(o)) c.organisation = o;
  }
  c.buckets = p.get_u32("nuca.buckets");
  c.counter_bits = p.get_u32("nuca.counter_bits");
  c.page_blocks = p.get_u32("nuca.page_blocks");
  c.hop_latency = p.get_u32("nuca.hop_latency");
  c.epoch_accesses = static_cast<uint64_t>(p.get_int("nuca.epoch_accesses"));
  c.hysteresis_pct = p.get_u32("nuca.hysteresis");
  c.count_hits = p.get_bool("nuca.count_hits");
  c.mesh_cols = p.get_u32("nuca.mesh_cols");
  c.flit_bytes = p.get_u32("nuca.flit_bytes");
  c.router_buffer = p.get_u32("nuca.router_buffer");
  c.table_latency = p.get_u32("nuca.table_latency");
  c.directory_latency = p.get_u32("nuca.directory_latency");
  c.owner_lookup = p.get_bool("nuca.owner_lookup");
  c.requester_fill = p.get_bool("nuca.requester_fill");
  refuse_unused(p, c.organisation);
  return c;
}

AffinityTableConfig DtmNucaConfig::table(uint32_t processors) const {
  return AffinityTableConfig{processors, buckets, counter_bits, page_blocks, hysteresis_pct, epoch_accesses};
}

DistributedTablesConfig DtmNucaConfig::distributed_tables(uint32_t processors) const {
  return DistributedTablesConfig{processors, buckets, counter_bits, page_blocks, epoch_accesses, flit_bytes, hysteresis_pct};
}

}  // namespace tessera::model::dtm_nuca
