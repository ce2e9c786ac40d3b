-- Paper 000 (DTM-NUCA) Fig. 10: GPU energy of each NUCA organisation broken down into the memory
-- hierarchy (energy.memory_nj) and the rest of the GPU, normalised to the total energy of private
-- texture caches (the mobile32 baseline, drawn first).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: stacked_rows of report/views.sql over these per-capture parts.
--
--@ paper: 000
--@ title: Fig. 10: energy, memory hierarchy and rest of the GPU, normalised to the baseline
--@ chart: stacked
--@ y: energy / baseline
--@ rule: 1
--@ needs: runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca
--@ explain: energy.memory_nj, energy.network_nj, energy.l2_nj, energy.dram_nj, nuca.network_flits (model/schemes/dtm-nuca/README.md, Measured against the paper)
--@ headline: DTM-NUCA | -6.9 | change | GPU energy, DTM-NUCA (Fig. 10, sec. VI)
--@ headline: DTM-NUCA-Dist | -7.6 | change | GPU energy, DTM-NUCA-Dist (Fig. 10, sec. VI)
--@ headline: D-NUCA | 4 | change | GPU energy, D-NUCA (Fig. 10, sec. VI)
DELETE FROM stacked_per_capture;
INSERT INTO stacked_per_capture (capture, ord, series, pord, part, value)
WITH
series(ord, series, config) AS (VALUES
  (0, 'Baseline', 'mobile32'),
  (1, 'DTM-NUCA', 'mobile32+dtm-nuca'),
  (2, 'DTM-NUCA-Dist', 'mobile32+dtm-nuca-dist'),
  (3, 'D-NUCA', 'mobile32+d-nuca')),
m AS (SELECT * FROM measured_frame_metrics),
per_frame(capture, frame, ord, series, memory, total, base_total) AS (
  SELECT t.capture, t.frame, s.ord, s.series, mem.value, t.value, b.value
  FROM series s
  JOIN m t ON t.config = s.config AND t.metric = 'energy.total_nj'
  JOIN m mem ON mem.capture = t.capture AND mem.frame = t.frame AND mem.config = t.config
            AND mem.metric = 'energy.memory_nj'
  JOIN m b ON b.capture = t.capture AND b.frame = t.frame AND b.config = 'mobile32'
          AND b.metric = 'energy.total_nj')
SELECT capture, ord, series, 0, 'memory hierarchy', sum(memory) / sum(base_total)
FROM per_frame GROUP BY capture, ord, series HAVING sum(base_total) > 0
UNION ALL
SELECT capture, ord, series, 1, 'rest of the GPU', sum(total - memory) / sum(base_total)
FROM per_frame GROUP BY capture, ord, series HAVING sum(base_total) > 0;
SELECT capture, series, part, x, value FROM stacked_rows
WHERE EXISTS (SELECT 1 FROM stacked_per_capture WHERE ord > 0)  -- more than the baseline
ORDER BY capture = 'mean', capture, ord, pord;
