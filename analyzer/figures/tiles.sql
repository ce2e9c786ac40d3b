-- Per-tile metrics (tile_metrics: cycles, quads, core.<i>.busy_cycles) of each run, averaged over
-- its measured frames (a tile with no row in a frame counts as 0): the heat maps.
-- Columns: capture, config, metric, tile_x, tile_y, value.
WITH
-- Frames measured: a run's first frame starts with cold caches (sim.warm = 0) and is left out
-- when the run has warm frames.
cold(capture, frame, config) AS (
  SELECT capture, frame, config FROM frame_metrics
  WHERE metric = 'sim.warm' AND value = 0
    AND (capture, config) IN (SELECT capture, config FROM frame_metrics
                              WHERE metric = 'sim.warm' AND value = 1)),
m AS (SELECT * FROM frame_metrics WHERE (capture, frame, config) NOT IN (SELECT * FROM cold)),
frames(capture, config, n) AS (
  SELECT capture, config, count(DISTINCT frame) FROM m GROUP BY capture, config)
SELECT t.capture, t.config, t.metric, t.tile_x, t.tile_y, sum(t.value) / f.n AS value
FROM tile_metrics t
JOIN frames f ON f.capture = t.capture AND f.config = t.config
WHERE (t.capture, t.frame, t.config) NOT IN (SELECT * FROM cold)
GROUP BY t.capture, t.config, t.metric, t.tile_x, t.tile_y
ORDER BY t.capture, t.config, t.metric, t.tile_y, t.tile_x;
