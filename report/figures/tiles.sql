-- Per-tile metrics (tile_metrics: cycles, quads, core.<i>.busy_cycles, ...) of each run over its
-- measured frames: the heat maps. One row per run, metric and measured frame with the frame's grid
-- as stored (schema/sqlite/003: a JSON array, row-major, null where the tile has no value) and
-- the number of frames the run measured; tessera report averages the grids tile by tile over
-- them, a tile without a value in a frame counting as 0 (report/heatmaps.cpp, load_heat_maps).
-- Columns: capture, config, metric, frames, tiles_x, grid.
-- The same mean in SQL, a row per tile (slower: json_each parses every grid of every frame):
--   SELECT capture, config, metric, j.key % tiles_x AS tile_x, j.key / tiles_x AS tile_y,
--          total(j.value) / frames AS value
--   FROM (<this query>), json_each(grid) j GROUP BY capture, config, metric, tile_x, tile_y
-- Filtered on the tables' integer keys and named afterwards: a suite database holds thousands of
-- grids, and matching them by the views' names sorts strings.
WITH
cold(run_id, frame_id) AS MATERIALIZED (SELECT run_id, frame_id FROM cold_frame_ids),
frames(run_id, n) AS MATERIALIZED (
  SELECT run_id, count(DISTINCT frame_id) FROM frame_metric
  WHERE (run_id, frame_id) NOT IN (SELECT run_id, frame_id FROM cold) GROUP BY run_id)
SELECT c.name AS capture, g.name AS config, m.name AS metric, f.n AS frames, d.tiles_x, d.grid
FROM tile_grid t
JOIN tile_grid_data d ON d.grid_id = t.grid_id
JOIN frames f  ON f.run_id = t.run_id
JOIN run r     ON r.run_id = t.run_id
JOIN capture c ON c.capture_id = r.capture_id
JOIN config g  ON g.config_id = r.config_id
JOIN metric m  ON m.metric_id = t.metric_id
WHERE (t.run_id, t.frame_id) NOT IN (SELECT run_id, frame_id FROM cold)
ORDER BY capture, config, metric, t.frame_id;
