-- What each preset's baseline does with its time and its main-memory traffic (the configuration
-- named by the preset alone): per capture and as the mean over captures, the share of the shader
-- cores' cycles in each state (core.cycles.*: busy, waiting for texture data, for the varying or
-- load/store unit, at a barrier, blocked by blending or the flush, starved), the share of main
-- memory accesses that are tile flushes (dram.flush_share: traffic no texture or Parameter Buffer
-- scheme touches), the memory hierarchy's share of GPU energy, and what a tile writes back
-- (gpu.tile_writeback). Warm frames only when a run has them.
-- Columns: capture ('mean' = arithmetic mean over captures), series (the preset), part, x, value.
WITH
m AS (SELECT * FROM measured_frame_metrics),
-- The presets alone: no scheme, no override.
totals(capture, config, metric, value) AS (
  SELECT capture, config, metric, sum(value) FROM m
  WHERE instr(config, '+') = 0 AND metric IN ('cycles', 'core.cycles.busy', 'core.cycles.texture_wait', 'core.cycles.unit_wait',
                   'core.cycles.barrier_wait', 'core.cycles.blocked', 'core.cycles.starved', 'dram.accesses',
                   'dram.color_flushes', 'energy.memory_nj', 'energy.total_nj')
  GROUP BY capture, config, metric),
parts(part, num, den) AS (VALUES
  ('busy', 'core.cycles.busy', 'cycles'), ('texture_wait', 'core.cycles.texture_wait', 'cycles'),
  ('unit_wait', 'core.cycles.unit_wait', 'cycles'), ('barrier_wait', 'core.cycles.barrier_wait', 'cycles'),
  ('blocked', 'core.cycles.blocked', 'cycles'), ('starved', 'core.cycles.starved', 'cycles'),
  ('flush_share', 'dram.color_flushes', 'dram.accesses'), ('memory_energy_share', 'energy.memory_nj', 'energy.total_nj')),
per_capture(capture, config, part, value) AS (
  SELECT n.capture, n.config, p.part, n.value / d.value
  FROM parts p
  JOIN totals n ON n.metric = p.num
  JOIN totals d ON d.capture = n.capture AND d.config = n.config AND d.metric = p.den
  WHERE d.value > 0),
writeback(config, value) AS (
  SELECT c.name, cp.value FROM config c JOIN config_param cp ON cp.config_id = c.config_id
  WHERE cp.key = 'gpu.tile_writeback')
SELECT capture, series, part, x, value FROM (
  SELECT capture, config AS series, part, NULL AS x, value FROM per_capture
  UNION ALL
  SELECT 'mean', config, part, NULL, avg(value) FROM per_capture GROUP BY config, part
  UNION ALL
  -- 1 when a tile writes back colour only (the papers' tiler), 0 for the pass's store ops.
  SELECT 'mean', config, 'writeback_color', NULL, max(value = 'color') FROM writeback
  WHERE config IN (SELECT config FROM per_capture) GROUP BY config)
ORDER BY series, capture = 'mean', capture, part;
