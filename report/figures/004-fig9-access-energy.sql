-- Paper 004 (TFM) Fig. 9: average energy per texture access of the texture path (pJ): the
-- conventional unit of Algorithm 1 (a lookup per texel read) with its 16 KiB 2-way L1 and with a
-- 512 B direct-mapped L1, the two 512 B filter caches and the Texture Filter Memory in front of the
-- 16 KiB L1, and beside them our coalescing L1 (mobile-256k: one read per distinct line of a
-- sample). Every bar divides by the same count, the coalescing unit's line requests.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ paper: 004
--@ title: Fig. 9: average energy per texture access
--@ chart: bars
--@ y: pJ per access
--@ needs: runs of mobile-256k+conventional-tu / +l1-dm512 / +filter-dm512 / +filter-fa512 / +tfm
--@ explain: energy.texture_path_pj_per_access, tfm.hits, l1tex.accesses, l2.texture_accesses (model/schemes/tfm/README.md, Measured against the paper)
--@ headline: TFM | -25 | change | access energy, TFM against a 512 B direct-mapped filter (Fig. 9, sec. V-A2) | over=Filter 512 B direct-mapped
--@ headline: TFM | -60 | change | access energy, TFM against a 512 B fully associative filter (Fig. 9) | over=Filter 512 B fully assoc.
--@ headline: TFM | -77 | change | access energy, TFM against the conventional L1 + L2 (Fig. 9) | over=Conventional L1 + L2
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'Conventional L1 + L2', 'mobile-256k+conventional-tu', 'energy.texture_path_pj_per_access', '', 1.0),
  (1, 'L1 512 B direct-mapped + L2', 'mobile-256k+l1-dm512', 'energy.texture_path_pj_per_access', '', 1.0),
  (2, 'Filter 512 B direct-mapped', 'mobile-256k+filter-dm512', 'energy.texture_path_pj_per_access', '', 1.0),
  (3, 'Filter 512 B fully assoc.', 'mobile-256k+filter-fa512', 'energy.texture_path_pj_per_access', '', 1.0),
  (4, 'TFM', 'mobile-256k+tfm', 'energy.texture_path_pj_per_access', '', 1.0),
  (5, 'Coalescing L1 + L2 (ours)', 'mobile-256k', 'energy.texture_path_pj_per_access', '', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
