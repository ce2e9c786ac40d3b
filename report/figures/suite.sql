-- The workload suite (docs/architecture.md, "Workloads"): per capture, the resolution, the frames replayed and,
-- per frame, draws, quads, overdraw (fragments per pixel), the texture footprint and the PSNR of
-- the replayed image against the presented one. The functional pass is the same under every
-- configuration, so each per-frame number is read once (max over configurations).
WITH
per_frame(capture, frame, metric, value) AS (
  SELECT capture, frame, metric, max(value) FROM frame_metrics
  WHERE metric IN ('draws', 'quads', 'fragments', 'replay.psnr_db', 'workload.texture_bytes')
  GROUP BY capture, frame, metric),
size(capture, frame, width, height) AS (
  SELECT c.name, f.present, f.width, f.height FROM frame f JOIN capture c ON c.capture_id = f.capture_id)
SELECT s.capture AS capture,
       max(s.width) || 'x' || max(s.height) AS resolution,
       count(DISTINCT s.frame) AS frames,
       (SELECT count(DISTINCT config) FROM frame_metrics fm WHERE fm.capture = s.capture) AS configurations,
       (SELECT avg(value) FROM per_frame p WHERE p.capture = s.capture AND p.metric = 'draws') AS draws,
       (SELECT avg(value) FROM per_frame p WHERE p.capture = s.capture AND p.metric = 'quads') AS quads,
       (SELECT avg(p.value / (z.width * z.height)) FROM per_frame p
        JOIN size z ON z.capture = p.capture AND z.frame = p.frame
        WHERE p.capture = s.capture AND p.metric = 'fragments' AND z.width * z.height > 0) AS overdraw,
       (SELECT max(value) / 1048576.0 FROM per_frame p
        WHERE p.capture = s.capture AND p.metric = 'workload.texture_bytes') AS texture_mib,
       (SELECT min(value) FROM per_frame p WHERE p.capture = s.capture AND p.metric = 'replay.psnr_db') AS psnr_min_db,
       (SELECT avg(value) FROM per_frame p WHERE p.capture = s.capture AND p.metric = 'replay.psnr_db') AS psnr_mean_db,
       (SELECT frame FROM per_frame p WHERE p.capture = s.capture AND p.metric = 'replay.psnr_db'
        ORDER BY value, frame LIMIT 1) AS worst_frame
FROM size s
WHERE s.frame IN (SELECT frame FROM frame_metrics fm WHERE fm.capture = s.capture)
GROUP BY s.capture
ORDER BY s.capture;
