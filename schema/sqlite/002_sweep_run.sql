-- Tessera results database, schema version 2: runs merged by `tessera sweep`.
--
-- A sweep job replays one capture over one frame range with several configurations into a
-- database of its own, which is merged here in one transaction together with one marker per run.
-- A rerun of the sweep skips the (run, frame range) pairs marked here. A marker goes with its run:
-- a later replay under the same name with other parameters deletes both.
CREATE TABLE sweep_run (
  run_id     INTEGER NOT NULL REFERENCES run (run_id) ON DELETE CASCADE,
  frames     TEXT    NOT NULL,  -- the job's --frames (A-B), 'all' for every frame
  merged_at  TEXT    NOT NULL,  -- UTC, ISO 8601
  PRIMARY KEY (run_id, frames)
) WITHOUT ROWID;
