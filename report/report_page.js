// Tessera report page: draws each figure of the page's data block with Vega (Debian's libjs-vega,
// inlined before this script as tesseraVegaModules). Static text, tables and notices are written by
// tessera report itself; this script only turns the rows of each figure's SQL into a Vega spec, and
// draws the per-tile heat maps, which travel deflated, on a canvas (see "Heat maps" below).
// Each rendered chart's container gets data-state="chart"; a chart that fails gets
// data-render-error and the error on the console. Once every chart is drawn or has failed,
// body[data-rendered] holds the number drawn. With #svg-export in the URL the page also writes
// every chart's SVG (base64) into <pre class="svg-export"> for tessera report --svg (a heat map's
// SVG holds its canvas as a PNG).
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

  const BUILDERS = {bars: barsSpec, stacked: stackedSpec, lines: linesSpec, scatter: scatterSpec};

  function specFor(el) {
    const fig = figures[el.dataset.fig];
    if (!fig || !fig.rows.length) throw new Error('no rows for figure ' + el.dataset.fig);
    return BUILDERS[fig.chart](fig);
  }

  // --- Heat maps ---------------------------------------------------------------------------------
  // Per capture, tessera report embeds every grid (view x metric) as one byte per tile, its level
  // in the grid's own [lo, hi] (a difference's [-span, span]), all grids in one buffer, deflated
  // and base64 (cli/cmd_report.cpp, report/heatmaps.h). The page inflates the buffer with the
  // browser's DecompressionStream and draws the grid the two menus choose on a canvas, one cell per
  // tile, coloured with Vega's own schemes at each level. Level q stands for lo + q (hi - lo) /
  // steps: 255 steps for a configuration (lo and hi exact), 254 for a difference (0 exact at 127).
  const LEVELS = 256;
  const stepsOf = (view) => (view.diff ? 254 : 255);
  const scheme = M['vega-scale'].scheme;
  const HEAT_FONT = '11px ' + FONT;

  async function inflate(base64) {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The RGBA colours of a scheme at the levels 0..steps, and the one a constant grid takes (a
  // difference's 0 is the scheme's middle, a configuration's only value its start).
  const palettes = {};
  function heatPalette(name, constant, steps) {
    const key = name + ':' + steps + (constant ? ':constant' : '');
    if (palettes[key]) return palettes[key];
    const interpolate = scheme(name);
    if (typeof interpolate !== 'function') throw new Error('Vega has no colour scheme ' + name);
    const c = document.createElement('canvas');
    c.width = LEVELS;
    c.height = 1;
    const ctx = c.getContext('2d');
    for (let q = 0; q < LEVELS; ++q) {
      ctx.fillStyle = interpolate(constant ? (name === 'blueorange' ? 0.5 : 0) : Math.min(q, steps) / steps);
      ctx.fillRect(q, 0, 1, 1);
    }
    palettes[key] = ctx.getImageData(0, 0, LEVELS, 1).data;
    return palettes[key];
  }

  // "≈ value": three significant digits, which the 256 levels carry.
  function approx(v) {
    return v.toLocaleString('en-US', {maximumSignificantDigits: 3});
  }
  function exact(v) {
    return v.toLocaleString('en-US', {maximumSignificantDigits: 6});
  }

  // One capture's heat map: the canvas, the two menus and the line the hovered tile is read on.
  class HeatMap {
    constructor(el, map, levels) {
      this.el = el;
      this.map = map;
      this.levels = levels;
      this.cell = Math.max(4, Math.min(24, Math.floor(640 / Math.max(1, map.width))));
      this.plotW = map.width * this.cell;
      this.plotH = map.height * this.cell;
      this.legendLength = Math.max(80, Math.min(240, this.plotH));
      // Room for the widest legend title and label any of the capture's grids needs, so that the
      // canvas keeps its size as the menus change.
      const measure = document.createElement('canvas').getContext('2d');
      measure.font = HEAT_FONT;
      let legend = 0;
      for (const view of map.views) {
        for (const metric of Object.keys(view.grids)) {
          const g = view.grids[metric];
          legend = Math.max(legend, measure.measureText(this.legendTitle(metric, view)).width,
                            20 + measure.measureText(exact(g.lo)).width, 20 + measure.measureText(exact(g.hi)).width);
        }
      }
      this.margin = {left: 44, top: 38, right: 24 + Math.ceil(legend), bottom: 8};
      this.width = this.margin.left + this.plotW + this.margin.right;
      this.height = this.margin.top + Math.max(this.plotH, this.legendLength + 4) + this.margin.bottom;

      this.canvas = document.createElement('canvas');
      this.canvas.className = 'heatmap';
      el.appendChild(this.canvas);
      const menus = document.createElement('div');
      menus.className = 'heatmap-menus';
      this.metricMenu = this.menu(menus, 'metric', map.metrics);
      this.viewMenu = this.menu(menus, 'configuration', map.views.map((v) => v.name));
      el.appendChild(menus);
      this.readout = document.createElement('div');
      this.readout.className = 'heatmap-readout';
      el.appendChild(this.readout);
      this.canvas.addEventListener('mousemove', (e) => this.hover(e));
      this.canvas.addEventListener('mouseleave', () => { this.readout.textContent = this.note || '\u00a0'; });
    }

    menu(parent, name, options) {
      const labelEl = document.createElement('label');
      labelEl.textContent = name + ' ';
      const select = document.createElement('select');
      select.name = name;
      for (const o of options) select.add(new Option(o, o));
      labelEl.appendChild(select);
      parent.appendChild(labelEl);
      select.addEventListener('change', () => this.draw());
      select.addEventListener('input', () => this.draw());
      return select;
    }

    legendTitle(metric, view) {
      return view.diff ? metric + ' minus the base' : metric;
    }

    selected() {
      const view = this.map.views[this.viewMenu.selectedIndex];
      const metric = this.metricMenu.value;
      return {view: view, metric: metric, grid: view.grids[metric]};
    }

    // Draws the selected grid on a canvas `scale` device pixels per CSS pixel; returns the number
    // of tiles drawn.
    paint(canvas, scale) {
      const {view, metric, grid} = this.selected();
      const m = this.margin, cell = this.cell, W = this.map.width, H = this.map.height;
      canvas.width = Math.round(this.width * scale);
      canvas.height = Math.round(this.height * scale);
      const ctx = canvas.getContext('2d');
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, this.width, this.height);
      ctx.font = HEAT_FONT;
      ctx.fillStyle = '#333';
      ctx.strokeStyle = '#888';
      ctx.lineWidth = 1;
      // Axes: a tick and label every 5 tiles, x along the top as the tiles are numbered.
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      for (let x = 0; x < W; x += 5) {
        const cx = m.left + (x + 0.5) * cell;
        ctx.fillText(String(x), cx, m.top - 6);
        ctx.beginPath();
        ctx.moveTo(cx, m.top - 4);
        ctx.lineTo(cx, m.top);
        ctx.stroke();
      }
      ctx.fillText('tile x', m.left + this.plotW / 2, m.top - 22);
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      for (let y = 0; y < H; y += 5) {
        const cy = m.top + (y + 0.5) * cell;
        ctx.fillText(String(y), m.left - 6, cy);
        ctx.beginPath();
        ctx.moveTo(m.left - 4, cy);
        ctx.lineTo(m.left, cy);
        ctx.stroke();
      }
      ctx.save();
      ctx.translate(12, m.top + this.plotH / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillText('tile y', 0, 0);
      ctx.restore();
      ctx.strokeRect(m.left - 0.5, m.top - 0.5, this.plotW + 1, this.plotH + 1);

      const schemeName = view.diff ? 'blueorange' : 'viridis';
      if (!grid) {
        // A configuration with fewer cores has no grid for the others' core.<i> metrics.
        this.note = metric + ' is not measured in ' + view.name;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.font = '13px ' + FONT;
        ctx.fillText(this.note, m.left + this.plotW / 2, m.top + this.plotH / 2);
        return 0;
      }
      this.note = '';
      // The tiles: one pixel per tile, scaled up without smoothing.
      const colours = heatPalette(schemeName, !(grid.hi > grid.lo), stepsOf(view));
      const tiles = new ImageData(W, H);
      const levels = this.levels.subarray(grid.offset, grid.offset + W * H);
      if (levels.length !== W * H) throw new Error('grid of ' + metric + ' in ' + view.name + ' is cut short');
      for (let i = 0; i < W * H; ++i) {
        const q = levels[i] * 4;
        tiles.data[i * 4] = colours[q];
        tiles.data[i * 4 + 1] = colours[q + 1];
        tiles.data[i * 4 + 2] = colours[q + 2];
        tiles.data[i * 4 + 3] = 255;
      }
      const img = document.createElement('canvas');
      img.width = W;
      img.height = H;
      img.getContext('2d').putImageData(tiles, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(img, m.left, m.top, this.plotW, this.plotH);

      // The legend: the scheme from lo (bottom) to hi (top), both labelled, and 0 on a difference.
      const lx = m.left + this.plotW + 16, ly = m.top + 18, len = this.legendLength - 18;
      ctx.font = HEAT_FONT;
      ctx.fillStyle = '#333';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(this.legendTitle(metric, view), lx, ly - 6);
      const steps = stepsOf(view);
      const full = heatPalette(schemeName, false, steps);
      for (let p = 0; p < len; ++p) {
        const q = Math.min(steps, Math.round((1 - (p + 0.5) / len) * steps)) * 4;
        ctx.fillStyle = 'rgb(' + full[q] + ',' + full[q + 1] + ',' + full[q + 2] + ')';
        ctx.fillRect(lx, ly + p, 14, 1);
      }
      ctx.strokeRect(lx - 0.5, ly - 0.5, 15, len + 1);
      ctx.fillStyle = '#333';
      ctx.textBaseline = 'middle';
      ctx.fillText(exact(grid.hi), lx + 20, ly + 4);
      ctx.fillText(exact(grid.lo), lx + 20, ly + len - 4);
      if (view.diff) ctx.fillText('0', lx + 20, ly + len / 2);
      return W * H;
    }

    draw() {
      const scale = window.devicePixelRatio || 1;
      const tiles = this.paint(this.canvas, scale);
      this.canvas.style.width = this.width + 'px';
      this.canvas.style.height = this.height + 'px';
      this.canvas.dataset.plot = [this.margin.left, this.margin.top, this.plotW, this.plotH].join(',');
      this.canvas.title = '';
      this.readout.textContent = this.note || '\u00a0';
      this.el.dataset.tiles = String(tiles);
      this.el.dataset.marks = String(tiles + (this.note ? 1 : 0));
      this.el.dataset.note = this.note;
      return tiles + (this.note ? 1 : 0);
    }

    // The hovered tile's value: the centre of its level.
    hover(e) {
      const r = this.canvas.getBoundingClientRect();
      const x = Math.floor((e.clientX - r.left - this.margin.left) / this.cell);
      const y = Math.floor((e.clientY - r.top - this.margin.top) / this.cell);
      const {view, grid} = this.selected();
      let text = this.note || '\u00a0';
      if (grid && x >= 0 && y >= 0 && x < this.map.width && y < this.map.height) {
        const q = this.levels[grid.offset + y * this.map.width + x];
        const v = grid.hi > grid.lo ? grid.lo + q * (grid.hi - grid.lo) / stepsOf(view) : grid.lo;
        text = 'tile (' + x + ', ' + y + '): \u2248 ' + approx(v);
      }
      this.canvas.title = text.trim();
      this.readout.textContent = text;
    }

    // The chart as an SVG file (tessera report --svg, the SVG link): the canvas at twice the
    // resolution, as a PNG inside an SVG of the chart's size.
    toSVG() {
      const c = document.createElement('canvas');
      this.paint(c, 2);
      const png = c.toDataURL('image/png');
      return '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="' + this.width +
             '" height="' + this.height + '" viewBox="0 0 ' + this.width + ' ' + this.height + '"><image width="' +
             this.width + '" height="' + this.height + '" xlink:href="' + png + '"/></svg>';
    }
  }

  const inflated = {};
  async function renderHeatmap(el) {
    const map = data.heatmaps.find((m) => m.capture === el.dataset.heatmap);
    if (!map) throw new Error('no heat-map data for ' + el.dataset.heatmap);
    if (!inflated[map.capture]) inflated[map.capture] = inflate(map.levels);
    const levels = await inflated[map.capture];
    if (levels.length !== map.bytes) {
      throw new Error('heat-map levels of ' + map.label + ': ' + levels.length + ' bytes, expected ' + map.bytes);
    }
    const heat = new HeatMap(el, map, levels);
    if (!heat.draw()) throw new Error('chart ' + el.dataset.fig + ' drew no tiles');
    // The caption's link saves what the menus show, as a PNG.
    const link = document.createElement('a');
    link.className = 'svg-link';
    link.textContent = 'PNG';
    link.download = el.dataset.fig + '.png';
    link.href = '#';
    link.addEventListener('click', () => { link.href = heat.canvas.toDataURL('image/png'); });
    return {svg: heat.toSVG(), link: link};
  }

  async function renderVega(el) {
    const view = new View(parse(specFor(el)), {renderer: 'svg', container: el, hover: true});
    await view.runAsync();
    const marks = el.querySelectorAll('g.role-mark path, g.role-mark line, g.role-mark text').length;
    el.dataset.marks = String(marks);
    if (!marks) throw new Error('chart ' + el.dataset.fig + ' drew no marks');
    const svg = await view.toSVG();
    const link = document.createElement('a');
    link.className = 'svg-link';
    link.textContent = 'SVG';
    link.download = el.dataset.fig + '.svg';
    link.href = URL.createObjectURL(new Blob([svg], {type: 'image/svg+xml'}));
    return {svg: svg, link: link};
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
      const {svg, link} = el.dataset.heatmap !== undefined ? await renderHeatmap(el) : await renderVega(el);
      el.dataset.state = 'chart';
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
