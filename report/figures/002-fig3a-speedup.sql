-- Paper 002 (DAE) Fig. 3a: speedup of more warps (core.max_quads), of a GHB prefetcher, of the
-- decoupled access/execute design and of perfect caches, against the single-warp Tegra-2-like
-- GPU (tegra2).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 002
--@ title: Fig. 3a: speedup over one warp per core
--@ chart: bars
--@ y: speedup
--@ rule: 1
--@ needs: runs of tegra2 and tegra2+<scheme> or tegra2 --set core.max_quads=N
--@ headline: Perfect caches | 3.29 | times | speedup, perfect caches (Fig. 3a, sec. 3)
--@ headline: 16 warps | 3.23 | times | speedup, 16 warps per core (Fig. 3a, sec. 3)
--@ headline: GHB prefetcher | 1.9 | times | speedup, prefetchers at 1 warp: up to 1.9x (Fig. 3a, sec. 3)
--@ headline: DAE, 2 warps | 93 | percent | DAE with 2 warps: share of the 16-warp performance (Fig. 3, sec. 3) | over=16 warps
--@ headline: DAE | 1.33 | times | DAE over the GHB prefetcher at 1 warp: 33 % faster (Fig. 3, sec. 3) | over=GHB prefetcher
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, '2 warps', 'tegra2+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (1, '16 warps', 'tegra2+core.max_quads=16', 'tegra2', 'cycles', 'speedup'),
  (2, 'GHB prefetcher', 'tegra2+prefetch-ghb', 'tegra2', 'cycles', 'speedup'),
  (3, 'DAE', 'tegra2+dae', 'tegra2', 'cycles', 'speedup'),
  (4, 'DAE, 2 warps', 'tegra2+dae+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (5, 'DAE without sharing, 2 warps', 'tegra2+dae-no-sharing+core.max_quads=2', 'tegra2', 'cycles', 'speedup'),
  (6, 'Perfect caches', 'tegra2+perfect-l1', 'tegra2', 'cycles', 'speedup');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
