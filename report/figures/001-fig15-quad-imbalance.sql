-- Paper 001 (DTexL) Fig. 15: mean deviation of quads per shader core per tile, normalised to the
-- mean of the cores (percent), FG-xshift2 (mobile4) against CG-square.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 15: quad-distribution imbalance of the shader cores per tile
--@ chart: bars
--@ y: mean deviation of quads per tile (%)
--@ needs: runs of mobile4 and mobile4+dtexl-group-cg-square with the cores.quad_deviation metric
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'FG-xshift2', 'mobile4', 'cores.quad_deviation', '', 100.0),
  (1, 'CG-square', 'mobile4+dtexl-group-cg-square', 'cores.quad_deviation', '', 100.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
