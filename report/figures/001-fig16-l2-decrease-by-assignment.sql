-- Paper 001 (DTexL) Fig. 16: decrease in L2 accesses (percent) of each subtile assignment of
-- Fig. 8 (CG quad groupings, decoupled barriers) and of the paper's upper bound on that decrease
-- (dtexl-one-core-bound: one core whose L1 is the four L1s, so no block is replicated),
-- against non-decoupled FG-xshift2 (the mobile4 baseline).
-- Columns: capture ('mean' = arithmetic mean over captures), series, part, x, value.
-- The bars: normalised_rows of report/views.sql over these series.
--
--@ paper: 001
--@ title: Fig. 16: decrease in L2 accesses per subtile assignment, against non-decoupled FG-xshift2
--@ chart: bars
--@ y: decrease in L2 accesses (%)
--@ rule: 0
--@ needs: runs of mobile4 and mobile4+dtexl-<assignment> (zorder-const ... sorder-flp, one-core-bound)
--@ explain: l2.accesses, dtexl.edges_kept, dtexl.transitions (model/schemes/dtexl/README.md, Measured)
--@ headline: Zorder-const | 40.7 | points | L2 decrease, Zorder-const (Fig. 16, sec. V-C1)
--@ headline: HLB-flp2 | 46.5 | points | L2 decrease, HLB-flp1/2/3 (Fig. 16, sec. V-C1)
--@ headline: Sorder-flp | 46.8 | points | L2 decrease, Sorder-const/flp (Fig. 16, sec. V-C1)
DELETE FROM normalised_series;
INSERT INTO normalised_series (ord, series, config, base, metric, how) VALUES
  (0, 'Zorder-const', 'mobile4+dtexl-zorder-const', 'mobile4', 'l2.accesses', 'decrease'),
  (1, 'Zorder-flp', 'mobile4+dtexl-zorder-flp', 'mobile4', 'l2.accesses', 'decrease'),
  (2, 'HLB-const', 'mobile4+dtexl-hlb-const', 'mobile4', 'l2.accesses', 'decrease'),
  (3, 'HLB-flp1', 'mobile4+dtexl-hlb-flp1', 'mobile4', 'l2.accesses', 'decrease'),
  (4, 'HLB-flp2', 'mobile4+dtexl', 'mobile4', 'l2.accesses', 'decrease'),
  (5, 'HLB-flp3', 'mobile4+dtexl-hlb-flp3', 'mobile4', 'l2.accesses', 'decrease'),
  (6, 'Sorder-const', 'mobile4+dtexl-sorder-const', 'mobile4', 'l2.accesses', 'decrease'),
  (7, 'Sorder-flp', 'mobile4+dtexl-sorder-flp', 'mobile4', 'l2.accesses', 'decrease'),
  (8, 'Bound: one core, all L1s', 'mobile4+dtexl-one-core-bound', 'mobile4', 'l2.accesses', 'decrease');
SELECT capture, series, part, x, value FROM normalised_rows ORDER BY capture = 'mean', capture, ord;
