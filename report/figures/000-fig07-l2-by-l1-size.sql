-- Paper 000 (DTM-NUCA) Fig. 7: L2 accesses against the L1 texture cache size (l1tex.size
-- overrides of mobile32), private caches and the two DTM-NUCA flavours, normalised to private
-- 16 KiB caches (mobile32). x = L1 texture cache size in KiB.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
--
--@ paper: 000
--@ title: Fig. 7: L2 accesses against the L1 texture cache size
--@ chart: lines
--@ y: L2 accesses / baseline 16 KiB
--@ x: L1 texture cache (KiB)
--@ rule: 1
--@ log-x: yes
--@ needs: runs of mobile32 with --set l1tex.size=N, with and without +dtm-nuca / +dtm-nuca-dist
WITH
series(ord, series, prefix) AS (VALUES
  (0, 'Baseline', 'mobile32'),
  (1, 'DTM-NUCA', 'mobile32+dtm-nuca'),
  (2, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist')),
m AS (SELECT * FROM measured_frame_metrics),
param AS (SELECT * FROM run_config_param),
runs(ord, series, config, x) AS (
  SELECT s.ord, s.series, p.config, CAST(p.value AS REAL) / 1024 FROM series s
  JOIN param p ON p.key = 'l1tex.size'
              AND (p.config = s.prefix OR p.config LIKE s.prefix || '+l1tex.size=%')
              AND p.config NOT LIKE s.prefix || '+l1tex.size=%+%'),
per_capture(capture, ord, series, x, value) AS (
  SELECT a.capture, r.ord, r.series, r.x, sum(a.value) / NULLIF(sum(b.value), 0)
  FROM runs r
  JOIN m a ON a.config = r.config AND a.metric = 'l2.accesses'
  JOIN m b ON b.capture = a.capture AND b.frame = a.frame AND b.config = 'mobile32'
          AND b.metric = 'l2.accesses'
  GROUP BY a.capture, r.ord, r.series, r.x)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, NULL AS part, x, value FROM per_capture
  UNION ALL
  SELECT 'mean', ord, series, NULL, x, avg(value) FROM per_capture GROUP BY ord, series, x)
WHERE EXISTS (SELECT 1 FROM runs WHERE config != 'mobile32')  -- more than the baseline
ORDER BY capture = 'mean', capture, ord, x;
