-- Per-tile metrics (tile_metrics: cycles, quads, core.<i>.busy_cycles) of each run, averaged over
-- its measured frames (a tile with no row in a frame counts as 0): the heat maps.
-- Columns: capture, config, metric, tile_x, tile_y, value.
-- Aggregated on the tables' integer keys and named afterwards: a suite database holds millions
-- of tiles, and grouping them by the views' names sorts strings. Each (run, frame, metric) is one
-- grid (schema/sqlite/003), expanded here with json_each.
WITH
cold(run_id, frame_id) AS MATERIALIZED (SELECT run_id, frame_id FROM cold_frame_ids),
frames(run_id, n) AS MATERIALIZED (
  SELECT run_id, count(DISTINCT frame_id) FROM frame_metric
  WHERE (run_id, frame_id) NOT IN (SELECT run_id, frame_id FROM cold) GROUP BY run_id),
per_tile(run_id, metric_id, tile_x, tile_y, total) AS MATERIALIZED (
  -- total(), not sum(): a grid's counts are integers, and a mean over frames is not.
  SELECT t.run_id, t.metric_id, j.key % d.tiles_x, j.key / d.tiles_x, total(j.value)
  FROM tile_grid t
  JOIN tile_grid_data d ON d.grid_id = t.grid_id
  JOIN json_each(d.grid) j
  WHERE j.type != 'null' AND (t.run_id, t.frame_id) NOT IN (SELECT run_id, frame_id FROM cold)
  GROUP BY t.run_id, t.metric_id, j.key % d.tiles_x, j.key / d.tiles_x)
SELECT c.name AS capture, g.name AS config, m.name AS metric, p.tile_x, p.tile_y, p.total / f.n AS value
FROM per_tile p
JOIN frames f  ON f.run_id = p.run_id
JOIN run r     ON r.run_id = p.run_id
JOIN capture c ON c.capture_id = r.capture_id
JOIN config g  ON g.config_id = r.config_id
JOIN metric m  ON m.metric_id = p.metric_id
ORDER BY capture, config, metric, p.tile_y, p.tile_x;
