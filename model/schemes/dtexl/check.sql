-- dtexl: every variant runs all quads and texture lines of its frame, and the upper bound (one core) has exactly one core's rows
SELECT (SELECT count(*) FROM frame_metrics s JOIN frame_metrics b
          ON b.capture = s.capture AND b.frame = s.frame AND b.metric = s.metric AND b.config = 'mobile4'
        WHERE s.config LIKE 'mobile4+dtexl%' AND s.metric IN ('quads', 'texture.lines', 'l1tex.accesses', 'draws')
          AND s.value != b.value)
     + (SELECT count(*) FROM core_metrics WHERE config = 'mobile4+dtexl-one-core-bound' AND core != 0)
     + (SELECT count(*) FROM (SELECT config FROM frame_metrics WHERE config LIKE 'mobile4+dtexl%' AND metric = 'dtexl.transitions'
          GROUP BY config HAVING max(value) = 0)) AS violations
