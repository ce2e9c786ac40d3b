-- dtm-nuca: every variant and combination runs; local + remote hits + misses = accesses, the misses are the local and remote L2 hits and misses; D-NUCA never holds a block in two L1s; no packet missed its calendar; network energy wherever flits flowed
WITH n AS (
  SELECT capture, frame, config,
         sum(CASE WHEN metric = 'l1tex.accesses' THEN value END) AS accesses,
         sum(CASE WHEN metric = 'l1tex.misses' THEN value END) AS misses,
         sum(CASE WHEN metric = 'l1tex.local_hits' THEN value END) AS local_hits,
         sum(CASE WHEN metric = 'l1tex.remote_hits' THEN value END) AS remote_hits,
         sum(CASE WHEN metric IN ('l1tex.local_l2_hits', 'l1tex.local_l2_misses', 'l1tex.remote_l2_hits',
                                  'l1tex.remote_l2_misses') THEN value END) AS l2_parts,
         count(CASE WHEN metric IN ('l1tex.local_l2_hits', 'l1tex.local_l2_misses', 'l1tex.remote_l2_hits',
                                    'l1tex.remote_l2_misses') THEN 1 END) AS l2_part_rows,
         sum(CASE WHEN metric = 'nuca.late_packets' THEN value END) AS late,
         sum(CASE WHEN metric = 'nuca.network_flits' THEN value END) AS flits,
         sum(CASE WHEN metric = 'energy.network_nj' THEN value END) AS network_nj,
         sum(CASE WHEN metric = 'replication.avg' THEN value END) AS replication
  FROM frame_metrics
  WHERE config LIKE '%+dtm-nuca%' OR config LIKE '%+d-nuca%'
  GROUP BY capture, frame, config)
SELECT (SELECT count(*) FROM n
        WHERE accesses IS NULL OR misses IS NULL OR local_hits IS NULL OR remote_hits IS NULL OR l2_part_rows != 4
           OR late IS NULL OR flits IS NULL OR network_nj IS NULL OR replication IS NULL
           OR local_hits + remote_hits + misses != accesses
           OR l2_parts != misses
           OR late != 0
           OR (flits > 0 AND NOT network_nj > 0)
           OR (config LIKE '%+d-nuca%' AND accesses > 0 AND replication != 1))
     + (SELECT 4 - count(DISTINCT config) FROM frame_metrics
        WHERE config IN ('mobile32+dtm-nuca', 'mobile32+dtm-nuca-dist', 'mobile32+d-nuca', 'mobile4+dtexl+dtm-nuca'))
       AS violations
