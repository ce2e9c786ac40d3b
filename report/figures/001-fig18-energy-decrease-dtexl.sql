-- Paper 001 (DTexL) Fig. 18: decrease in total GPU energy (percent) of FG-xshift2 with decoupled
-- barriers and of DTexL, against non-decoupled FG-xshift2 (mobile4).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'FG-xshift2 decoupled', 'mobile4+dtexl-fg-decoupled', 'mobile4', 'energy.total_nj', 'decrease'),
  (1, 'DTexL (HLB-flp2)', 'mobile4+dtexl', 'mobile4', 'energy.total_nj', 'decrease');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
