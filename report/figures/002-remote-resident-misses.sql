-- Paper 002 (DAE) section 3: share of L1 misses (pixel and texture caches) whose block another
-- pixel processor's cache holds, on the single-warp Tegra-2-like GPU (tegra2).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'tegra2', 'tegra2', 'l1tex.misses_remote_resident', 'l1tex.misses', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
