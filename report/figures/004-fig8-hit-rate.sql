-- Paper 004 (TFM) Fig. 8: hit rate of the first level the texture unit reads: the conventional
-- 16 KiB 2-way L1 (mobile-256k), 512 B direct-mapped and fully associative filter caches in front
-- of it, and the Texture Filter Memory.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
WITH
series(ord, series, config, metric, per, scale) AS (VALUES
  (0, 'L1 16 KiB 2-way', 'mobile-256k', 'l1tex.hits', 'l1tex.accesses', 1.0),
  (1, 'Filter 512 B direct-mapped', 'mobile-256k+filter-dm512', 'tfm.hits', 'tfm.accesses', 1.0),
  (2, 'Filter 512 B fully assoc.', 'mobile-256k+filter-fa512', 'tfm.hits', 'tfm.accesses', 1.0),
  (3, 'TFM', 'mobile-256k+tfm', 'tfm.hits', 'tfm.accesses', 1.0)),
-- Frames measured: a run's first frame starts with cold caches (sim.warm = 0) and is left out
-- when the run has warm frames.
cold(capture, frame, config) AS (
  SELECT capture, frame, config FROM frame_metrics
  WHERE metric = 'sim.warm' AND value = 0
    AND (capture, config) IN (SELECT capture, config FROM frame_metrics
                              WHERE metric = 'sim.warm' AND value = 1)),
m AS (SELECT * FROM frame_metrics WHERE (capture, frame, config) NOT IN (SELECT * FROM cold)),
-- Per capture: the mean over measured frames of the metric, times scale (or of the metric over
-- the denominator metric, summed over the same frames, when one is given).
per_capture(capture, ord, series, value) AS (
  SELECT a.capture, s.ord, s.series,
         CASE WHEN s.per = '' THEN avg(a.value) * s.scale
              ELSE sum(a.value) / NULLIF(sum(d.value), 0) * s.scale END
  FROM series s
  JOIN m a ON a.config = s.config AND a.metric = s.metric
  LEFT JOIN m d ON d.capture = a.capture AND d.frame = a.frame AND d.config = a.config AND d.metric = s.per
  WHERE s.per = '' OR d.value IS NOT NULL
  GROUP BY a.capture, s.ord, s.series)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, NULL AS part, NULL AS x, value FROM per_capture WHERE value IS NOT NULL
  UNION ALL
  SELECT 'mean', ord, series, NULL, NULL, avg(value) FROM per_capture WHERE value IS NOT NULL
  GROUP BY ord, series)
ORDER BY capture = 'mean', capture, ord;
