-- Replication degree of the L1 texture caches (paper 000 section I): mean number of L1s holding
-- a block right after it is serviced, per capture, for each plain preset.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: metric_rows of report/views.sql over these series.
--
--@ section: replication
--@ title: Mean replication degree: L1 texture caches holding a block right after it is serviced
--@ chart: bars
--@ y: L1s holding the block
--@ rule: 1
--@ needs: runs with the replication.avg metric
DELETE FROM metric_series;
INSERT INTO metric_series (ord, series, config, metric, per, scale) VALUES
  (0, 'mobile4', 'mobile4', 'replication.avg', '', 1.0),
  (1, 'mobile32', 'mobile32', 'replication.avg', '', 1.0),
  (2, 'mobile4-64k', 'mobile4-64k', 'replication.avg', '', 1.0),
  (3, 'mobile-256k', 'mobile-256k', 'replication.avg', '', 1.0),
  (4, 'tegra2', 'tegra2', 'replication.avg', '', 1.0);
SELECT capture, series, part, x, value FROM metric_rows ORDER BY capture = 'mean', capture, ord;
