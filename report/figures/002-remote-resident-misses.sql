-- Paper 002 (DAE) section 3: share of L1 misses (pixel and texture caches) whose block another
-- pixel processor's cache holds, on the single-warp Tegra-2-like GPU (tegra2).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 002
--@ title: Sec. 3: L1 misses whose block another core's cache holds
--@ chart: bars
--@ y: share of L1 misses
--@ needs: runs of tegra2 with the l1tex.misses_remote_resident metric
--@ explain: l1tex.misses_remote_resident, replication.avg (model/schemes/dae/README.md, Measured)
--@ headline: tegra2 | 66.3 | percent | misses another pixel processor's cache could serve (sec. 3)
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'tegra2', 'tegra2', 'l1tex.misses_remote_resident', 'l1tex.misses', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
