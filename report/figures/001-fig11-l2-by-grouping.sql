-- Paper 001 (DTexL) Fig. 11: L2 accesses of each quad grouping (Fig. 6), normalised to
-- FG-xshift2, the mobile4 baseline. The groupings run with Z-order tiles and tile barriers.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 11: L2 accesses per quad grouping, normalised to FG-xshift2
--@ chart: bars
--@ y: L2 accesses / FG-xshift2
--@ rule: 1
--@ needs: runs of mobile4 and mobile4+dtexl-group-<grouping>
--@ explain: l2.accesses, l1tex.misses, replication.avg (model/schemes/dtexl/README.md, Measured)
--@ headline: CG-square | -46.8 | change | L2 accesses, CG-square (Fig. 11, sec. V-B)
--@ headline: CG-xrect | -40 | change | L2 accesses, CG-xrect (Fig. 11, sec. V-A)
--@ headline: CG-yrect | -45 | change | L2 accesses, CG-yrect (Fig. 11, sec. V-A)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'FG-xshift2', 'mobile4', 'mobile4', 'l2.accesses', 'ratio'),
  (1, 'FG-yshift2', 'mobile4+dtexl-group-fg-yshift2', 'mobile4', 'l2.accesses', 'ratio'),
  (2, 'FG-xshift1', 'mobile4+dtexl-group-fg-xshift1', 'mobile4', 'l2.accesses', 'ratio'),
  (3, 'FG-yshift1', 'mobile4+dtexl-group-fg-yshift1', 'mobile4', 'l2.accesses', 'ratio'),
  (4, 'FG-xstripe', 'mobile4+dtexl-group-fg-xstripe', 'mobile4', 'l2.accesses', 'ratio'),
  (5, 'FG-ystripe', 'mobile4+dtexl-group-fg-ystripe', 'mobile4', 'l2.accesses', 'ratio'),
  (6, 'CG-xrect', 'mobile4+dtexl-group-cg-xrect', 'mobile4', 'l2.accesses', 'ratio'),
  (7, 'CG-yrect', 'mobile4+dtexl-group-cg-yrect', 'mobile4', 'l2.accesses', 'ratio'),
  (8, 'CG-triangle', 'mobile4+dtexl-group-cg-triangle', 'mobile4', 'l2.accesses', 'ratio'),
  (9, 'CG-square', 'mobile4+dtexl-group-cg-square', 'mobile4', 'l2.accesses', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
