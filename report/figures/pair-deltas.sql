-- Each configuration against its base, per capture and metric: the means over the frames both
-- runs measured, and their ratio; capture 'mean' holds the mean ratio over captures.
-- tessera report and tessera compare replace the two tables between the params markers; run as
-- is, it pairs every configuration with its preset (the name up to the first '+').
-- Columns: capture, config, base, metric, value, base_value, ratio, frames.
WITH
-- params begin
pairs(config, base) AS (
  SELECT DISTINCT config, substr(config, 1, instr(config || '+', '+') - 1) FROM frame_metrics),
metrics(ord, metric) AS (VALUES
  (0, 'cycles'), (1, 'l2.accesses'), (2, 'dram.accesses'), (3, 'energy.total_nj')),
-- params end
m AS (SELECT * FROM measured_frame_metrics),
per_capture(capture, config, base, ord, metric, value, base_value, frames) AS (
  SELECT a.capture, p.config, p.base, k.ord, k.metric, avg(a.value), avg(b.value), count(*)
  FROM pairs p CROSS JOIN metrics k
  JOIN m a ON a.config = p.config AND a.metric = k.metric
  JOIN m b ON b.capture = a.capture AND b.frame = a.frame AND b.config = p.base AND b.metric = k.metric
  GROUP BY a.capture, p.config, p.base, k.ord, k.metric)
SELECT capture, config, base, metric, value, base_value, ratio, frames FROM (
  SELECT capture, config, base, ord, metric, value, base_value,
         value / NULLIF(base_value, 0) AS ratio, frames FROM per_capture
  UNION ALL
  SELECT 'mean', config, base, ord, metric, NULL, NULL, avg(value / NULLIF(base_value, 0)), sum(frames)
  FROM per_capture GROUP BY config, base, ord, metric)
ORDER BY config, ord, capture = 'mean', capture;
