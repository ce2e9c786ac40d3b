-- tcor: OPT never misses more than LRU on the same tile cache (unified, and TCOR's Attribute Cache against tcor.policy=lru), no tile cache beats the section V-A lower bound, the split cache's L2 traffic is the L2's PB traffic, only the dead-line L2 drops lines, every configuration queues the same primitives
WITH
m AS (SELECT capture, frame, config, metric, value FROM frame_metrics),
opt_pairs AS (
  SELECT o.capture, o.frame, o.value AS opt, l.value AS lru FROM m o JOIN m l
    ON l.capture = o.capture AND l.frame = o.frame AND l.metric = 'tile.misses'
   AND l.config = replace(replace(o.config, '+tile.bypass=true', ''), '+tile.policy=opt', '')
  WHERE o.metric = 'tile.misses' AND o.config LIKE '%+tile.policy=opt%'),
attr_pairs AS (
  SELECT o.capture, o.frame, o.value AS opt, l.value AS lru FROM m o JOIN m l
    ON l.capture = o.capture AND l.frame = o.frame AND l.metric = 'tile.attr.misses'
   AND replace(l.config, '+tcor.policy=lru', '') = o.config AND l.config LIKE '%+tcor.policy=lru%'
  WHERE o.metric = 'tile.attr.misses' AND o.config NOT LIKE '%+tcor.policy=lru%'),
bound AS (
  SELECT b.capture, b.frame, b.config, b.value AS lb,
         (SELECT x.value FROM m x WHERE x.capture = b.capture AND x.frame = b.frame AND x.config = b.config
            AND x.metric = CASE b.metric WHEN 'tcor.lower_bound' THEN 'tile.attr.misses' ELSE 'tile.misses' END) AS misses
  FROM m b WHERE b.metric IN ('tcor.lower_bound', 'tile.lower_bound_lines')),
split AS (
  SELECT r.capture, r.frame, r.config, r.value + w.value AS sent, p.value AS l2 FROM m r
    JOIN m w ON w.capture = r.capture AND w.frame = r.frame AND w.config = r.config AND w.metric = 'tcor.l2_writes'
    JOIN m p ON p.capture = r.capture AND p.frame = r.frame AND p.config = r.config AND p.metric = 'pb.l2_accesses'
  WHERE r.metric = 'tcor.l2_reads')
SELECT (SELECT count(*) FROM opt_pairs WHERE opt > lru)
     + (SELECT count(*) FROM attr_pairs WHERE opt > lru)
     + (SELECT count(*) = 0 FROM opt_pairs)
     + (SELECT count(*) FROM bound WHERE misses IS NULL OR misses < lb)
     + (SELECT count(*) FROM split WHERE sent != l2)
     + (SELECT count(*) = 0 FROM split)
     + (SELECT count(*) FROM m WHERE metric = 'l2.dead_drops' AND value > 0
          AND config NOT LIKE '%+tcor' AND config NOT LIKE '%+tcor+%')
     + (SELECT count(*) FROM (SELECT capture, frame FROM m WHERE metric = 'tile_fetcher.primitives'
          GROUP BY capture, frame HAVING min(value) != max(value))) AS violations
