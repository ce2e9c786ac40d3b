// Tessera report page: draws each figure of the page's data block with Vega (Debian's libjs-vega,
// inlined before this script as tesseraVegaModules). Static text, tables and notices are written by
// tessera report itself; this script only turns the rows of each figure's SQL into a Vega spec.
// Each rendered chart's container gets data-state="chart"; a chart that fails gets
// data-render-error and the error on the console. With #svg-export in the URL the page also writes
// every chart's SVG (base64) into <pre class="svg-export"> for tessera report --svg.
(function () {
  'use strict';
  const M = tesseraVegaModules;
  // What the `vega` package's index does: register the transforms with the dataflow.
  Object.assign(M['vega-dataflow'].transforms, M['vega-transforms'], M['vega-view-transforms'], M['vega-encode']);
  const parse = M['vega-parser'].parse;
  const View = M['vega-view'].View;

  const data = JSON.parse(document.getElementById('tessera-data').textContent);
  const figures = {};
  for (const f of data.papers) figures[f.id] = f;

  const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
  const CONFIG = {
    font: FONT,
    axis: {labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal'},
    legend: {labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal'},
  };

  // "out/vkcube.tcap" -> "vkcube", as tessera report names captures.
  function label(capture) {
    const base = capture.split('/').pop();
    return base.endsWith('.tcap') ? base.slice(0, -5) : base;
  }
  function unique(values) {
    return [...new Set(values)];
  }
  function rowsOf(fig) {
    return fig.rows.map((r) => ({capture: label(r[0]), series: r[1], part: r[2], x: r[3], value: r[4]}));
  }
  function palette(n) {
    return n > 10 ? 'tableau20' : 'tableau10';
  }
  function ruleMark(fig) {
    if (fig.rule === null || fig.rule === undefined) return [];
    return [{
      type: 'rule',
      encode: {update: {x: {value: 0}, x2: {signal: 'width'}, y: {scale: 'y', value: fig.rule},
                        stroke: {value: '#444'}, strokeDash: {value: [4, 3]}}},
    }];
  }
  // The value axis spans the values and the reference line.
  function extent(values, rule) {
    const all = values.concat(rule === null || rule === undefined ? [] : [rule]);
    return [Math.min(0, ...all), Math.max(0, ...all)];
  }
  function stackTops(rows) {
    const tops = {};
    for (const d of rows) {
      const k = d.capture + '\u0000' + d.series;
      tops[k] = (tops[k] || 0) + d.value;
    }
    return Object.values(tops);
  }
  function lineExtent(rows, rule) {
    const all = rows.map((d) => d.value).concat(rule === null || rule === undefined ? [] : [rule]);
    return [Math.min(...all), Math.max(...all)];
  }
  const TOOLTIP = "datum.series + (datum.part ? ', ' + datum.part : '') + ' on ' + datum.capture + ': ' + format(datum.value, '.4~f')";

  // Grouped bars: one group per capture (the mean last, as the SQL orders it), one bar per series.
  function barsSpec(fig) {
    const rows = rowsOf(fig);
    const captures = unique(rows.map((d) => d.capture));
    const series = unique(rows.map((d) => d.series));
    const group = Math.max(36, series.length * 13 + 12);
    return {
      width: Math.max(220, captures.length * group), height: 220, padding: 5, config: CONFIG,
      data: [{name: 'table', values: rows}],
      scales: [
        {name: 'x', type: 'band', domain: captures, range: 'width', padding: 0.18},
        {name: 'y', type: 'linear', domain: extent(rows.map((d) => d.value), fig.rule), range: 'height', nice: true,
         zero: true},
        {name: 'color', type: 'ordinal', domain: series, range: {scheme: palette(series.length)}},
      ],
      axes: [
        {orient: 'bottom', scale: 'x', labelAngle: captures.length > 6 ? -35 : 0,
         labelAlign: captures.length > 6 ? 'right' : 'center', labelLimit: 140},
        {orient: 'left', scale: 'y', title: fig.y_title, grid: true, gridOpacity: 0.4},
      ],
      legends: series.length > 1 ? [{fill: 'color', orient: 'right'}] : [],
      marks: [{
        type: 'group',
        from: {facet: {data: 'table', name: 'facet', groupby: 'capture'}},
        encode: {enter: {x: {scale: 'x', field: 'capture'}, width: {scale: 'x', band: 1}, height: {signal: 'height'}}},
        signals: [{name: 'width', update: "bandwidth('x')"}],
        scales: [{name: 'pos', type: 'band', domain: series, range: 'width', padding: 0.06}],
        marks: [{
          type: 'rect', from: {data: 'facet'},
          encode: {enter: {
            x: {scale: 'pos', field: 'series'}, width: {scale: 'pos', band: 1},
            y: {scale: 'y', field: 'value'}, y2: {scale: 'y', value: 0},
            fill: {scale: 'color', field: 'series'}, tooltip: {signal: TOOLTIP}}},
        }],
      }].concat(ruleMark(fig)),
    };
  }

  // Stacked bars: within each capture's group, one bar per series, stacked by part.
  function stackedSpec(fig) {
    const rows = rowsOf(fig);
    const captures = unique(rows.map((d) => d.capture));
    const series = unique(rows.map((d) => d.series));
    const parts = unique(rows.map((d) => d.part));
    rows.forEach((d) => { d.pord = parts.indexOf(d.part); });
    const group = Math.max(90, series.length * 26 + 16);
    return {
      width: Math.max(220, captures.length * group), height: 220, padding: 5, config: CONFIG,
      data: [{name: 'table', values: rows,
              transform: [{type: 'stack', groupby: ['capture', 'series'], sort: {field: 'pord'}, field: 'value'}]}],
      scales: [
        {name: 'x', type: 'band', domain: captures, range: 'width', padding: 0.15},
        {name: 'y', type: 'linear', domain: extent(stackTops(rows), fig.rule), range: 'height', nice: true, zero: true},
        {name: 'color', type: 'ordinal', domain: parts, range: {scheme: palette(parts.length)}},
      ],
      axes: [
        {orient: 'top', scale: 'x', domain: false, ticks: false, labelFontWeight: 'bold', labelLimit: group - 6},
        {orient: 'left', scale: 'y', title: fig.y_title, grid: true, gridOpacity: 0.4},
      ],
      legends: [{fill: 'color', orient: 'right'}],
      marks: [{
        type: 'group',
        from: {facet: {data: 'table', name: 'facet', groupby: 'capture'}},
        encode: {enter: {x: {scale: 'x', field: 'capture'}, width: {scale: 'x', band: 1}, height: {signal: 'height'}}},
        signals: [{name: 'width', update: "bandwidth('x')"}],
        scales: [{name: 'pos', type: 'band', domain: series, range: 'width', padding: 0.1}],
        axes: [{orient: 'bottom', scale: 'pos', labelAngle: -40, labelAlign: 'right', labelLimit: 110,
                labelFontSize: 10}],
        marks: [{
          type: 'rect', from: {data: 'facet'},
          encode: {enter: {
            x: {scale: 'pos', field: 'series'}, width: {scale: 'pos', band: 1},
            y: {scale: 'y', field: 'y1'}, y2: {scale: 'y', field: 'y0'},
            fill: {scale: 'color', field: 'part'}, tooltip: {signal: TOOLTIP}}},
        }],
      }].concat(ruleMark(fig)),
    };
  }

  // Lines: value against x per series, from the summary rows ('mean' over captures or 'suite').
  function linesSpec(fig) {
    const rows = rowsOf(fig).filter((d) => (d.capture === 'mean' || d.capture === 'suite') && d.x !== null);
    const series = unique(rows.map((d) => d.series));
    const xs = unique(rows.map((d) => d.x)).sort((a, b) => a - b);
    return {
      width: 420, height: 240, padding: 5, config: CONFIG,
      data: [{name: 'table', values: rows},
             {name: 'levels', values: series.filter((s) => rows.filter((d) => d.series === s).length === 1)
                                           .map((s) => rows.find((d) => d.series === s))}],
      scales: [
        {name: 'x', type: fig.log_x ? 'log' : 'linear', base: 2, domain: {data: 'table', field: 'x'}, range: 'width',
         nice: false, zero: false},
        {name: 'y', type: 'linear', domain: lineExtent(rows, fig.rule), range: 'height',
         nice: true, zero: false},
        {name: 'color', type: 'ordinal', domain: series, range: {scheme: palette(series.length)}},
      ],
      axes: [
        {orient: 'bottom', scale: 'x', title: fig.x_title, values: xs.length <= 12 ? xs : undefined,
         format: '~g'},
        {orient: 'left', scale: 'y', title: fig.y_title, grid: true, gridOpacity: 0.4},
      ],
      legends: [{stroke: 'color', fill: 'color', orient: 'right', symbolType: 'circle'}],
      marks: [{
        type: 'group',
        from: {facet: {data: 'table', name: 'line', groupby: 'series'}},
        marks: [{
          type: 'line', from: {data: 'line'}, sort: {field: 'datum.x'},
          encode: {enter: {x: {scale: 'x', field: 'x'}, y: {scale: 'y', field: 'value'},
                           stroke: {scale: 'color', field: 'series'}, strokeWidth: {value: 2}}},
        }],
      }, {
        type: 'symbol', from: {data: 'table'},
        encode: {enter: {x: {scale: 'x', field: 'x'}, y: {scale: 'y', field: 'value'}, size: {value: 36},
                         fill: {scale: 'color', field: 'series'},
                         tooltip: {signal: "datum.series + ' at ' + datum.x + ': ' + format(datum.value, '.4~f')"}}},
      }, {
        // A series measured at one x only (a 16 KiB DTM-NUCA against the baseline's sizes, Fig. 7)
        // is drawn as a level across the chart, as the paper does.
        type: 'rule', from: {data: 'levels'},
        encode: {enter: {x: {value: 0}, x2: {signal: 'width'}, y: {scale: 'y', field: 'value'},
                         stroke: {scale: 'color', field: 'series'}, strokeWidth: {value: 2}, strokeDash: {value: [6, 3]}}},
      }].concat(ruleMark(fig)),
    };
  }

  // Scatter: one labelled point per series, value against x ('mean' rows).
  function scatterSpec(fig) {
    const rows = rowsOf(fig).filter((d) => d.capture === 'mean' && d.x !== null);
    const series = unique(rows.map((d) => d.series));
    return {
      width: 480, height: 280, padding: {left: 5, top: 5, bottom: 5, right: 150}, config: CONFIG,
      data: [{name: 'table', values: rows}],
      scales: [
        {name: 'x', type: 'linear', domain: {data: 'table', field: 'x'}, range: 'width', nice: true, zero: true},
        {name: 'y', type: 'linear', domain: {data: 'table', field: 'value'}, range: 'height', nice: true, zero: true},
        {name: 'color', type: 'ordinal', domain: series, range: {scheme: palette(series.length)}},
      ],
      axes: [
        {orient: 'bottom', scale: 'x', title: fig.x_title, grid: true, gridOpacity: 0.4},
        {orient: 'left', scale: 'y', title: fig.y_title, grid: true, gridOpacity: 0.4},
      ],
      marks: [{
        type: 'symbol', from: {data: 'table'},
        encode: {enter: {x: {scale: 'x', field: 'x'}, y: {scale: 'y', field: 'value'}, size: {value: 80},
                         fill: {scale: 'color', field: 'series'},
                         tooltip: {signal: "datum.series + ': speedup ' + format(datum.x, '.3f') + ', energy ' + format(datum.value, '.3f')"}}},
      }, {
        type: 'text', from: {data: 'table'},
        encode: {enter: {x: {scale: 'x', field: 'x', offset: 7}, y: {scale: 'y', field: 'value', offset: -6},
                         text: {field: 'series'}, fontSize: {value: 10}}},
      }],
    };
  }

  // Heat map of one capture's tiles: a metric and a view (a configuration, or one minus its base)
  // chosen with the two menus under the chart.
  function heatmapSpec(map) {
    const rows = [];
    for (const view of map.views) {
      for (const metric of Object.keys(view.grids)) {
        const grid = view.grids[metric];
        for (let i = 0; i < grid.length; ++i) {
          rows.push({view: view.name, metric: metric, x: i % map.width, y: Math.floor(i / map.width), v: grid[i]});
        }
      }
    }
    const diffs = map.views.filter((v) => v.diff).map((v) => v.name);
    const cell = Math.max(4, Math.min(24, Math.floor(640 / Math.max(1, map.width))));
    const range = (n) => Array.from({length: n}, (_, i) => i);
    return {
      width: map.width * cell, height: map.height * cell, padding: {left: 5, top: 5, bottom: 5, right: 60}, config: CONFIG,
      signals: [
        {name: 'metric', value: map.metrics[0], bind: {input: 'select', options: map.metrics, name: 'metric '}},
        {name: 'view', value: map.views[0].name,
         bind: {input: 'select', options: map.views.map((v) => v.name), name: 'configuration '}},
        {name: 'diff', update: 'indexof(' + JSON.stringify(diffs) + ', view) >= 0'},
        {name: 'lo', update: "length(data('extent')) ? data('extent')[0].lo : 0"},
        {name: 'hi', update: "length(data('extent')) ? data('extent')[0].hi : 1"},
        {name: 'span', update: 'max(abs(lo), abs(hi), 1e-9)'},
      ],
      data: [
        {name: 'tiles', values: rows, transform: [{type: 'filter', expr: 'datum.view === view && datum.metric === metric'}]},
        {name: 'extent', source: 'tiles',
         transform: [{type: 'aggregate', fields: ['v', 'v'], ops: ['min', 'max'], as: ['lo', 'hi']}]},
      ],
      scales: [
        {name: 'x', type: 'band', domain: range(map.width), range: 'width'},
        {name: 'y', type: 'band', domain: range(map.height), range: 'height'},
        {name: 'color', type: 'linear', zero: false,
         domain: {signal: 'diff ? [-span, span] : [lo, hi > lo ? hi : lo + 1]'},
         range: {scheme: {signal: "diff ? 'blueorange' : 'viridis'"}}},
      ],
      axes: [
        {orient: 'top', scale: 'x', title: 'tile x', labelOverlap: true, values: range(map.width).filter((i) => i % 5 === 0)},
        {orient: 'left', scale: 'y', title: 'tile y', labelOverlap: true, values: range(map.height).filter((i) => i % 5 === 0)},
      ],
      legends: [{fill: 'color', type: 'gradient', titleLimit: 400, title: {signal: "diff ? metric + ' minus the base' : metric"},
                 gradientLength: Math.max(80, Math.min(240, map.height * cell))}],
      marks: [{
        type: 'rect', from: {data: 'tiles'},
        encode: {update: {
          x: {scale: 'x', field: 'x'}, width: {scale: 'x', band: 1},
          y: {scale: 'y', field: 'y'}, height: {scale: 'y', band: 1},
          fill: {scale: 'color', field: 'v'},
          tooltip: {signal: "'tile (' + datum.x + ', ' + datum.y + '): ' + format(datum.v, ',.0f')"}}},
      }, {
        // A configuration with fewer cores has no row for the others' core.<i> metrics.
        type: 'text', encode: {update: {
          x: {signal: 'width / 2'}, y: {signal: 'height / 2'}, align: {value: 'center'}, fontSize: {value: 13},
          text: {signal: "length(data('tiles')) ? '' : metric + ' is not measured in ' + view"}}},
      }],
    };
  }

  const BUILDERS = {bars: barsSpec, stacked: stackedSpec, lines: linesSpec, scatter: scatterSpec};

  function specFor(el) {
    if (el.dataset.heatmap !== undefined) {
      const map = data.heatmaps.find((m) => m.capture === el.dataset.heatmap);
      if (!map) throw new Error('no heat-map data for ' + el.dataset.heatmap);
      return heatmapSpec(map);
    }
    const fig = figures[el.dataset.fig];
    if (!fig || !fig.rows.length) throw new Error('no rows for figure ' + el.dataset.fig);
    return BUILDERS[fig.chart](fig);
  }

  function toBase64(text) {
    const bytes = new TextEncoder().encode(text);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  }

  async function render(el) {
    const id = el.dataset.fig;
    try {
      const view = new View(parse(specFor(el)), {renderer: 'svg', container: el, hover: true});
      await view.runAsync();
      const marks = el.querySelectorAll('g.role-mark path, g.role-mark line, g.role-mark text').length;
      el.dataset.marks = String(marks);
      if (!marks) throw new Error('chart ' + id + ' drew no marks');
      el.dataset.state = 'chart';
      const svg = await view.toSVG();
      const link = document.createElement('a');
      link.className = 'svg-link';
      link.textContent = 'SVG';
      link.download = id + '.svg';
      link.href = URL.createObjectURL(new Blob([svg], {type: 'image/svg+xml'}));
      el.parentElement.querySelector('figcaption').appendChild(link);
      return {id: id, svg: svg};
    } catch (e) {
      el.dataset.renderError = String(e && e.message || e);
      el.textContent = 'This chart could not be drawn: ' + el.dataset.renderError;
      console.error('tessera report: ' + id + ': ' + el.dataset.renderError);
      return null;
    }
  }

  async function main() {
    const charts = Array.from(document.querySelectorAll('div.chart'));
    const done = await Promise.all(charts.map(render));
    if (location.hash === '#svg-export') {
      for (const d of done) {
        if (!d) continue;
        const pre = document.createElement('pre');
        pre.className = 'svg-export';
        pre.dataset.fig = d.id;
        pre.textContent = toBase64(d.svg);
        document.body.appendChild(pre);
      }
    }
    document.body.dataset.rendered = String(done.filter((d) => d).length);
  }
  main();
})();
