-- Paper 000 (DTM-NUCA) Fig. 1: replication degree, the share of serviced texture blocks held by
-- 1, 2, 3 and 4 or more L1 texture caches right after the access, per plain preset (the paper
-- counts 4 fragment processors: mobile4 has 4 shader cores, mobile32 has 32).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: stacked_rows of report/views.sql over these per-capture parts.
--
--@ paper: 000
--@ section: replication
--@ title: Paper 000 Fig. 1: replication degree, serviced blocks by the number of L1 texture caches holding them
--@ chart: stacked
--@ y: share of serviced blocks
--@ needs: runs with the replication.share_1 .. share_4plus metrics
--@ explain: replication.share_1 .. _4plus and each capture's texture footprint (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: mobile4 | 15.4 | percent | blocks in exactly one of 4 L1s; 84.6 % are replicated (paper 000 Fig. 1, sec. I) | part=1 L1
DELETE FROM stacked_per_capture;
INSERT INTO stacked_per_capture (capture, ord, series, pord, part, value)
WITH
series(ord, series, config) AS (VALUES
  (0, 'mobile4', 'mobile4'),
  (1, 'mobile32', 'mobile32')),
parts(pord, part, metric) AS (VALUES
  (0, '1 L1', 'replication.share_1'),
  (1, '2 L1s', 'replication.share_2'),
  (2, '3 L1s', 'replication.share_3'),
  (3, '4+ L1s', 'replication.share_4plus')),
m AS (SELECT * FROM measured_frame_metrics)
SELECT a.capture, s.ord, s.series, p.pord, p.part, avg(a.value)
FROM series s CROSS JOIN parts p
JOIN m a ON a.config = s.config AND a.metric = p.metric
GROUP BY a.capture, s.ord, s.series, p.pord, p.part;
SELECT capture, series, part, x, value FROM stacked_rows ORDER BY capture = 'mean', capture, ord, pord;
