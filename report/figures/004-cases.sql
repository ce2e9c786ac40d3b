-- Paper 004 (TFM) section III: shares of bilinear footprints that fall in one 4x4-texel block
-- (case 1), in two blocks (cases 2 and 3) and in four blocks (case 4), with the Texture Filter
-- Memory on mobile-256k.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: stacked_rows of report/views.sql over these per-capture parts.
--
--@ paper: 004
--@ title: Sec. III: bilinear footprints in one, two and four texture blocks
--@ chart: stacked
--@ y: share of texture accesses
--@ needs: runs of mobile-256k+tfm with the tfm.case1..4 metrics
--@ explain: texture.texel_reads, texture.lines, texture.samples (model/schemes/tfm/README.md, Measured against the paper)
--@ headline: TFM | 58 | percent | footprints in one block, case 1 (sec. III) | part=one block (case 1)
--@ headline: TFM | 36 | percent | footprints in two blocks, cases 2-3 (sec. III) | part=two blocks (cases 2, 3)
--@ headline: TFM | 6 | percent | footprints in four blocks, case 4 (sec. III) | part=four blocks (case 4)
DELETE FROM stacked_per_capture;
INSERT INTO stacked_per_capture (capture, ord, series, pord, part, value)
WITH
series(ord, series, config) AS (VALUES
  (0, 'TFM', 'mobile-256k+tfm')),
parts(pord, part, metric) AS (VALUES
  (0, 'one block (case 1)', 'tfm.case1'),
  (1, 'two blocks (cases 2, 3)', 'tfm.case2'),
  (1, 'two blocks (cases 2, 3)', 'tfm.case3'),
  (2, 'four blocks (case 4)', 'tfm.case4')),
m AS (SELECT * FROM measured_frame_metrics)
SELECT a.capture, s.ord, s.series, p.pord, p.part,
       sum(a.value) / NULLIF((SELECT sum(t.value) FROM m t
                              WHERE t.capture = a.capture AND t.config = s.config
                                AND t.metric IN (SELECT metric FROM parts)), 0)
FROM series s CROSS JOIN parts p
JOIN m a ON a.config = s.config AND a.metric = p.metric
GROUP BY a.capture, s.ord, s.series, p.pord, p.part;
SELECT capture, series, part, x, value FROM stacked_rows ORDER BY capture = 'mean', capture, ord, pord;
