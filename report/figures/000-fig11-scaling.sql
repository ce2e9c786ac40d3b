-- Paper 000 (DTM-NUCA) Fig. 11: speedup of the two DTM-NUCA flavours against private texture
-- caches with the same number of shader cores (gpu.shader_cores overrides of mobile32; x = cores).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
--
--@ paper: 000
--@ title: Fig. 11: speedup against the number of shader cores
--@ chart: lines
--@ y: speedup over private caches, same cores
--@ x: shader cores
--@ rule: 1
--@ log-x: yes
--@ needs: runs of mobile32 with --set gpu.shader_cores=N, with and without +dtm-nuca / +dtm-nuca-dist
--@ explain: core.cycles.* (texture_wait, blocked, starved), nuca.mean_hops, nuca.mean_link_utilisation (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: DTM-NUCA | 10.2 | change | speedup with 4 cores, DTM-NUCA (Fig. 11, sec. VI) | x=4
--@ headline: DTM-NUCA-Dist | 7 | change | speedup with 4 cores, DTM-NUCA-Dist (Fig. 11, sec. VI) | x=4
WITH
series(ord, series, prefix) AS (VALUES
  (-1, 'Baseline', 'mobile32'),
  (0, 'DTM-NUCA', 'mobile32+dtm-nuca'),
  (1, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist')),
m AS (SELECT * FROM measured_frame_metrics),
param AS (SELECT * FROM run_config_param),
runs(ord, series, config, x) AS (
  SELECT s.ord, s.series, p.config, CAST(p.value AS INTEGER) FROM series s
  JOIN param p ON p.key = 'gpu.shader_cores'
              AND (p.config = s.prefix OR p.config LIKE s.prefix || '+gpu.shader_cores=%')
              AND p.config NOT LIKE s.prefix || '+gpu.shader_cores=%+%'),
per_capture(capture, ord, series, x, value) AS (
  SELECT a.capture, r.ord, r.series, r.x, sum(b.value) / NULLIF(sum(a.value), 0)
  FROM runs r
  JOIN runs base ON base.ord = -1 AND base.x = r.x
  JOIN m a ON a.config = r.config AND a.metric = 'cycles'
  JOIN m b ON b.capture = a.capture AND b.frame = a.frame AND b.config = base.config
          AND b.metric = 'cycles'
  WHERE r.ord >= 0
  GROUP BY a.capture, r.ord, r.series, r.x)
SELECT capture, series, part, x, value FROM (
  SELECT capture, ord, series, NULL AS part, x, value FROM per_capture
  UNION ALL
  SELECT 'mean', ord, series, NULL, x, avg(value) FROM per_capture GROUP BY ord, series, x)
ORDER BY capture = 'mean', capture, ord, x;
