-- Paper 003 (TCOR) Fig. 22: decrease in total GPU energy (percent) against the baseline
-- (mobile4-64k).
-- The 128 KiB series (the paper's second figure) run with --set tile.size=131072 and are
-- normalised to mobile4-64k+tile.size=131072.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
WITH
series(ord, series, config, base, metric, how) AS (VALUES
  (0, 'TCOR without L2 changes', 'mobile4-64k+tcor-no-l2', 'mobile4-64k', 'energy.total_nj', 'decrease'),
  (1, 'TCOR', 'mobile4-64k+tcor', 'mobile4-64k', 'energy.total_nj', 'decrease'),
  (2, 'TCOR without L2 changes, 128 KiB', 'mobile4-64k+tcor-no-l2+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.total_nj', 'decrease'),
  (3, 'TCOR, 128 KiB', 'mobile4-64k+tcor+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.total_nj', 'decrease')),
-- Frames measured: a run's first frame starts with cold caches (sim.warm = 0) and is left out
-- when the run has warm frames.
cold(capture, frame, config) AS (
  SELECT capture, frame, config FROM frame_metrics
  WHERE metric = 'sim.warm' AND value = 0
    AND (capture, config) IN (SELECT capture, config FROM frame_metrics
                              WHERE metric = 'sim.warm' AND value = 1)),
m AS (SELECT * FROM frame_metrics WHERE (capture, frame, config) NOT IN (SELECT * FROM cold)),
-- Per capture: the configuration's sum over the frames both runs measured, against the base's
-- (how: ratio = config / base, speedup = base / config, decrease = 100 * (1 - config / base)).
per_capture(capture, ord, series, value) AS (
  SELECT capture, ord, series, value FROM (
    SELECT a.capture, s.ord, s.series,
           CASE s.how WHEN 'speedup' THEN sum(b.value) / NULLIF(sum(a.value), 0)
                      WHEN 'decrease' THEN 100.0 * (1 - sum(a.value) / NULLIF(sum(b.value), 0))
                      ELSE sum(a.value) / NULLIF(sum(b.value), 0) END AS value
    FROM series s
    JOIN m a ON a.config = s.config AND a.metric = s.metric
    JOIN m b ON b.capture = a.capture AND b.frame = a.frame AND b.config = s.base AND b.metric = s.metric
    GROUP BY a.capture, s.ord, s.series)
  WHERE value IS NOT NULL)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, NULL AS part, NULL AS x, value FROM per_capture
  UNION ALL
  SELECT 'mean', ord, series, NULL, NULL, avg(value) FROM per_capture GROUP BY ord, series)
-- Nothing to draw when only the base itself (drawn as the reference) has runs.
WHERE EXISTS (SELECT 1 FROM per_capture p JOIN series s ON s.ord = p.ord AND s.config != s.base)
ORDER BY capture = 'mean', capture, ord;
