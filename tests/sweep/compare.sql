-- What a results database holds, keyed by meaning (fingerprints, presents, configuration names
-- and parameter hashes, metric names), not by row ids: one temp view per table, named
-- @S@_<table>, over the database attached as @S@ (sweep_lib.sh's compare() instantiates it for
-- main and ref). Left out: run.updated_at (when a run was written) and the metric
-- replay.render_seconds (the wall time shading took), which differ between any two runs; the
-- sweep's own sweep_run markers.
CREATE TEMP VIEW @S@_capture AS SELECT fingerprint, name, application, device, frame_count, file_bytes FROM @S@.capture;
CREATE TEMP VIEW @S@_frame AS SELECT c.fingerprint, f.present, f.width, f.height
  FROM @S@.frame f JOIN @S@.capture c ON c.capture_id = f.capture_id;
CREATE TEMP VIEW @S@_config AS SELECT g.name, g.params_hash, p.key, p.value
  FROM @S@.config g LEFT JOIN @S@.config_param p ON p.config_id = g.config_id;
CREATE TEMP VIEW @S@_run AS SELECT c.fingerprint, g.name, g.params_hash, r.tessera_version
  FROM @S@.run r JOIN @S@.capture c ON c.capture_id = r.capture_id JOIN @S@.config g ON g.config_id = r.config_id;
CREATE TEMP VIEW @S@_metric AS SELECT name FROM @S@.metric;
CREATE TEMP VIEW @S@_cell AS SELECT r.run_id, f.frame_id, c.fingerprint, f.present, g.name, g.params_hash
  FROM @S@.run r JOIN @S@.capture c ON c.capture_id = r.capture_id JOIN @S@.config g ON g.config_id = r.config_id
  JOIN @S@.frame f ON f.capture_id = r.capture_id;
CREATE TEMP VIEW @S@_frame_metric AS SELECT x.fingerprint, x.present, x.name, x.params_hash, m.name AS metric, v.value
  FROM @S@.frame_metric v JOIN @S@_cell x ON x.run_id = v.run_id AND x.frame_id = v.frame_id
  JOIN @S@.metric m ON m.metric_id = v.metric_id WHERE m.name != 'replay.render_seconds';
-- Tile metrics by whole grid: the same values give the same text (schema/sqlite/003).
CREATE TEMP VIEW @S@_tile_metric AS SELECT x.fingerprint, x.present, x.name, x.params_hash, m.name AS metric, d.tiles_x, d.grid
  FROM @S@.tile_grid v JOIN @S@.tile_grid_data d ON d.grid_id = v.grid_id
  JOIN @S@_cell x ON x.run_id = v.run_id AND x.frame_id = v.frame_id
  JOIN @S@.metric m ON m.metric_id = v.metric_id;
CREATE TEMP VIEW @S@_core_metric AS SELECT x.fingerprint, x.present, x.name, x.params_hash, v.core, m.name AS metric, v.value
  FROM @S@.core_metric v JOIN @S@_cell x ON x.run_id = v.run_id AND x.frame_id = v.frame_id
  JOIN @S@.metric m ON m.metric_id = v.metric_id;
