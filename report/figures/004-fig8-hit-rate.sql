-- Paper 004 (TFM) Fig. 8: hit rate of the first level the texture unit reads: the conventional
-- 16 KiB 2-way L1 (mobile-256k), 512 B direct-mapped and fully associative filter caches in front
-- of it, and the Texture Filter Memory.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 004
--@ title: Fig. 8: hit rate of the first texture memory level
--@ chart: bars
--@ y: hit rate
--@ needs: runs of mobile-256k and mobile-256k+tfm / +filter-dm512 / +filter-fa512
--@ headline: TFM | 80 | percent | TFM hit rate (Fig. 8, sec. V-A1)
--@ headline: L1 16 KiB 2-way | 96 | percent | L1 hit rate, conventional (Fig. 8, sec. V-A1)
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'L1 16 KiB 2-way', 'mobile-256k', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (1, 'Filter 512 B direct-mapped', 'mobile-256k+filter-dm512', 'tfm.hits', 'tfm.accesses', 1.0),
  (2, 'Filter 512 B fully assoc.', 'mobile-256k+filter-fa512', 'tfm.hits', 'tfm.accesses', 1.0),
  (3, 'TFM', 'mobile-256k+tfm', 'tfm.hits', 'tfm.accesses', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
