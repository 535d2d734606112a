/**
 * The script of the preview page (plain browser JavaScript, inlined after uPlot): one uPlot
 * per plotted channel from the page's JSON, times in UTC, enum and bool channels as steps
 * with their labels, and one x range for all plots: a drag zooms every plot to the same
 * time range, a double-click zooms all of them back out. Sets `data-drawn` on the body
 * and `window.previewDrawnAt` (ms since navigation start) when every plot is drawn; the
 * plots are `window.previewPlots` (for tests and the curious).
 */
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('preview-data').textContent);
  var plots = [];
  var ready = false;
  var syncing = false;

  function linkZoom(u, key) {
    if (!ready || syncing || key !== 'x') return;
    syncing = true;
    var min = u.scales.x.min;
    var max = u.scales.x.max;
    for (var i = 0; i < plots.length; i++) {
      if (plots[i] !== u) plots[i].setScale('x', { min: min, max: max });
    }
    syncing = false;
  }

  function yAxis(s) {
    var axis = { size: 64, stroke: '#444', grid: { stroke: '#eee' } };
    if (s.keys && s.keys.length) {
      axis.splits = function () { return s.keys; };
      axis.values = function (u, vals) {
        return vals.map(function (v) { return s.labels[String(v)] || String(v); });
      };
    }
    return axis;
  }

  function plot(s) {
    var el = document.querySelector('[data-plot="' + s.channel + '"]');
    if (!el) return;
    var x = data.axes[s.axis].map(function (t) { return t / 1000; });
    var series = { stroke: '#1f6feb', width: 1, spanGaps: false, points: { show: false } };
    if (s.step) series.paths = uPlot.paths.stepped({ align: 1 });
    var opts = {
      width: Math.max(320, el.clientWidth || 640),
      height: 140,
      tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'); },
      scales: { x: { time: true } },
      legend: { show: false },
      cursor: { sync: { key: 'preview' }, drag: { x: true, y: false } },
      series: [{}, series],
      axes: [{ stroke: '#444', grid: { stroke: '#eee' } }, yAxis(s)],
      hooks: { setScale: [linkZoom] },
    };
    plots.push(new uPlot(opts, [x, s.y], el));
  }

  data.series.forEach(plot);
  ready = true;
  if (plots.length > 1 && data.range) {
    syncing = true;
    plots.forEach(function (p) { p.setScale('x', { min: data.range[0] / 1000, max: data.range[1] / 1000 }); });
    syncing = false;
  }
  window.previewPlots = plots;
  requestAnimationFrame(function () {
    window.previewDrawnAt = performance.now();
    document.body.setAttribute('data-drawn', String(plots.length));
  });
})();
`;
