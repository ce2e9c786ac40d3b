-- Paper 003 (TCOR) Figs. 16-17: Parameter Buffer accesses to main memory, normalised to the
-- baseline (mobile4-64k).
-- The 128 KiB series (the paper's second figure) run with --set tile.size=131072 and are
-- normalised to mobile4-64k+tile.size=131072.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'TCOR without L2 changes', 'mobile4-64k+tcor-no-l2', 'mobile4-64k', 'pb.dram_accesses', 'ratio'),
  (1, 'TCOR', 'mobile4-64k+tcor', 'mobile4-64k', 'pb.dram_accesses', 'ratio'),
  (2, 'TCOR without L2 changes, 128 KiB', 'mobile4-64k+tcor-no-l2+tile.size=131072', 'mobile4-64k+tile.size=131072', 'pb.dram_accesses', 'ratio'),
  (3, 'TCOR, 128 KiB', 'mobile4-64k+tcor+tile.size=131072', 'mobile4-64k+tile.size=131072', 'pb.dram_accesses', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
