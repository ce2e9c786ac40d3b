-- What the figures of report/figures/ share, stated once: temporary views (and the tables a
-- figure fills for the shared bodies to read) that tessera report, compare and query create on
-- every connection before they run figure SQL. They live in the temp schema, so they work on a
-- results database opened read-only and never change the file; the migrations of schema/sqlite/
-- stay as shipped. Run a figure by hand with tessera query (it creates them too), or with the
-- sqlite3 shell: cat report/views.sql report/figures/NAME.sql | sqlite3 -readonly DB
-- Names are resolved when a query runs: a temp view frame_metrics (tessera report --captures)
-- restricts every view below as it restricts the figures.

-- Frames measured: a run's first frame starts with cold caches (sim.warm = 0) and is left out
-- when the run has warm frames: the papers simulate frame sequences, whose caches carry over from
-- frame to frame (model/README.md, "Warm caches across a run's frames"). A run without warm
-- frames (one frame, or sim.cold_caches=true) keeps them all.
CREATE TEMP VIEW IF NOT EXISTS measured_frame_metrics(capture, frame, config, metric, value) AS
  SELECT capture, frame, config, metric, value FROM frame_metrics
  WHERE (capture, frame, config) NOT IN (
    SELECT capture, frame, config FROM frame_metrics
    WHERE metric = 'sim.warm' AND value = 0
      AND (capture, config) IN (SELECT capture, config FROM frame_metrics
                                WHERE metric = 'sim.warm' AND value = 1));

-- The same frames on the tables' integer keys, for the heat maps (figures/tiles.sql): a suite
-- database holds millions of tile rows, and matching them by name sorts strings.
CREATE TEMP VIEW IF NOT EXISTS cold_frame_ids(run_id, frame_id) AS
  WITH warm(metric_id) AS MATERIALIZED (SELECT metric_id FROM metric WHERE name = 'sim.warm')
  SELECT fm.run_id, fm.frame_id FROM frame_metric fm JOIN warm USING (metric_id)
  WHERE fm.value = 0
    AND fm.run_id IN (SELECT run_id FROM frame_metric JOIN warm USING (metric_id) WHERE value = 1);

-- Parameter values of the configurations that have runs (config_param holds the full set): the
-- figures whose x axis is a parameter (a cache size, a core count) read them.
CREATE TEMP VIEW IF NOT EXISTS run_config_param(config, key, value) AS
  SELECT DISTINCT g.name, p.key, p.value FROM config g
  JOIN config_param p ON p.config_id = g.config_id
  WHERE EXISTS (SELECT 1 FROM run r WHERE r.config_id = g.config_id);

-- Normalised bars: a figure fills normalised_series (DELETE, then INSERT its series) and selects
-- from normalised_rows, ordered by capture = 'mean', capture, ord.
-- how: ratio = config / base, speedup = base / config, decrease = 100 * (1 - config / base).
CREATE TEMP TABLE IF NOT EXISTS normalised_series(
  ord INTEGER, series TEXT, config TEXT, base TEXT, metric TEXT,
  how TEXT CHECK (how IN ('ratio', 'speedup', 'decrease')));
-- Per capture: the configuration's sum over the frames both runs measured, against the base's;
-- capture 'mean' is the arithmetic mean over captures.
-- CROSS JOIN keeps the series the outer loop: without statistics the planner takes a temp table
-- for a large one and scans every measured row first (minutes on a suite database, not seconds).
CREATE TEMP VIEW IF NOT EXISTS normalised_rows(capture, ord, series, part, x, value) AS
  WITH m AS (SELECT * FROM measured_frame_metrics),
  per_capture(capture, ord, series, value) AS (
    SELECT capture, ord, series, value FROM (
      SELECT a.capture, s.ord, s.series,
             CASE s.how WHEN 'speedup' THEN sum(b.value) / NULLIF(sum(a.value), 0)
                        WHEN 'decrease' THEN 100.0 * (1 - sum(a.value) / NULLIF(sum(b.value), 0))
                        ELSE sum(a.value) / NULLIF(sum(b.value), 0) END AS value
      FROM normalised_series s
      CROSS JOIN m a ON a.config = s.config AND a.metric = s.metric
      CROSS JOIN m b ON b.capture = a.capture AND b.frame = a.frame AND b.config = s.base AND b.metric = s.metric
      GROUP BY a.capture, s.ord, s.series)
    WHERE value IS NOT NULL)
  SELECT capture, ord, series, part, x, value FROM (
    SELECT capture, ord, series, NULL AS part, NULL AS x, value FROM per_capture
    UNION ALL
    SELECT 'mean', ord, series, NULL, NULL, avg(value) FROM per_capture GROUP BY ord, series)
  -- Nothing to draw when only the base itself (drawn as the reference) has runs.
  WHERE EXISTS (SELECT 1 FROM per_capture p JOIN normalised_series s ON s.ord = p.ord AND s.config != s.base);

-- Bars of one metric: a figure fills metric_series (DELETE, then INSERT its series) and selects
-- from metric_rows, ordered by capture = 'mean', capture, ord.
-- per: '' for the metric itself, or the metric it is divided by; scale multiplies either.
CREATE TEMP TABLE IF NOT EXISTS metric_series(
  ord INTEGER, series TEXT, config TEXT, metric TEXT, per TEXT, scale REAL);
-- Per capture: the mean over measured frames of the metric, times scale (or of the metric over
-- the denominator metric, summed over the same frames, when one is given); capture 'mean' is the
-- arithmetic mean over captures. CROSS JOIN: the series the outer loop, as in normalised_rows.
CREATE TEMP VIEW IF NOT EXISTS metric_rows(capture, ord, series, part, x, value) AS
  WITH m AS (SELECT * FROM measured_frame_metrics),
  per_capture(capture, ord, series, value) AS (
    SELECT a.capture, s.ord, s.series,
           CASE WHEN s.per = '' THEN avg(a.value) * s.scale
                ELSE sum(a.value) / NULLIF(sum(d.value), 0) * s.scale END
    FROM metric_series s
    CROSS JOIN m a ON a.config = s.config AND a.metric = s.metric
    LEFT JOIN m d ON d.capture = a.capture AND d.frame = a.frame AND d.config = a.config AND d.metric = s.per
    WHERE s.per = '' OR d.value IS NOT NULL
    GROUP BY a.capture, s.ord, s.series)
  SELECT capture, ord, series, NULL AS part, NULL AS x, value FROM per_capture WHERE value IS NOT NULL
  UNION ALL
  SELECT 'mean', ord, series, NULL, NULL, avg(value) FROM per_capture WHERE value IS NOT NULL
  GROUP BY ord, series;

-- Stacked bars (parts of a whole): a figure fills stacked_per_capture (DELETE, then INSERT its
-- per-capture value of each series and part) and selects from stacked_rows, ordered by
-- capture = 'mean', capture, ord, pord. Columns without a type keep the values as computed.
CREATE TEMP TABLE IF NOT EXISTS stacked_per_capture(capture, ord, series, pord, part, value);
-- The per-capture rows with a value, and capture 'mean': their arithmetic mean over captures.
CREATE TEMP VIEW IF NOT EXISTS stacked_rows(capture, ord, series, pord, part, x, value) AS
  SELECT capture, ord, series, pord, part, NULL, value FROM stacked_per_capture WHERE value IS NOT NULL
  UNION ALL
  SELECT 'mean', ord, series, pord, part, NULL, avg(value) FROM stacked_per_capture WHERE value IS NOT NULL
  GROUP BY ord, series, pord, part;
