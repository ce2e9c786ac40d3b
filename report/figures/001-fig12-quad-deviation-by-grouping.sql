-- Paper 001 (DTexL) Fig. 12: normalised mean deviation of quads per shader core per tile, for each
-- quad grouping, normalised to FG-xshift2 (the mobile4 baseline).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 12: mean deviation of quads per core per tile, normalised to FG-xshift2
--@ chart: bars
--@ y: quad deviation / FG-xshift2
--@ rule: 1
--@ needs: runs of mobile4 and mobile4+dtexl-group-<grouping> with the cores.quad_deviation metric
--@ explain: cores.quad_deviation, the per-tile core.<i>.quads (model/schemes/dtexl/README.md, Measured)
--@ headline: CG-xrect | 6 | times | quad deviation, CG-xrect (Fig. 12, sec. V-A)
--@ headline: CG-yrect | 10 | times | quad deviation, CG-yrect (Fig. 12, sec. V-A)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'FG-xshift2', 'mobile4', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (1, 'FG-yshift2', 'mobile4+dtexl-group-fg-yshift2', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (2, 'FG-xshift1', 'mobile4+dtexl-group-fg-xshift1', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (3, 'FG-yshift1', 'mobile4+dtexl-group-fg-yshift1', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (4, 'FG-xstripe', 'mobile4+dtexl-group-fg-xstripe', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (5, 'FG-ystripe', 'mobile4+dtexl-group-fg-ystripe', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (6, 'CG-xrect', 'mobile4+dtexl-group-cg-xrect', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (7, 'CG-yrect', 'mobile4+dtexl-group-cg-yrect', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (8, 'CG-triangle', 'mobile4+dtexl-group-cg-triangle', 'mobile4', 'cores.quad_deviation', 'ratio'),
  (9, 'CG-square', 'mobile4+dtexl-group-cg-square', 'mobile4', 'cores.quad_deviation', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
