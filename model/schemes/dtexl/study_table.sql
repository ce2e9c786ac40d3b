-- The README's table ("Measured") as Markdown rows, from a database of studies/001-dtexl.json,
-- over the frames the report measures (the cold first one left out; the README bolds the mean
-- row's headline columns):
--   tessera query 001.db "$(cat model/schemes/dtexl/study_table.sql)"
-- One row per capture, then the mean over captures: DTexL (HLB-flp2) against mobile4
-- (non-decoupled FG-xshift2) -- L2 and DRAM accesses, the colour flush's share of DRAM accesses on
-- mobile4, speedup (frame cycles), GPU energy; decoupled FG-xshift2's speedup and energy; the
-- four cores' cycles by state (busy / texture wait / barrier wait / blocked / starved, % of the
-- cores' cycles) on mobile4 and with DTexL; both speedups without the flush write buffer
-- (gpu.flush_buffer=0 on all three configurations); and Fig. 10's run-ahead: the mean lead
-- (cores.tile_lead_mean, tiles) of DTexL, of DTexL with raster.runahead_tiles=0 and of decoupled
-- FG-xshift2, and the speedups of DTexL with raster.runahead_tiles=0 and 4 (default 2) and of
-- decoupled FG-xshift2 with 0.
WITH
variant(name, config) AS (VALUES
  ('base', 'mobile4'), ('dtexl', 'mobile4+dtexl'), ('fg', 'mobile4+dtexl-fg-decoupled'),
  ('base0', 'mobile4+gpu.flush_buffer=0'), ('dtexl0', 'mobile4+dtexl+gpu.flush_buffer=0'),
  ('fg0', 'mobile4+dtexl-fg-decoupled+gpu.flush_buffer=0'),
  ('ra0', 'mobile4+dtexl+raster.runahead_tiles=0'), ('ra4', 'mobile4+dtexl+raster.runahead_tiles=4'),
  ('fgra0', 'mobile4+dtexl-fg-decoupled+raster.runahead_tiles=0')),
s AS (
  SELECT m.capture, v.name,
         sum(CASE WHEN m.metric = 'l2.accesses' THEN m.value END) AS l2,
         sum(CASE WHEN m.metric = 'dram.accesses' THEN m.value END) AS dram,
         sum(CASE WHEN m.metric = 'dram.color_flushes' THEN m.value END) AS flushes,
         sum(CASE WHEN m.metric = 'cycles' THEN m.value END) AS cycles,
         sum(CASE WHEN m.metric = 'energy.total_nj' THEN m.value END) AS energy,
         sum(CASE WHEN m.metric = 'core.cycles.busy' THEN m.value END) AS busy,
         sum(CASE WHEN m.metric = 'core.cycles.texture_wait' THEN m.value END) AS tex,
         sum(CASE WHEN m.metric = 'core.cycles.barrier_wait' THEN m.value END) AS barrier,
         sum(CASE WHEN m.metric = 'core.cycles.blocked' THEN m.value END) AS blocked,
         sum(CASE WHEN m.metric = 'core.cycles.starved' THEN m.value END) AS starved,
         sum(CASE WHEN m.metric LIKE 'core.cycles.%' THEN m.value END) AS all_states,
         avg(CASE WHEN m.metric = 'cores.tile_lead_mean' THEN m.value END) AS lead
  FROM measured_frame_metrics m JOIN variant v ON m.config = v.config
  GROUP BY m.capture, v.name),
w AS (
  SELECT capture,
         max(CASE WHEN name = 'dtexl' THEN l2 END) / max(CASE WHEN name = 'base' THEN l2 END) AS l2,
         max(CASE WHEN name = 'dtexl' THEN dram END) / max(CASE WHEN name = 'base' THEN dram END) AS dram,
         max(CASE WHEN name = 'base' THEN flushes / dram END) AS flush_share,
         max(CASE WHEN name = 'base' THEN cycles END) / max(CASE WHEN name = 'dtexl' THEN cycles END) AS speedup,
         max(CASE WHEN name = 'dtexl' THEN energy END) / max(CASE WHEN name = 'base' THEN energy END) AS energy,
         max(CASE WHEN name = 'base' THEN cycles END) / max(CASE WHEN name = 'fg' THEN cycles END) AS fg_speedup,
         max(CASE WHEN name = 'fg' THEN energy END) / max(CASE WHEN name = 'base' THEN energy END) AS fg_energy,
         max(CASE WHEN name = 'base' THEN printf('%.0f/%.0f/%.0f/%.0f/%.0f', 100 * busy / all_states,
             100 * tex / all_states, 100 * barrier / all_states, 100 * blocked / all_states,
             100 * starved / all_states) END) AS base_states,
         max(CASE WHEN name = 'dtexl' THEN printf('%.0f/%.0f/%.0f/%.0f/%.0f', 100 * busy / all_states,
             100 * tex / all_states, 100 * barrier / all_states, 100 * blocked / all_states,
             100 * starved / all_states) END) AS dtexl_states,
         max(CASE WHEN name = 'base0' THEN cycles END) / max(CASE WHEN name = 'dtexl0' THEN cycles END) AS speedup0,
         max(CASE WHEN name = 'base0' THEN cycles END) / max(CASE WHEN name = 'fg0' THEN cycles END) AS fg_speedup0,
         max(CASE WHEN name = 'dtexl' THEN lead END) AS lead,
         max(CASE WHEN name = 'ra0' THEN lead END) AS lead_ra0,
         max(CASE WHEN name = 'fg' THEN lead END) AS lead_fg,
         max(CASE WHEN name = 'base' THEN cycles END) / max(CASE WHEN name = 'ra0' THEN cycles END) AS speedup_ra0,
         max(CASE WHEN name = 'base' THEN cycles END) / max(CASE WHEN name = 'ra4' THEN cycles END) AS speedup_ra4,
         max(CASE WHEN name = 'base' THEN cycles END) / max(CASE WHEN name = 'fgra0' THEN cycles END) AS fg_speedup_ra0
  FROM s GROUP BY capture),
rows(ord, capture, l2, dram, flush_share, speedup, energy, fg_speedup, fg_energy, base_states, dtexl_states,
     speedup0, fg_speedup0, lead, lead_ra0, lead_fg, speedup_ra0, speedup_ra4, fg_speedup_ra0) AS (
  SELECT 0, capture, l2, dram, flush_share, speedup, energy, fg_speedup, fg_energy, base_states, dtexl_states,
         speedup0, fg_speedup0, lead, lead_ra0, lead_fg, speedup_ra0, speedup_ra4, fg_speedup_ra0 FROM w
  UNION ALL
  SELECT 1, '**mean**', avg(l2), avg(dram), avg(flush_share), avg(speedup), avg(energy), avg(fg_speedup),
         avg(fg_energy), '', '', avg(speedup0), avg(fg_speedup0), avg(lead), avg(lead_ra0), avg(lead_fg),
         avg(speedup_ra0), avg(speedup_ra4), avg(fg_speedup_ra0) FROM w)
SELECT printf('| %s | %+.1f %% | %+.1f %% | %.1f | %.3fx | %+.1f %% | %.3fx | %+.1f %% | %s | %s | %.3fx / %.3fx | %.2f / %.2f / %.2f | %.3fx / %.3fx / %.3fx |',
              replace(replace(capture, 'captures/', ''), '-1960x768.tcap', ''), 100 * (l2 - 1), 100 * (dram - 1),
              100 * flush_share, speedup, 100 * (energy - 1), fg_speedup, 100 * (fg_energy - 1), base_states,
              dtexl_states, speedup0, fg_speedup0, lead, lead_ra0, lead_fg, speedup_ra0, speedup_ra4,
              fg_speedup_ra0) AS markdown
FROM rows ORDER BY ord, capture;
