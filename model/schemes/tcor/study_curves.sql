-- The README's per-capture table of Figs. 11-12 like for like, from a database of
-- studies/003-tcor.json: per capture and TCOR configuration with a fully associative Attribute
-- Cache (tile.ways=0; mobile4-64k+tcor's own 4-way point beside them), its size in KiB (tile.size
-- less tcor.plc_size), the miss ratio (tile.attr.misses / tile.attr.accesses, primitives) and the
-- section V-A bound of the same capacity (tcor.lower_bound / tile.attr.accesses):
--   tessera query 003.db "$(cat model/schemes/tcor/study_curves.sql)"
WITH
param AS (SELECT * FROM run_config_param),
runs(config, policy, ways, kib) AS (
  SELECT s.config, p.value, w.value, (CAST(s.value AS REAL) - CAST(l.value AS REAL)) / 1024
  FROM param s
  JOIN param l ON l.config = s.config AND l.key = 'tcor.plc_size'
  JOIN param w ON w.config = s.config AND w.key = 'tile.ways'
  JOIN param p ON p.config = s.config AND p.key = 'tcor.policy'
  WHERE s.key = 'tile.size' AND (s.config = 'mobile4-64k+tcor' OR s.config = 'mobile4-64k+tcor+tcor.policy=lru'
                                 OR s.config LIKE 'mobile4-64k+tcor+%tile.ways=0%')),
m AS (
  SELECT capture, config,
         sum(CASE WHEN metric = 'tile.attr.misses' THEN value END) AS misses,
         sum(CASE WHEN metric = 'tile.attr.accesses' THEN value END) AS accesses,
         sum(CASE WHEN metric = 'tcor.lower_bound' THEN value END) AS lb
  FROM measured_frame_metrics GROUP BY capture, config)
SELECT m.capture, r.kib, CASE r.ways WHEN '0' THEN 'fully associative' ELSE r.ways || '-way' END AS assoc,
       upper(r.policy) AS policy, printf('%.3f', m.misses / m.accesses) AS miss_ratio,
       printf('%.3f', m.lb / m.accesses) AS lower_bound
FROM runs r JOIN m ON m.config = r.config
WHERE m.accesses > 0
ORDER BY m.capture, assoc, policy, r.kib;
