-- Paper 001 (DTexL) Fig. 17: speedup of FG-xshift2 with decoupled barriers and of DTexL
-- (CG-square, Hilbert, HLB-flp2, decoupled barriers) against non-decoupled FG-xshift2 (mobile4).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 17: speedup over non-decoupled FG-xshift2
--@ chart: bars
--@ y: speedup
--@ rule: 1
--@ needs: runs of mobile4 and mobile4+dtexl / mobile4+dtexl-fg-decoupled
--@ explain: core.cycles.* (texture_wait, blocked, starved), dram.flush_share, cores.tile_lead_mean, the runs with gpu.flush_buffer=0 (model/schemes/dtexl/README.md, Measured)
--@ headline: DTexL (HLB-flp2) | 1.2 | times | speedup, DTexL (Fig. 17, sec. V-C2)
--@ headline: FG-xshift2 decoupled | 1.09 | times | speedup, FG-xshift2 decoupled (Fig. 17, sec. V-C2)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'FG-xshift2 decoupled', 'mobile4+dtexl-fg-decoupled', 'mobile4', 'cycles', 'speedup'),
  (1, 'DTexL (HLB-flp2)', 'mobile4+dtexl', 'mobile4', 'cycles', 'speedup');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
