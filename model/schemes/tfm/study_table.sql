-- The README's tables ("Measured against the paper") as Markdown rows, from a database of
-- studies/004-tfm.json, over the frames the report measures (the cold first one left out):
--   tessera query 004.db "$(cat model/schemes/tfm/study_table.sql)"
-- One row per capture and core count (4: mobile-256k; 1: one core in scanline tile order):
-- the hit rate per texel read of the first level the texture unit reads (Fig. 8: the conventional
-- unit's 16 KiB 2-way L1, its 512 B direct-mapped L1, the 512 B direct-mapped and fully
-- associative filters, TFM), our coalescing L1's per line, the energy per texture access of each
-- (Fig. 9, pJ) and TFM's against the filters and the conventional unit; then TFM's frame cycles
-- and GPU energy against the coalescing mobile-256k, and the 512 B L1's frame cycles against the
-- conventional unit's.
WITH
variant(name, suffix) AS (VALUES
  ('base', ''), ('conv', '+conventional-tu'), ('dm_l1', '+l1-dm512'), ('dm', '+filter-dm512'),
  ('fa', '+filter-fa512'), ('tfm', '+tfm')),
shape(cores, suffix) AS (VALUES (4, ''), (1, '+gpu.shader_cores=1+gpu.tile_order=scanline')),
s AS (
  SELECT m.capture, sh.cores, v.name,
         sum(CASE WHEN m.metric = 'l1tex.hits' THEN m.value END) AS l1_hits,
         sum(CASE WHEN m.metric = 'l1tex.accesses' THEN m.value END) AS l1_accesses,
         sum(CASE WHEN m.metric = 'tfm.hits' THEN m.value END) AS front_hits,
         sum(CASE WHEN m.metric = 'tfm.accesses' THEN m.value END) AS front_accesses,
         avg(CASE WHEN m.metric = 'energy.texture_path_pj_per_access' THEN m.value END) AS pj,
         sum(CASE WHEN m.metric = 'cycles' THEN m.value END) AS cycles,
         sum(CASE WHEN m.metric = 'energy.total_nj' THEN m.value END) AS energy
  FROM measured_frame_metrics m
  JOIN variant v JOIN shape sh ON m.config = 'mobile-256k' || v.suffix || sh.suffix
  GROUP BY m.capture, sh.cores, v.name),
w AS (
  SELECT capture, cores,
         max(CASE WHEN name = 'conv' THEN 100.0 * l1_hits / l1_accesses END) AS hit_conv,
         max(CASE WHEN name = 'dm_l1' THEN 100.0 * l1_hits / l1_accesses END) AS hit_dm_l1,
         max(CASE WHEN name = 'dm' THEN 100.0 * front_hits / front_accesses END) AS hit_dm,
         max(CASE WHEN name = 'fa' THEN 100.0 * front_hits / front_accesses END) AS hit_fa,
         max(CASE WHEN name = 'tfm' THEN 100.0 * front_hits / front_accesses END) AS hit_tfm,
         max(CASE WHEN name = 'base' THEN 100.0 * l1_hits / l1_accesses END) AS hit_base,
         max(CASE WHEN name = 'conv' THEN pj END) AS pj_conv,
         max(CASE WHEN name = 'dm_l1' THEN pj END) AS pj_dm_l1,
         max(CASE WHEN name = 'dm' THEN pj END) AS pj_dm,
         max(CASE WHEN name = 'fa' THEN pj END) AS pj_fa,
         max(CASE WHEN name = 'tfm' THEN pj END) AS pj_tfm,
         max(CASE WHEN name = 'base' THEN pj END) AS pj_base,
         max(CASE WHEN name = 'tfm' THEN cycles END) / max(CASE WHEN name = 'base' THEN cycles END) AS tfm_cycles,
         max(CASE WHEN name = 'tfm' THEN energy END) / max(CASE WHEN name = 'base' THEN energy END) AS tfm_energy,
         max(CASE WHEN name = 'dm_l1' THEN cycles END) / max(CASE WHEN name = 'conv' THEN cycles END) AS dm_l1_cycles
  FROM s GROUP BY capture, cores)
SELECT printf('| %s | %d | %.1f / %.1f / %.1f / %.1f / %.1f | %.1f | %.2f / %.2f / %.2f / %.2f / %.2f / %.2f | %+.0f %% / %+.0f %% / %+.0f %% | %.3fx | %+.1f %% | %.3fx |',
              capture, cores, hit_conv, hit_dm_l1, hit_dm, hit_fa, hit_tfm, hit_base,
              pj_conv, pj_dm_l1, pj_dm, pj_fa, pj_tfm, pj_base,
              100.0 * (pj_tfm / pj_dm - 1), 100.0 * (pj_tfm / pj_fa - 1), 100.0 * (pj_tfm / pj_conv - 1),
              tfm_cycles, 100.0 * (tfm_energy - 1), dm_l1_cycles) AS markdown
FROM w ORDER BY cores DESC, capture;
