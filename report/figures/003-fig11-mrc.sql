-- Paper 003 (TCOR) Figs. 11-13: miss ratio of the tile cache (Parameter Buffer accesses) against
-- its size, per replacement policy and associativity (tile.size, tile.policy and tile.ways
-- overrides of mobile4-64k; tile.ways=0 is fully associative, Figs. 1 and 11), with the lower
-- bound LB of section V-A counted in lines (tile.lower_bound_lines misses; the paper's LB counts
-- primitives of TCOR's Attribute Cache, tcor.lower_bound: 003-fig11-attribute-cache draws that
-- like for like). OPT with tile.bypass=true bypasses writes as TCOR does (III-C4).
-- All captures and measured frames pooled: capture = 'suite'. x = tile cache size in KiB.
-- Columns: capture, series, part, x, value.
--
--@ paper: 003
--@ title: Figs. 11-13: tile cache miss ratio against its size, per replacement policy
--@ chart: lines
--@ y: miss ratio
--@ x: tile cache (KiB)
--@ log-x: yes
--@ needs: runs of mobile4-64k with --set tile.size=N and tile.policy=lru|opt|mru|drrip (tile.ways=N, 0: fully associative; tile.bypass=true with opt)
WITH
m AS (SELECT * FROM measured_frame_metrics),
param AS (SELECT * FROM run_config_param),
runs(config, policy, bypass, ways, x) AS (
  SELECT c.config, p.value, b.value, CAST(w.value AS INTEGER), CAST(c.value AS REAL) / 1024
  FROM param c
  JOIN param w ON w.config = c.config AND w.key = 'tile.ways'
  JOIN param p ON p.config = c.config AND p.key = 'tile.policy'
  JOIN param b ON b.config = c.config AND b.key = 'tile.bypass'
  WHERE c.key = 'tile.size'
    AND (c.config = 'mobile4-64k' OR c.config LIKE 'mobile4-64k+tile.%')),
pooled(series, ord, x, misses, accesses) AS (
  SELECT upper(r.policy) || CASE r.bypass WHEN 'true' THEN ' (writes bypass)' ELSE '' END || ', ' ||
         CASE r.ways WHEN 0 THEN 'fully associative' ELSE r.ways || '-way' END, 1, r.x,
         sum(mi.value), sum(ac.value)
  FROM runs r
  JOIN m ac ON ac.config = r.config AND ac.metric = 'tile.accesses'
  JOIN m mi ON mi.capture = ac.capture AND mi.frame = ac.frame AND mi.config = ac.config
           AND mi.metric = 'tile.misses'
  GROUP BY r.policy, r.bypass, r.ways, r.x
  UNION ALL
  SELECT 'lower bound (LB)', 0, r.x, sum(lb.value), sum(ac.value)
  FROM runs r
  JOIN m ac ON ac.config = r.config AND ac.metric = 'tile.accesses'
  JOIN m lb ON lb.capture = ac.capture AND lb.frame = ac.frame AND lb.config = ac.config
           AND lb.metric = 'tile.lower_bound_lines'
  WHERE r.config = (SELECT min(config) FROM runs o WHERE o.x = r.x)
  GROUP BY r.x)
SELECT 'suite' AS capture, series, NULL AS part, x, misses / accesses AS value FROM pooled
WHERE accesses > 0
ORDER BY ord, series, x;
