-- Differences between the results database this runs on (a sweep's) and the one attached as ref
-- (written by tessera replay for the same work): per table, the rows only in one of them and the
-- row counts, keyed by what the rows mean (fingerprints, presents, configuration names and
-- parameter hashes, metric names), not by their ids. Left out: run.updated_at (when a run was
-- written) and the metric replay.render_seconds (the wall time shading took), which differ
-- between any two runs; the sweep's own sweep_run markers.
-- Usage: sed "s|@REF@|ref.db|" compare.sql | tessera query sweep.db "$(cat)" --csv
ATTACH DATABASE '@REF@' AS ref;

CREATE TEMP VIEW a_capture AS SELECT fingerprint, name, application, device, frame_count, file_bytes FROM main.capture;
CREATE TEMP VIEW b_capture AS SELECT fingerprint, name, application, device, frame_count, file_bytes FROM ref.capture;
CREATE TEMP VIEW a_frame AS SELECT c.fingerprint, f.present, f.width, f.height
  FROM main.frame f JOIN main.capture c ON c.capture_id = f.capture_id;
CREATE TEMP VIEW b_frame AS SELECT c.fingerprint, f.present, f.width, f.height
  FROM ref.frame f JOIN ref.capture c ON c.capture_id = f.capture_id;
CREATE TEMP VIEW a_config AS SELECT g.name, g.params_hash, p.key, p.value
  FROM main.config g LEFT JOIN main.config_param p ON p.config_id = g.config_id;
CREATE TEMP VIEW b_config AS SELECT g.name, g.params_hash, p.key, p.value
  FROM ref.config g LEFT JOIN ref.config_param p ON p.config_id = g.config_id;
CREATE TEMP VIEW a_run AS SELECT c.fingerprint, g.name, g.params_hash, r.tessera_version
  FROM main.run r JOIN main.capture c ON c.capture_id = r.capture_id JOIN main.config g ON g.config_id = r.config_id;
CREATE TEMP VIEW b_run AS SELECT c.fingerprint, g.name, g.params_hash, r.tessera_version
  FROM ref.run r JOIN ref.capture c ON c.capture_id = r.capture_id JOIN ref.config g ON g.config_id = r.config_id;
CREATE TEMP VIEW a_metric AS SELECT name FROM main.metric;
CREATE TEMP VIEW b_metric AS SELECT name FROM ref.metric;
CREATE TEMP VIEW a_frame_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, m.name AS metric, v.value
  FROM main.frame_metric v JOIN main.run r ON r.run_id = v.run_id JOIN main.capture c ON c.capture_id = r.capture_id
  JOIN main.config g ON g.config_id = r.config_id JOIN main.frame f ON f.frame_id = v.frame_id
  JOIN main.metric m ON m.metric_id = v.metric_id WHERE m.name != 'replay.render_seconds';
CREATE TEMP VIEW b_frame_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, m.name AS metric, v.value
  FROM ref.frame_metric v JOIN ref.run r ON r.run_id = v.run_id JOIN ref.capture c ON c.capture_id = r.capture_id
  JOIN ref.config g ON g.config_id = r.config_id JOIN ref.frame f ON f.frame_id = v.frame_id
  JOIN ref.metric m ON m.metric_id = v.metric_id WHERE m.name != 'replay.render_seconds';
CREATE TEMP VIEW a_tile_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, v.tile_x, v.tile_y, m.name AS metric, v.value
  FROM main.tile_metric v JOIN main.run r ON r.run_id = v.run_id JOIN main.capture c ON c.capture_id = r.capture_id
  JOIN main.config g ON g.config_id = r.config_id JOIN main.frame f ON f.frame_id = v.frame_id
  JOIN main.metric m ON m.metric_id = v.metric_id;
CREATE TEMP VIEW b_tile_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, v.tile_x, v.tile_y, m.name AS metric, v.value
  FROM ref.tile_metric v JOIN ref.run r ON r.run_id = v.run_id JOIN ref.capture c ON c.capture_id = r.capture_id
  JOIN ref.config g ON g.config_id = r.config_id JOIN ref.frame f ON f.frame_id = v.frame_id
  JOIN ref.metric m ON m.metric_id = v.metric_id;
CREATE TEMP VIEW a_core_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, v.core, m.name AS metric, v.value
  FROM main.core_metric v JOIN main.run r ON r.run_id = v.run_id JOIN main.capture c ON c.capture_id = r.capture_id
  JOIN main.config g ON g.config_id = r.config_id JOIN main.frame f ON f.frame_id = v.frame_id
  JOIN main.metric m ON m.metric_id = v.metric_id;
CREATE TEMP VIEW b_core_metric AS SELECT c.fingerprint, f.present, g.name, g.params_hash, v.core, m.name AS metric, v.value
  FROM ref.core_metric v JOIN ref.run r ON r.run_id = v.run_id JOIN ref.capture c ON c.capture_id = r.capture_id
  JOIN ref.config g ON g.config_id = r.config_id JOIN ref.frame f ON f.frame_id = v.frame_id
  JOIN ref.metric m ON m.metric_id = v.metric_id;

SELECT 'capture' AS tbl, (SELECT count(*) FROM (SELECT * FROM a_capture EXCEPT SELECT * FROM b_capture)) AS only_sweep,
       (SELECT count(*) FROM (SELECT * FROM b_capture EXCEPT SELECT * FROM a_capture)) AS only_replay,
       (SELECT count(*) FROM a_capture) AS sweep_rows, (SELECT count(*) FROM b_capture) AS replay_rows
UNION ALL SELECT 'frame', (SELECT count(*) FROM (SELECT * FROM a_frame EXCEPT SELECT * FROM b_frame)),
       (SELECT count(*) FROM (SELECT * FROM b_frame EXCEPT SELECT * FROM a_frame)),
       (SELECT count(*) FROM a_frame), (SELECT count(*) FROM b_frame)
UNION ALL SELECT 'config', (SELECT count(*) FROM (SELECT * FROM a_config EXCEPT SELECT * FROM b_config)),
       (SELECT count(*) FROM (SELECT * FROM b_config EXCEPT SELECT * FROM a_config)),
       (SELECT count(*) FROM a_config), (SELECT count(*) FROM b_config)
UNION ALL SELECT 'run', (SELECT count(*) FROM (SELECT * FROM a_run EXCEPT SELECT * FROM b_run)),
       (SELECT count(*) FROM (SELECT * FROM b_run EXCEPT SELECT * FROM a_run)),
       (SELECT count(*) FROM a_run), (SELECT count(*) FROM b_run)
UNION ALL SELECT 'metric', (SELECT count(*) FROM (SELECT * FROM a_metric EXCEPT SELECT * FROM b_metric)),
       (SELECT count(*) FROM (SELECT * FROM b_metric EXCEPT SELECT * FROM a_metric)),
       (SELECT count(*) FROM a_metric), (SELECT count(*) FROM b_metric)
UNION ALL SELECT 'frame_metric', (SELECT count(*) FROM (SELECT * FROM a_frame_metric EXCEPT SELECT * FROM b_frame_metric)),
       (SELECT count(*) FROM (SELECT * FROM b_frame_metric EXCEPT SELECT * FROM a_frame_metric)),
       (SELECT count(*) FROM a_frame_metric), (SELECT count(*) FROM b_frame_metric)
UNION ALL SELECT 'tile_metric', (SELECT count(*) FROM (SELECT * FROM a_tile_metric EXCEPT SELECT * FROM b_tile_metric)),
       (SELECT count(*) FROM (SELECT * FROM b_tile_metric EXCEPT SELECT * FROM a_tile_metric)),
       (SELECT count(*) FROM a_tile_metric), (SELECT count(*) FROM b_tile_metric)
UNION ALL SELECT 'core_metric', (SELECT count(*) FROM (SELECT * FROM a_core_metric EXCEPT SELECT * FROM b_core_metric)),
       (SELECT count(*) FROM (SELECT * FROM b_core_metric EXCEPT SELECT * FROM a_core_metric)),
       (SELECT count(*) FROM a_core_metric), (SELECT count(*) FROM b_core_metric);
