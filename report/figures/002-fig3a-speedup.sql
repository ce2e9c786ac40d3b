-- Paper 002 (DAE) Fig. 3a: speedup of more warps (core.max_quads), of the GHB and MTA
-- prefetchers, of the decoupled access/execute design and of perfect caches (texture only, and
-- pixel and texture: perfect memory), against the single-warp Tegra-2-like GPU (tegra2). 'Better
-- prefetcher' repeats the rows of whichever of the two prefetchers has the higher mean: the
-- paper's "the hardware prefetchers provide an average speedup of up to 1.9x".
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 002
--@ title: Fig. 3a: speedup over one warp per core
--@ chart: bars
--@ y: speedup
--@ rule: 1
--@ needs: runs of tegra2 and tegra2+<scheme> or tegra2 --set core.max_quads=N
--@ explain: core.cycles.texture_wait, dae.prefetches, dae.late, l1tex.prefetch_fills, l1tex.prefetch_hits (model/schemes/dae/README.md, Measured)
--@ headline: Perfect memory | 3.29 | times | speedup, perfect pixel and texture caches (Fig. 3a, sec. 3)
--@ headline: 16 warps | 3.23 | times | speedup, 16 warps per core (Fig. 3a, sec. 3)
--@ headline: Better prefetcher | 1.9 | times | speedup, prefetchers at 1 warp: up to 1.9x (Fig. 3a, sec. 3)
--@ headline: DAE, 2 warps | 93 | percent | DAE with 2 warps: share of the 16-warp performance (Fig. 3, sec. 3) | over=16 warps
--@ headline: DAE | 1.33 | times | DAE over the better prefetcher at 1 warp: 33 % faster (Fig. 3, sec. 3) | over=Better prefetcher
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, '2 warps', 'tegra2+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (1, '16 warps', 'tegra2+core.max_quads=16', 'tegra2', 'cycles', 'speedup'),
  (2, 'GHB prefetcher', 'tegra2+prefetch-ghb', 'tegra2', 'cycles', 'speedup'),
  (3, 'MTA prefetcher', 'tegra2+prefetch-mta', 'tegra2', 'cycles', 'speedup'),
  (5, 'DAE', 'tegra2+dae', 'tegra2', 'cycles', 'speedup'),
  (6, 'DAE, 2 warps', 'tegra2+dae+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (7, 'DAE without sharing, 2 warps', 'tegra2+dae-no-sharing+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (8, 'Perfect caches', 'tegra2+perfect-l1', 'tegra2', 'cycles', 'speedup'),
  (9, 'Perfect memory', 'tegra2+perfect-memory', 'tegra2', 'cycles', 'speedup');
WITH r AS (SELECT * FROM normalised_rows),
better(series) AS (
  SELECT series FROM r WHERE capture = 'mean' AND series IN ('GHB prefetcher', 'MTA prefetcher')
  ORDER BY value DESC, series LIMIT 1)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, part, x, value FROM r
  UNION ALL
  SELECT capture, 4, 'Better prefetcher', part, x, value FROM r WHERE series = (SELECT series FROM better))
ORDER BY capture = 'mean', capture, ord;
