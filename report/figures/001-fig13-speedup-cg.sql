-- Paper 001 (DTexL) Fig. 13: speedup (cycles of FG-xshift2 over cycles) of CG-square and CG-yrect
-- with tile barriers, against FG-xshift2 (the mobile4 baseline).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 13: speedup of CG-square and CG-yrect over FG-xshift2
--@ chart: bars
--@ y: speedup
--@ rule: 1
--@ needs: runs of mobile4 and mobile4+dtexl-group-cg-square / cg-yrect
--@ explain: core.cycles.* (barrier_wait, blocked, starved), cores.imbalance, dram.flush_share (model/schemes/dtexl/README.md, Measured)
--@ headline: CG-square | 1 | times | speedup, CG-square: none with tile barriers (Fig. 13, sec. V-B)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'CG-square', 'mobile4+dtexl-group-cg-square', 'mobile4', 'cycles', 'speedup'),
  (1, 'CG-yrect', 'mobile4+dtexl-group-cg-yrect', 'mobile4', 'cycles', 'speedup');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
