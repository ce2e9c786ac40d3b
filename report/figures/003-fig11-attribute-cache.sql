-- Paper 003 (TCOR) Figs. 11-12 like for like: miss ratio of TCOR's Attribute Cache (primitives:
-- every write misses, plus the read misses) against its size, OPT (TCOR, writes bypass) against
-- LRU at the same primitive granularity (tcor.policy=lru), fully associative (tile.ways=0, Fig. 11)
-- or set-associative (Fig. 12), each with the section V-A lower bound LB of the same capacity
-- (tcor.lower_bound, in primitives; the Primitive Buffer's lines depend on the ways).
-- All captures and measured frames pooled: capture = 'suite'. x = Attribute Cache size in KiB
-- (tile.size - tcor.plc_size). Columns: capture, series, part, x, value.
--
--@ paper: 003
--@ title: Figs. 11-12: Attribute Cache miss ratio against its size, OPT (TCOR) and LRU per primitive
--@ chart: lines
--@ y: miss ratio
--@ x: Attribute Cache (KiB)
--@ log-x: yes
--@ needs: runs of mobile4-64k+tcor with --set tile.size=N, tile.ways=N (0: fully associative) and tcor.policy=opt|lru
WITH
m AS (SELECT * FROM measured_frame_metrics),
param AS (SELECT * FROM run_config_param),
runs(config, policy, ways, x) AS (
  SELECT s.config, p.value, CAST(w.value AS INTEGER), (CAST(s.value AS REAL) - CAST(l.value AS REAL)) / 1024
  FROM param s
  JOIN param l ON l.config = s.config AND l.key = 'tcor.plc_size'
  JOIN param w ON w.config = s.config AND w.key = 'tile.ways'
  JOIN param p ON p.config = s.config AND p.key = 'tcor.policy'
  WHERE s.key = 'tile.size' AND (s.config = 'mobile4-64k+tcor' OR s.config LIKE 'mobile4-64k+tcor+%')
    -- The paper's TCOR otherwise: another PB-Lists layout or OPT field would be another curve.
    AND NOT EXISTS (SELECT 1 FROM param o WHERE o.config = s.config
                    AND ((o.key = 'tcor.pb_layout' AND o.value != 'interleaved')
                      OR (o.key = 'tcor.opt_bits' AND o.value != '12')))),
labelled(config, policy, assoc, x) AS (
  SELECT config, policy, CASE ways WHEN 0 THEN 'fully associative' ELSE ways || '-way' END, x FROM runs),
pooled(series, ord, x, misses, accesses) AS (
  SELECT CASE r.policy WHEN 'opt' THEN 'OPT (TCOR), ' ELSE 'LRU, ' END || r.assoc, 1, r.x, sum(mi.value), sum(ac.value)
  FROM labelled r
  JOIN m ac ON ac.config = r.config AND ac.metric = 'tile.attr.accesses'
  JOIN m mi ON mi.capture = ac.capture AND mi.frame = ac.frame AND mi.config = ac.config
           AND mi.metric = 'tile.attr.misses'
  GROUP BY r.policy, r.assoc, r.x
  UNION ALL
  SELECT 'lower bound (LB), ' || r.assoc, 0, r.x, sum(lb.value), sum(ac.value)
  FROM labelled r
  JOIN m ac ON ac.config = r.config AND ac.metric = 'tile.attr.accesses'
  JOIN m lb ON lb.capture = ac.capture AND lb.frame = ac.frame AND lb.config = ac.config
           AND lb.metric = 'tcor.lower_bound'
  WHERE r.config = (SELECT min(config) FROM labelled o WHERE o.x = r.x AND o.assoc = r.assoc)
  GROUP BY r.assoc, r.x)
SELECT 'suite' AS capture, series, NULL AS part, x, misses / accesses AS value FROM pooled
WHERE accesses > 0
ORDER BY ord, series, x;
