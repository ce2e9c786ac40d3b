-- Tessera results database, schema version 3: per-tile metrics as one grid per (run, frame, metric).
--
-- A row per tile and metric made a suite database mostly keys: 8.6 M tile rows took 175 MB of a
-- 177 MB study database. A grid is one JSON array, row-major (index = tile_y * tiles_x + tile_x),
-- null where the tile has no value (e.g. cores.deviation of a tile no core was busy in).
-- Integers are written as integers, other numbers in their shortest round-trip form, so every
-- value reads back exactly. Grids are stored once by content (tile_grid_data): configurations
-- that see the same quads (every scheme that leaves the quad scheduler alone) share their quads
-- grids. The tile_metrics view expands the grids with SQLite's json_each, one row per tile and
-- metric as before; `hash` is Tessera's XXH3-64 of "tiles_x:grid", used to find a grid already
-- stored.
--
-- After this file, Tessera converts the version 2 tile_metric rows into grids (in C++, with the
-- writer's own number format) and drops tile_metric, in the same transaction
-- (results/results_db.cpp, migrate_tile_grids).

CREATE TABLE tile_grid_data (
  grid_id  INTEGER PRIMARY KEY,
  hash     INTEGER NOT NULL,
  tiles_x  INTEGER NOT NULL CHECK (tiles_x > 0),
  grid     TEXT    NOT NULL              -- JSON array of numbers and nulls, row-major
);
CREATE INDEX tile_grid_data_by_hash ON tile_grid_data (hash);

CREATE TABLE tile_grid (
  run_id     INTEGER NOT NULL REFERENCES run (run_id) ON DELETE CASCADE,
  frame_id   INTEGER NOT NULL REFERENCES frame (frame_id) ON DELETE CASCADE,
  metric_id  INTEGER NOT NULL REFERENCES metric (metric_id),
  grid_id    INTEGER NOT NULL REFERENCES tile_grid_data (grid_id),
  PRIMARY KEY (run_id, frame_id, metric_id)
) WITHOUT ROWID;
CREATE INDEX tile_grid_by_grid ON tile_grid (grid_id);

-- A grid no (run, frame, metric) refers to any more goes with its last reference (deletes by
-- cascade from run and frame fire these too).
CREATE TRIGGER tile_grid_release AFTER DELETE ON tile_grid
  WHEN NOT EXISTS (SELECT 1 FROM tile_grid WHERE grid_id = OLD.grid_id)
BEGIN
  DELETE FROM tile_grid_data WHERE grid_id = OLD.grid_id;
END;
CREATE TRIGGER tile_grid_rebind AFTER UPDATE OF grid_id ON tile_grid
  WHEN OLD.grid_id != NEW.grid_id AND NOT EXISTS (SELECT 1 FROM tile_grid WHERE grid_id = OLD.grid_id)
BEGIN
  DELETE FROM tile_grid_data WHERE grid_id = OLD.grid_id;
END;

-- The stable view (DESIGN.md section 8), unchanged: one row per tile and metric that has a value.
DROP VIEW tile_metrics;
CREATE VIEW tile_metrics (capture, frame, config, tile_x, tile_y, metric, value) AS
  SELECT c.name, f.present, g.name, j.key % d.tiles_x, j.key / d.tiles_x, m.name, CAST(j.value AS REAL)
  FROM tile_grid t
  JOIN tile_grid_data d ON d.grid_id = t.grid_id
  JOIN json_each(d.grid) j
  JOIN run r      ON r.run_id = t.run_id
  JOIN frame f    ON f.frame_id = t.frame_id
  JOIN capture c  ON c.capture_id = r.capture_id
  JOIN config g   ON g.config_id = r.config_id
  JOIN metric m   ON m.metric_id = t.metric_id
  WHERE j.type != 'null';
