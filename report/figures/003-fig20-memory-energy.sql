-- Paper 003 (TCOR) Figs. 20-21: energy of the memory hierarchy (caches and DRAM), normalised to
-- the baseline (mobile4-64k).
-- The 128 KiB series (the paper's second figure) run with --set tile.size=131072 and are
-- normalised to mobile4-64k+tile.size=131072.
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 003
--@ title: Figs. 20-21: energy of the memory hierarchy, normalised to the baseline
--@ chart: bars
--@ y: memory energy / baseline
--@ rule: 1
--@ needs: runs of mobile4-64k and mobile4-64k+tcor (+tcor-no-l2), or of both with --set tile.size=131072
--@ explain: energy.memory_nj, energy.dram_nj, pb.dram_accesses, dram.flush_share (model/schemes/tcor/README.md, Measured)
--@ headline: TCOR | -14.1 | change | memory-hierarchy energy, 64 KiB (Fig. 20, sec. V-B2; 13.8 % over both sizes in the abstract)
--@ headline: TCOR, 128 KiB | -13.6 | change | memory-hierarchy energy, 128 KiB (Fig. 21, sec. V-B2)
--@ headline: TCOR without L2 changes | -9 | change | memory-hierarchy energy, TCOR without the L2 policy (Fig. 20, sec. V-B2)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'TCOR without L2 changes', 'mobile4-64k+tcor-no-l2', 'mobile4-64k', 'energy.memory_nj', 'ratio'),
  (1, 'TCOR', 'mobile4-64k+tcor', 'mobile4-64k', 'energy.memory_nj', 'ratio'),
  (2, 'TCOR without L2 changes, 128 KiB', 'mobile4-64k+tcor-no-l2+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.memory_nj', 'ratio'),
  (3, 'TCOR, 128 KiB', 'mobile4-64k+tcor+tile.size=131072', 'mobile4-64k+tile.size=131072', 'energy.memory_nj', 'ratio');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
