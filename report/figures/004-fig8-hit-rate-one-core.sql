-- Paper 004 (TFM) Fig. 8 as the paper measured it: one texturing unit walking the screen in
-- scanline order (its Mesa traces), here one shader core (gpu.shader_cores=1) visiting the tiles
-- row by row (gpu.tile_order=scanline); the series of 004-fig8-hit-rate on that run. Quads still
-- follow each primitive within a tile, not whole screen rows.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 004
--@ title: Fig. 8 on one core in scanline tile order: hit rate of the first texture memory level
--@ chart: bars
--@ y: hit rate
--@ needs: runs of mobile-256k+VARIANT+gpu.shader_cores=1+gpu.tile_order=scanline (studies/004-tfm.json)
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'L1 16 KiB 2-way', 'mobile-256k+conventional-tu+gpu.shader_cores=1+gpu.tile_order=scanline', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (1, 'L1 512 B direct-mapped', 'mobile-256k+l1-dm512+gpu.shader_cores=1+gpu.tile_order=scanline', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (2, 'Filter 512 B direct-mapped', 'mobile-256k+filter-dm512+gpu.shader_cores=1+gpu.tile_order=scanline', 'tfm.hits', 'tfm.accesses', 1.0),
  (3, 'Filter 512 B fully assoc.', 'mobile-256k+filter-fa512+gpu.shader_cores=1+gpu.tile_order=scanline', 'tfm.hits', 'tfm.accesses', 1.0),
  (4, 'TFM', 'mobile-256k+tfm+gpu.shader_cores=1+gpu.tile_order=scanline', 'tfm.hits', 'tfm.accesses', 1.0),
  (5, 'L1 16 KiB 2-way, per line (ours)', 'mobile-256k+gpu.shader_cores=1+gpu.tile_order=scanline', 'l1tex.hits', 'l1tex.accesses', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
