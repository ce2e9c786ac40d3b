-- Paper 002 (DAE) Fig. 3b: energy against speedup, both normalised to the single-warp
-- Tegra-2-like GPU (tegra2): x = speedup (base cycles over cycles), value = energy.total_nj over
-- the base's. 'Better prefetcher' repeats the points of whichever of the GHB and MTA prefetchers
-- has the higher mean speedup (as in Fig. 3a).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
--
--@ paper: 002
--@ title: Fig. 3b: normalised energy against speedup
--@ chart: scatter
--@ y: energy / one warp
--@ x: speedup
--@ needs: runs of tegra2 and tegra2+<scheme> or tegra2 --set core.max_quads=N
--@ explain: energy.core_nj, energy.memory_nj, energy.static_nj, dae.prefetches (model/schemes/dae/README.md, Measured)
--@ headline: 16 warps | 25 | change | GPU energy, 16 warps per core (Fig. 3b, sec. 3)
--@ headline: DAE, 2 warps | -34 | change | GPU energy, DAE with 2 warps against 16 warps (sec. 3) | over=16 warps
--@ headline: DAE | -9 | change | GPU energy, DAE against the better prefetcher at 1 warp (sec. 3) | over=Better prefetcher
WITH
series(ord, series, config) AS (VALUES
  (0, '2 warps', 'tegra2+core.max_quads=2'),
  (1, '16 warps', 'tegra2+core.max_quads=16'),
  (2, 'GHB prefetcher', 'tegra2+prefetch-ghb'),
  (3, 'MTA prefetcher', 'tegra2+prefetch-mta'),
  (5, 'DAE', 'tegra2+dae'),
  (6, 'DAE, 2 warps', 'tegra2+dae+core.max_quads=2'),
  (7, 'DAE without sharing, 2 warps', 'tegra2+dae-no-sharing+core.max_quads=2'),
  (8, 'Perfect caches', 'tegra2+perfect-l1'),
  (9, 'Perfect memory', 'tegra2+perfect-memory')),
m AS (SELECT * FROM measured_frame_metrics),
per_capture(capture, ord, series, x, value) AS (
  SELECT a.capture, s.ord, s.series, sum(bc.value) / NULLIF(sum(a.value), 0),
         sum(e.value) / NULLIF(sum(be.value), 0)
  FROM series s
  JOIN m a ON a.config = s.config AND a.metric = 'cycles'
  JOIN m bc ON bc.capture = a.capture AND bc.frame = a.frame AND bc.config = 'tegra2'
           AND bc.metric = 'cycles'
  JOIN m e ON e.capture = a.capture AND e.frame = a.frame AND e.config = a.config
          AND e.metric = 'energy.total_nj'
  JOIN m be ON be.capture = a.capture AND be.frame = a.frame AND be.config = 'tegra2'
           AND be.metric = 'energy.total_nj'
  GROUP BY a.capture, s.ord, s.series),
points(capture, ord, series, x, value) AS (
  SELECT capture, ord, series, x, value FROM per_capture
  UNION ALL
  SELECT 'mean', ord, series, avg(x), avg(value) FROM per_capture GROUP BY ord, series),
better(series) AS (
  SELECT series FROM points WHERE capture = 'mean' AND series IN ('GHB prefetcher', 'MTA prefetcher')
  ORDER BY x DESC, series LIMIT 1)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, NULL AS part, x, value FROM points
  UNION ALL
  SELECT capture, 4, 'Better prefetcher', NULL, x, value FROM points WHERE series = (SELECT series FROM better))
ORDER BY capture = 'mean', capture, ord;
