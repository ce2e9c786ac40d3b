-- Paper 000 (DTM-NUCA) Fig. 8: texture accesses broken down into local and remote accesses, each
-- served by an L1 (hits) or by L2 (L2 hits and misses), as shares of all L1 texture accesses, per
-- NUCA organisation on mobile32. Local L2 accesses are the misses of a core that owns the block
-- (D-NUCA: that nobody holds); remote ones, the misses of the owner's L1 on another core's behalf.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: stacked_rows of report/views.sql over these per-capture parts.
--
--@ paper: 000
--@ title: Fig. 8: local and remote accesses to the texture caches
--@ chart: stacked
--@ y: share of L1 texture accesses
--@ needs: runs of mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca with the l1tex.local_hits / remote_* metrics
--@ explain: l1tex.local_hits, l1tex.remote_hits, l1tex.local_l2_hits, l1tex.remote_l2_hits, nuca.ownership_changes (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: DTM-NUCA | 66.3 | percent | local hits, DTM-NUCA (Fig. 8, sec. VI) | part=local hits
--@ headline: DTM-NUCA-Dist | 73.9 | percent | local hits, DTM-NUCA-Dist (Fig. 8, sec. VI) | part=local hits
--@ headline: D-NUCA | 27.5 | percent | local hits, D-NUCA (Fig. 8, sec. VI) | part=local hits
DELETE FROM stacked_per_capture;
INSERT INTO stacked_per_capture (capture, ord, series, pord, part, value)
WITH
series(ord, series, config) AS (VALUES
  (0, 'DTM-NUCA', 'mobile32+dtm-nuca'),
  (1, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist'),
  (2, 'D-NUCA', 'mobile32+d-nuca')),
parts(pord, part, metric) AS (VALUES
  (0, 'local hits', 'l1tex.local_hits'),
  (1, 'local, L2 hits', 'l1tex.local_l2_hits'),
  (2, 'local, L2 misses', 'l1tex.local_l2_misses'),
  (3, 'remote hits', 'l1tex.remote_hits'),
  (4, 'remote, L2 hits', 'l1tex.remote_l2_hits'),
  (5, 'remote, L2 misses', 'l1tex.remote_l2_misses')),
m AS (SELECT * FROM measured_frame_metrics)
SELECT a.capture, s.ord, s.series, p.pord, p.part, sum(a.value) / NULLIF(sum(t.value), 0)
FROM series s CROSS JOIN parts p
JOIN m a ON a.config = s.config AND a.metric = p.metric
JOIN m t ON t.capture = a.capture AND t.frame = a.frame AND t.config = a.config
        AND t.metric = 'l1tex.accesses'
GROUP BY a.capture, s.ord, s.series, p.pord, p.part;
SELECT capture, series, part, x, value FROM stacked_rows ORDER BY capture = 'mean', capture, ord, pord;
