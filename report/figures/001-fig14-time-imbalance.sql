-- Paper 001 (DTexL) Fig. 14: mean deviation of shader-core execution time per tile, normalised to
-- the mean of the cores (percent), FG-xshift2 (mobile4) against CG-square. The paper draws the
-- per-tile distribution as violins; the results database holds its per-frame mean.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 14: execution-time imbalance of the shader cores per tile
--@ chart: bars
--@ y: mean deviation of core time per tile (%)
--@ needs: runs of mobile4 and mobile4+dtexl-group-cg-square with the cores.imbalance metric
--@ explain: cores.imbalance, core.cycles.barrier_wait (model/schemes/dtexl/README.md, Measured)
--@ headline: FG-xshift2 | 5 | points | core time deviation, FG-xshift2: about 5 % (Fig. 14, sec. V-B)
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'FG-xshift2', 'mobile4', 'cores.imbalance', '', 100.0),
  (1, 'CG-square', 'mobile4+dtexl-group-cg-square', 'cores.imbalance', '', 100.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
