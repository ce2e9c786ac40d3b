-- Paper 000 (DTM-NUCA) Fig. 6: L2 accesses of each NUCA organisation of the 32 L1 texture caches,
-- normalised to private caches (the mobile32 baseline).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 000
--@ title: Fig. 6: L2 accesses, normalised to private texture caches
--@ chart: bars
--@ y: L2 accesses / baseline
--@ rule: 1
--@ needs: runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca
--@ explain: l2.accesses, l1tex.local_hits, l1tex.remote_hits, l1tex.remote_l2_hits, nuca.ownership_changes (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: DTM-NUCA | -41.8 | change | L2 accesses, DTM-NUCA (Fig. 6, sec. VI)
--@ headline: DTM-NUCA-Dist | -33.3 | change | L2 accesses, DTM-NUCA-Dist (Fig. 6, sec. VI)
--@ headline: D-NUCA | -46.2 | change | L2 accesses, D-NUCA (Fig. 6, sec. VI)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'DTM-NUCA', 'mobile32+dtm-nuca', 'mobile32', 'l2.accesses', 'ratio'),
  (1, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist', 'mobile32', 'l2.accesses', 'ratio'),
  (2, 'D-NUCA', 'mobile32+d-nuca', 'mobile32', 'l2.accesses', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
