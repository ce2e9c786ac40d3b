-- Paper 004 (TFM) section III: shares of bilinear footprints that fall in one 4x4-texel block
-- (case 1), in two blocks (cases 2 and 3) and in four blocks (case 4), with the Texture Filter
-- Memory on mobile-256k.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
WITH
series(ord, series, config) AS (VALUES
  (0, 'TFM', 'mobile-256k+tfm')),
parts(pord, part, metric) AS (VALUES
  (0, 'one block (case 1)', 'tfm.case1'),
  (1, 'two blocks (cases 2, 3)', 'tfm.case2'),
  (1, 'two blocks (cases 2, 3)', 'tfm.case3'),
  (2, 'four blocks (case 4)', 'tfm.case4')),
-- Frames measured: a run's first frame starts with cold caches (sim.warm = 0) and is left out
-- when the run has warm frames.
cold(capture, frame, config) AS (
  SELECT capture, frame, config FROM frame_metrics
  WHERE metric = 'sim.warm' AND value = 0
    AND (capture, config) IN (SELECT capture, config FROM frame_metrics
                              WHERE metric = 'sim.warm' AND value = 1)),
m AS (SELECT * FROM frame_metrics WHERE (capture, frame, config) NOT IN (SELECT * FROM cold)),
per_capture(capture, ord, series, pord, part, value) AS (
  SELECT capture, ord, series, pord, part, value FROM (
    SELECT a.capture, s.ord, s.series, p.pord, p.part,
           sum(a.value) / NULLIF((SELECT sum(t.value) FROM m t
                                  WHERE t.capture = a.capture AND t.config = s.config
                                    AND t.metric IN (SELECT metric FROM parts)), 0) AS value
    FROM series s CROSS JOIN parts p
    JOIN m a ON a.config = s.config AND a.metric = p.metric
    GROUP BY a.capture, s.ord, s.series, p.pord, p.part)
  WHERE value IS NOT NULL)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, pord, part, NULL AS x, value FROM per_capture
  UNION ALL
  SELECT 'mean', ord, series, pord, part, NULL, avg(value) FROM per_capture GROUP BY ord, series, pord, part)
ORDER BY capture = 'mean', capture, ord, pord;
