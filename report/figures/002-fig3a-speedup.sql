-- Paper 002 (DAE) Fig. 3a: speedup of more warps (core.max_quads), of a GHB prefetcher, of the
-- decoupled access/execute design and of perfect caches, against the single-warp Tegra-2-like
-- GPU (tegra2).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
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
