-- tfm: TFM and filter caches reconcile per frame (hits + misses = accesses; L1 accesses = the baseline's minus tfm.l1_accesses_saved; every front buffer reads each texel of the stream's probes once (tfm.accesses = texture.texel_reads); TFM accesses = direct + lookups) and every front buffer saw accesses wherever the capture samples textures
SELECT (SELECT count(*) FROM frame_metrics a
          JOIN frame_metrics h ON h.capture = a.capture AND h.frame = a.frame AND h.config = a.config AND h.metric = 'tfm.hits'
          JOIN frame_metrics m ON m.capture = a.capture AND m.frame = a.frame AND m.config = a.config AND m.metric = 'tfm.misses'
        WHERE a.metric = 'tfm.accesses' AND h.value + m.value != a.value)
     + (SELECT count(*) FROM frame_metrics l
          JOIN frame_metrics s ON s.capture = l.capture AND s.frame = l.frame AND s.config = l.config
                              AND s.metric = 'tfm.l1_accesses_saved'
          JOIN frame_metrics b ON b.capture = l.capture AND b.frame = l.frame AND b.metric = 'l1tex.accesses'
                              AND b.config = substr(l.config, 1, instr(l.config, '+') - 1)
        WHERE l.metric = 'l1tex.accesses' AND l.value != b.value - s.value)
     + (SELECT count(*) FROM frame_metrics a
          JOIN frame_metrics t ON t.capture = a.capture AND t.frame = a.frame AND t.config = a.config AND t.metric = 'texture.texel_reads'
        WHERE a.metric = 'tfm.accesses' AND a.value != t.value)
     + (SELECT count(*) FROM frame_metrics a
          JOIN frame_metrics d ON d.capture = a.capture AND d.frame = a.frame AND d.config = a.config AND d.metric = 'tfm.direct'
          JOIN frame_metrics k ON k.capture = a.capture AND k.frame = a.frame AND k.config = a.config AND k.metric = 'tfm.lookups'
        WHERE a.metric = 'tfm.accesses' AND d.value + k.value != a.value)
     + (SELECT count(*) FROM (SELECT a.capture, a.config FROM frame_metrics a
                                JOIN frame_metrics t ON t.capture = a.capture AND t.frame = a.frame AND t.config = a.config
                                                    AND t.metric = 'texture.lines'
                              WHERE a.metric = 'tfm.accesses' GROUP BY a.capture, a.config
                              HAVING sum(t.value) > 0 AND max(a.value) = 0)) AS violations
