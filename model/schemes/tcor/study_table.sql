-- The README's table ("Measured") as Markdown rows, from a database of studies/003-tcor.json,
-- over the frames the report measures (the cold first one left out; the README bolds the mean
-- row's headline columns and leaves its shares blank):
--   tessera query 003.db "$(cat model/schemes/tcor/study_table.sql)"
-- One row per capture, then the mean over captures: TCOR against mobile4-64k (64 KiB tile cache,
-- and its 128 KiB variant) -- Parameter Buffer accesses to L2 (Figs. 14-15) and to main memory
-- (Figs. 16-17), the PB's share of main-memory accesses on mobile4-64k, main-memory accesses
-- (Fig. 18), memory-hierarchy energy with and without the L2 policy (Fig. 20), GPU energy
-- (Fig. 22), frame cycles. The miss-ratio curves: report figures 003-fig11-attribute-cache and
-- 003-fig11-mrc (tessera query 003.db "$(cat report/figures/003-fig11-attribute-cache.sql)").
WITH
variant(name, config) AS (VALUES
  ('base', 'mobile4-64k'), ('tcor', 'mobile4-64k+tcor'), ('nol2', 'mobile4-64k+tcor-no-l2'),
  ('base128', 'mobile4-64k+tile.size=131072'), ('tcor128', 'mobile4-64k+tcor+tile.size=131072')),
s AS (
  SELECT m.capture, v.name,
         sum(CASE WHEN m.metric = 'pb.l2_accesses' THEN m.value END) AS pb_l2,
         sum(CASE WHEN m.metric = 'pb.dram_accesses' THEN m.value END) AS pb_dram,
         sum(CASE WHEN m.metric = 'dram.accesses' THEN m.value END) AS dram,
         sum(CASE WHEN m.metric = 'energy.memory_nj' THEN m.value END) AS memory,
         sum(CASE WHEN m.metric = 'energy.total_nj' THEN m.value END) AS energy,
         sum(CASE WHEN m.metric = 'cycles' THEN m.value END) AS cycles
  FROM measured_frame_metrics m JOIN variant v ON m.config = v.config
  GROUP BY m.capture, v.name),
w AS (
  SELECT capture,
         max(CASE WHEN name = 'tcor' THEN pb_l2 END) / max(CASE WHEN name = 'base' THEN pb_l2 END) AS pb_l2,
         max(CASE WHEN name = 'tcor128' THEN pb_l2 END) / max(CASE WHEN name = 'base128' THEN pb_l2 END) AS pb_l2_128,
         max(CASE WHEN name = 'tcor' THEN pb_dram END) / max(CASE WHEN name = 'base' THEN pb_dram END) AS pb_dram,
         max(CASE WHEN name = 'tcor128' THEN pb_dram END) / max(CASE WHEN name = 'base128' THEN pb_dram END) AS pb_dram_128,
         max(CASE WHEN name = 'base' THEN pb_dram / dram END) AS pb_share,
         max(CASE WHEN name = 'tcor' THEN dram END) / max(CASE WHEN name = 'base' THEN dram END) AS dram,
         max(CASE WHEN name = 'tcor' THEN memory END) / max(CASE WHEN name = 'base' THEN memory END) AS memory,
         max(CASE WHEN name = 'nol2' THEN memory END) / max(CASE WHEN name = 'base' THEN memory END) AS memory_nol2,
         max(CASE WHEN name = 'tcor' THEN energy END) / max(CASE WHEN name = 'base' THEN energy END) AS energy,
         max(CASE WHEN name = 'tcor' THEN cycles END) / max(CASE WHEN name = 'base' THEN cycles END) AS cycles
  FROM s GROUP BY capture),
rows AS (
  SELECT 0 AS ord, * FROM w
  UNION ALL
  SELECT 1, '**mean**', avg(pb_l2), avg(pb_l2_128), avg(pb_dram), avg(pb_dram_128), avg(pb_share), avg(dram),
         avg(memory), avg(memory_nol2), avg(energy), avg(cycles) FROM w)
SELECT printf('| %s | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% |',
              capture, 100 * (pb_l2 - 1), 100 * (pb_l2_128 - 1), 100 * (pb_dram - 1), 100 * (pb_dram_128 - 1),
              100 * pb_share, 100 * (dram - 1), 100 * (memory - 1), 100 * (memory_nol2 - 1), 100 * (energy - 1),
              100 * (cycles - 1)) AS markdown
FROM rows ORDER BY ord, capture;
