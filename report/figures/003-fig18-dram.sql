-- Paper 003 (TCOR) Figs. 18-19: total main-memory accesses, normalised to the baseline
-- (mobile4-64k).
-- The 128 KiB series (the paper's second figure) run with --set tile.size=131072 and are
-- normalised to mobile4-64k+tile.size=131072.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 003
--@ title: Figs. 18-19: total main-memory accesses, normalised to the baseline
--@ chart: bars
--@ y: DRAM accesses / baseline
--@ rule: 1
--@ needs: runs of mobile4-64k and mobile4-64k+tcor (+tcor-no-l2), or of both with --set tile.size=131072
--@ explain: dram.accesses, pb.dram_accesses, dram.flush_share (the Parameter Buffer's share of main memory; model/schemes/tcor/README.md, Measured)
--@ headline: TCOR | -13.9 | change | main-memory accesses, 64 KiB (Fig. 18, sec. V-B1)
--@ headline: TCOR, 128 KiB | -13.3 | change | main-memory accesses, 128 KiB (Fig. 19, sec. V-B1)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'TCOR without L2 changes', 'mobile4-64k+tcor-no-l2', 'mobile4-64k', 'dram.accesses', 'ratio'),
  (1, 'TCOR', 'mobile4-64k+tcor', 'mobile4-64k', 'dram.accesses', 'ratio'),
  (2, 'TCOR without L2 changes, 128 KiB', 'mobile4-64k+tcor-no-l2+tile.size=131072', 'mobile4-64k+tile.size=131072', 'dram.accesses', 'ratio'),
  (3, 'TCOR, 128 KiB', 'mobile4-64k+tcor+tile.size=131072', 'mobile4-64k+tile.size=131072', 'dram.accesses', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
