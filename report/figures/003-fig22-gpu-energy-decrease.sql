-- Paper 003 (TCOR) Fig. 22: decrease in total GPU energy (percent) against the baseline
-- (mobile4-64k).
-- The 128 KiB series (the paper's second figure) run with --set tile.size=131072 and are
-- normalised to mobile4-64k+tile.size=131072.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 003
--@ title: Fig. 22: decrease in total GPU energy
--@ chart: bars
--@ y: decrease in GPU energy (%)
--@ rule: 0
--@ needs: runs of mobile4-64k and mobile4-64k+tcor (+tcor-no-l2), or of both with --set tile.size=131072
--@ explain: energy.total_nj, energy.memory_nj, pb.dram_accesses, dram.flush_share (model/schemes/tcor/README.md, Measured)
--@ headline: TCOR | 5.6 | points | GPU energy decrease, 64 KiB tile cache (Fig. 22, sec. V-B2)
--@ headline: TCOR, 128 KiB | 5.3 | points | GPU energy decrease, 128 KiB tile cache (Fig. 22, sec. V-B2)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'TCOR without L2 changes', 'mobile4-64k+tcor-no-l2', 'mobile4-64k', 'energy.total_nj', 'decrease'),
  (1, 'TCOR', 'mobile4-64k+tcor', 'mobile4-64k', 'energy.total_nj', 'decrease'),
  (2, 'TCOR without L2 changes, 128 KiB', 'mobile4-64k+tcor-no-l2+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.total_nj', 'decrease'),
  (3, 'TCOR, 128 KiB', 'mobile4-64k+tcor+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.total_nj', 'decrease');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
