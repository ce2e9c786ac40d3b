-- Paper 001 (DTexL) Fig. 18: decrease in total GPU energy (percent) of FG-xshift2 with decoupled
-- barriers and of DTexL, against non-decoupled FG-xshift2 (mobile4).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 18: decrease in total GPU energy over non-decoupled FG-xshift2
--@ chart: bars
--@ y: decrease in GPU energy (%)
--@ rule: 0
--@ needs: runs of mobile4 and mobile4+dtexl / mobile4+dtexl-fg-decoupled
--@ explain: energy.l2_nj, energy.dram_nj, dram.row_misses, dram.color_flushes (model/schemes/dtexl/README.md, Measured)
--@ headline: DTexL (HLB-flp2) | 6.3 | points | GPU energy decrease, DTexL (Fig. 18, sec. V-C3)
--@ headline: FG-xshift2 decoupled | 3 | points | GPU energy decrease, FG-xshift2 decoupled (Fig. 18, sec. V-C3)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'FG-xshift2 decoupled', 'mobile4+dtexl-fg-decoupled', 'mobile4', 'energy.total_nj', 'decrease'),
  (1, 'DTexL (HLB-flp2)', 'mobile4+dtexl', 'mobile4', 'energy.total_nj', 'decrease');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
