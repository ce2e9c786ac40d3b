-- dae, dae-no-sharing, prefetch-ghb, perfect-l1: every line L1 fetched came from L2 or (dae) another core's L1, prefetch counts reconcile, perfect caches send nothing below, remote-resident misses are misses
WITH v AS (
  SELECT capture, frame, config,
         sum(value) FILTER (WHERE metric = 'l1tex.misses') AS misses,
         sum(value) FILTER (WHERE metric = 'l1tex.prefetches') AS probes,
         sum(value) FILTER (WHERE metric = 'l1tex.prefetch_fills') AS fills,
         sum(value) FILTER (WHERE metric = 'l1tex.prefetch_hits') AS prefetch_hits,
         sum(value) FILTER (WHERE metric = 'l2.texture_accesses') AS l2_texture,
         sum(value) FILTER (WHERE metric = 'l1tex.misses_remote_resident') AS remote_resident,
         sum(value) FILTER (WHERE metric = 'dae.prefetches') AS dae_prefetches,
         sum(value) FILTER (WHERE metric = 'dae.useful') AS useful,
         sum(value) FILTER (WHERE metric = 'dae.late') AS late,
         sum(value) FILTER (WHERE metric = 'dae.remote_served') AS remote_served,
         sum(value) FILTER (WHERE metric = 'ghb.prefetches') AS ghb_prefetches
  FROM frame_metrics GROUP BY capture, frame, config)
SELECT (SELECT count(*) FROM v WHERE config LIKE 'tegra2+dae%'
          AND (dae_prefetches IS NULL OR dae_prefetches != probes OR useful != prefetch_hits OR late > useful
               OR misses + fills - coalesce(remote_served, 0) != l2_texture
               OR (config NOT LIKE 'tegra2+dae-no-sharing%' AND remote_served IS NULL)))
     + (SELECT count(*) FROM v WHERE config LIKE 'tegra2+prefetch-ghb%'
          AND (ghb_prefetches IS NULL OR ghb_prefetches != probes OR misses + fills != l2_texture))
     + (SELECT count(*) FROM v WHERE config LIKE 'tegra2+perfect-l1%' AND (misses != 0 OR l2_texture != 0))
     + (SELECT count(*) FROM v WHERE (config = 'tegra2' OR config LIKE 'tegra2+core.max_quads=%') AND (remote_resident IS NULL OR remote_resident > misses))
     + (SELECT 5 - count(DISTINCT config) FROM v
          WHERE config IN ('tegra2', 'tegra2+dae', 'tegra2+dae-no-sharing', 'tegra2+prefetch-ghb', 'tegra2+perfect-l1'))
     AS violations
