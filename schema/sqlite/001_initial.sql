-- Tessera results database, schema version 1.
--
-- Captures are identified by their content fingerprint (a file moved or re-captured to the same
-- path is told apart); configurations by their full parameter set. A run is one configuration
-- replayed on one capture; rerunning it replaces the rows of the frames it writes again.
-- Metric names are shared strings (metric.name): see frame_metrics below for the stable view.

CREATE TABLE capture (
  capture_id   INTEGER PRIMARY KEY,
  fingerprint  TEXT    NOT NULL UNIQUE,  -- CaptureReader::fingerprint(), 32 hex digits
  name         TEXT    NOT NULL,         -- the capture file as named to tessera replay
  application  TEXT,
  device       TEXT,
  frame_count  INTEGER NOT NULL,
  file_bytes   INTEGER NOT NULL
);

CREATE TABLE frame (
  frame_id    INTEGER PRIMARY KEY,
  capture_id  INTEGER NOT NULL REFERENCES capture (capture_id) ON DELETE CASCADE,
  present     INTEGER NOT NULL,          -- 1-based present number in the captured application
  width       INTEGER,
  height      INTEGER,
  UNIQUE (capture_id, present)
);

CREATE TABLE config (
  config_id    INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,            -- preset plus overrides, e.g. mobile4 or mobile4+l1tex.size=32768
  params_hash  TEXT NOT NULL,            -- XXH3-128 of the canonical key=value text
  UNIQUE (name, params_hash)
);

CREATE TABLE config_param (
  config_id  INTEGER NOT NULL REFERENCES config (config_id) ON DELETE CASCADE,
  key        TEXT    NOT NULL,
  value      TEXT    NOT NULL,
  PRIMARY KEY (config_id, key)
) WITHOUT ROWID;

CREATE TABLE run (
  run_id           INTEGER PRIMARY KEY,
  capture_id       INTEGER NOT NULL REFERENCES capture (capture_id) ON DELETE CASCADE,
  config_id        INTEGER NOT NULL REFERENCES config (config_id) ON DELETE CASCADE,
  tessera_version  TEXT    NOT NULL,
  updated_at       TEXT    NOT NULL,     -- UTC, ISO 8601
  UNIQUE (capture_id, config_id)
);

CREATE TABLE metric (
  metric_id  INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE        -- e.g. cycles, l1tex.hits, energy.total_nj
);

CREATE TABLE frame_metric (
  run_id     INTEGER NOT NULL REFERENCES run (run_id) ON DELETE CASCADE,
  frame_id   INTEGER NOT NULL REFERENCES frame (frame_id) ON DELETE CASCADE,
  metric_id  INTEGER NOT NULL REFERENCES metric (metric_id),
  value      REAL    NOT NULL,
  PRIMARY KEY (run_id, frame_id, metric_id)
) WITHOUT ROWID;

CREATE TABLE tile_metric (
  run_id     INTEGER NOT NULL REFERENCES run (run_id) ON DELETE CASCADE,
  frame_id   INTEGER NOT NULL REFERENCES frame (frame_id) ON DELETE CASCADE,
  tile_x     INTEGER NOT NULL,
  tile_y     INTEGER NOT NULL,
  metric_id  INTEGER NOT NULL REFERENCES metric (metric_id),
  value      REAL    NOT NULL,
  PRIMARY KEY (run_id, frame_id, tile_x, tile_y, metric_id)
) WITHOUT ROWID;

CREATE TABLE core_metric (
  run_id     INTEGER NOT NULL REFERENCES run (run_id) ON DELETE CASCADE,
  frame_id   INTEGER NOT NULL REFERENCES frame (frame_id) ON DELETE CASCADE,
  core       INTEGER NOT NULL,
  metric_id  INTEGER NOT NULL REFERENCES metric (metric_id),
  value      REAL    NOT NULL,
  PRIMARY KEY (run_id, frame_id, core, metric_id)
) WITHOUT ROWID;

-- The stable view other tools rely on (DESIGN.md section 8): one row per number.
CREATE VIEW frame_metrics (capture, frame, config, metric, value) AS
  SELECT c.name, f.present, g.name, m.name, fm.value
  FROM frame_metric fm
  JOIN run r      ON r.run_id = fm.run_id
  JOIN frame f    ON f.frame_id = fm.frame_id
  JOIN capture c  ON c.capture_id = r.capture_id
  JOIN config g   ON g.config_id = r.config_id
  JOIN metric m   ON m.metric_id = fm.metric_id;

CREATE VIEW tile_metrics (capture, frame, config, tile_x, tile_y, metric, value) AS
  SELECT c.name, f.present, g.name, t.tile_x, t.tile_y, m.name, t.value
  FROM tile_metric t
  JOIN run r      ON r.run_id = t.run_id
  JOIN frame f    ON f.frame_id = t.frame_id
  JOIN capture c  ON c.capture_id = r.capture_id
  JOIN config g   ON g.config_id = r.config_id
  JOIN metric m   ON m.metric_id = t.metric_id;

CREATE VIEW core_metrics (capture, frame, config, core, metric, value) AS
  SELECT c.name, f.present, g.name, k.core, m.name, k.value
  FROM core_metric k
  JOIN run r      ON r.run_id = k.run_id
  JOIN frame f    ON f.frame_id = k.frame_id
  JOIN capture c  ON c.capture_id = r.capture_id
  JOIN config g   ON g.config_id = r.config_id
  JOIN metric m   ON m.metric_id = k.metric_id;
