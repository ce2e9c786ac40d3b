-- The README's per-capture table ("Measured against the paper") as Markdown rows, from a database
-- of studies/000-dtm-nuca.json, over the frames the report measures (the cold first one left out):
--   tessera query 000.db "$(cat model/schemes/dtm-nuca/study_table.sql)" --csv | tail -n +2
-- Per capture and variant, against mobile32 on the same frames: speedup (baseline cycles over
-- cycles), GPU energy and L2 accesses (change), local and remote hits (shares of the L1 texture
-- accesses; for mobile32 its private hits), the busiest mesh link's and the table (directory)
-- port's utilisation (the most loaded frame), the cycles a packet waited for router buffer room
-- (nuca.buffer_wait_cycles per packet), and the shares of the cores' cycles busy / waiting for
-- texture / at a barrier / blocked / starved / waiting for a unit (core.cycles.*).
WITH
variant(ord, config, name) AS (VALUES
  (0, 'mobile32', '`mobile32`'),
  (1, 'mobile32+d-nuca', '`d-nuca`'),
  (2, 'mobile32+dtm-nuca', '`dtm-nuca`'),
  (3, 'mobile32+dtm-nuca-dist', '`dtm-nuca-dist`')),
s AS (
  SELECT m.capture, v.ord, v.name,
         sum(CASE WHEN m.metric = 'cycles' THEN m.value END) AS cycles,
         sum(CASE WHEN m.metric = 'energy.total_nj' THEN m.value END) AS energy,
         sum(CASE WHEN m.metric = 'l2.accesses' THEN m.value END) AS l2,
         sum(CASE WHEN m.metric = 'l1tex.accesses' THEN m.value END) AS accesses,
         sum(CASE WHEN m.metric = 'l1tex.hits' THEN m.value END) AS hits,
         sum(CASE WHEN m.metric = 'l1tex.local_hits' THEN m.value END) AS local_hits,
         sum(CASE WHEN m.metric = 'l1tex.remote_hits' THEN m.value END) AS remote_hits,
         max(CASE WHEN m.metric = 'nuca.link_utilisation' THEN m.value END) AS link,
         max(CASE WHEN m.metric = 'nuca.table_port_utilisation' THEN m.value END) AS port,
         sum(CASE WHEN m.metric = 'nuca.buffer_wait_cycles' THEN m.value END) AS buffer_wait,
         sum(CASE WHEN m.metric = 'nuca.packets' THEN m.value END) AS packets,
         sum(CASE WHEN m.metric = 'core.cycles.busy' THEN m.value END) AS busy,
         sum(CASE WHEN m.metric = 'core.cycles.texture_wait' THEN m.value END) AS texture_wait,
         sum(CASE WHEN m.metric = 'core.cycles.barrier_wait' THEN m.value END) AS barrier_wait,
         sum(CASE WHEN m.metric = 'core.cycles.blocked' THEN m.value END) AS blocked,
         sum(CASE WHEN m.metric = 'core.cycles.starved' THEN m.value END) AS starved,
         sum(CASE WHEN m.metric = 'core.cycles.unit_wait' THEN m.value END) AS unit_wait
  FROM measured_frame_metrics m JOIN variant v ON v.config = m.config
  GROUP BY m.capture, v.ord, v.name),
row AS (
  SELECT a.capture, a.ord,
         '| ' || CASE WHEN a.ord = 0 THEN a.capture ELSE '' END || ' | ' || a.name || ' | ' ||
         CASE WHEN a.ord = 0 THEN ' |  |  | ' || printf('%.1f %% (private hits) | - | - | - | - | ', 100.0 * a.hits / a.accesses)
              ELSE printf('%.3fx | %+.1f %% | %+.1f %% | %.1f %% | %.1f %% | %.2f | %s | %.2f | ',
                          b.cycles / a.cycles, 100.0 * (a.energy / b.energy - 1), 100.0 * (a.l2 / b.l2 - 1),
                          100.0 * a.local_hits / a.accesses, 100.0 * a.remote_hits / a.accesses, a.link,
                          CASE WHEN a.port IS NULL THEN '-' ELSE printf('%.2f', a.port) END,
                          coalesce(a.buffer_wait / nullif(a.packets, 0), 0)) END ||
         printf('%.0f/%.0f/%.0f/%.0f/%.0f/%.0f |', 100.0 * a.busy / a.cycles, 100.0 * a.texture_wait / a.cycles,
                100.0 * a.barrier_wait / a.cycles, 100.0 * a.blocked / a.cycles, 100.0 * a.starved / a.cycles,
                100.0 * a.unit_wait / a.cycles) AS markdown
  FROM s a JOIN s b ON b.capture = a.capture AND b.ord = 0)
SELECT markdown FROM row ORDER BY capture, ord;
