-- Paper 000 (DTM-NUCA) Fig. 9: speedup (baseline cycles over cycles) of each NUCA organisation
-- against private texture caches (the mobile32 baseline).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 000
--@ title: Fig. 9: speedup over private texture caches
--@ chart: bars
--@ y: speedup
--@ rule: 1
--@ needs: runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca
--@ explain: core.cycles.* (texture_wait, blocked, starved), nuca.mean_hops, nuca.mean_link_utilisation, nuca.buffer_wait_cycles, dram.flush_share (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: DTM-NUCA | 16.9 | change | speedup, DTM-NUCA (Fig. 9, sec. VI)
--@ headline: DTM-NUCA-Dist | 15.7 | change | speedup, DTM-NUCA-Dist (Fig. 9, sec. VI)
--@ headline: D-NUCA | -22 | change | speedup, D-NUCA: a 22 % slowdown (Fig. 9, sec. VI)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'DTM-NUCA', 'mobile32+dtm-nuca', 'mobile32', 'cycles', 'speedup'),
  (1, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist', 'mobile32', 'cycles', 'speedup'),
  (2, 'D-NUCA', 'mobile32+d-nuca', 'mobile32', 'cycles', 'speedup');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
