-- Paper 004 (TFM) Fig. 8: hit rate of the first level the texture unit reads, per texel read of
-- Algorithm 1: the conventional unit's 16 KiB 2-way L1 (case 1) and 512 B direct-mapped L1 (case
-- 2), 512 B direct-mapped and fully associative filter caches in front of the 16 KiB L1 (cases 3,
-- 4), and the Texture Filter Memory (case 5); beside them our coalescing L1, read once per distinct
-- line of a sample (mobile-256k itself).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 004
--@ title: Fig. 8: hit rate of the first texture memory level
--@ chart: bars
--@ y: hit rate
--@ needs: runs of mobile-256k+conventional-tu / +l1-dm512 / +filter-dm512 / +filter-fa512 / +tfm
--@ explain: tfm.hits, l1tex.texel_hit_rate, texture.texel_reads (model/schemes/tfm/README.md, Measured against the paper)
--@ headline: TFM | 80 | percent | TFM hit rate (Fig. 8, sec. V-A1)
--@ headline: L1 16 KiB 2-way | 96 | percent | L1 hit rate, conventional (Fig. 8, sec. V-A1)
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'L1 16 KiB 2-way', 'mobile-256k+conventional-tu', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (1, 'L1 512 B direct-mapped', 'mobile-256k+l1-dm512', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (2, 'Filter 512 B direct-mapped', 'mobile-256k+filter-dm512', 'tfm.hits', 'tfm.accesses', 1.0),
  (3, 'Filter 512 B fully assoc.', 'mobile-256k+filter-fa512', 'tfm.hits', 'tfm.accesses', 1.0),
  (4, 'TFM', 'mobile-256k+tfm', 'tfm.hits', 'tfm.accesses', 1.0),
  (5, 'L1 16 KiB 2-way, per line (ours)', 'mobile-256k', 'l1tex.hits', 'l1tex.accesses', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
