/*
 * board.js - drawing shared by the --html report (report.html) and the
 * psolve serve app (serve.html): DOM and SVG helpers, number formats
 * (counts, bytes, seconds; never an exponent), the
 * colour palette, one state of a game (its state_json: a grid, tubes or
 * tiles, else its text), bar charts and line charts. Both pages embed it
 * where their PSOLVE-COMMON marker stands (html.c); it defines one
 * global, psolveCommon.
 */
var psolveCommon = (function () {
  "use strict";
  // The SVG namespace, from an <svg id="svg-namespace"> the HTML parser
  // placed in it: the pages name no address at all.
  var SVG = document.getElementById("svg-namespace").namespaceURI;

  // The style both pages share; each page's own <style> adds its parts.
  var style = document.createElement("style");
  style.textContent =
    "body { font-family: sans-serif; margin: 1em 2em; color: #222; background: #fafafa; }\n" +
    "h1 { font-size: 1.4em; margin-bottom: 0.2em; }\n" +
    "h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }\n" +
    "table { border-collapse: collapse; font-size: 0.9em; }\n" +
    "th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }\n" +
    "th:first-child, td:first-child { text-align: left; }\n" +
    "button.on { background: #2a6; color: #fff; }\n" +
    ".panel { background: #fff; border: 1px solid #ddd; padding: 0.6em; }\n" +
    "pre.board { font-size: 14px; line-height: 1.1; margin: 0; }\n" +
    "#status { font-size: 0.8em; color: #888; }\n" +
    ".muted { color: #888; }\n";
  document.head.insertBefore(style, document.head.firstChild);
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Numbers for people: no exponent form ever. Counts as "12,345", then
  // "181k", "18.6M", "1.23G" (three significant digits); other numbers
  // with three decimals.
  function group(n) {
    var t = String(Math.round(Math.abs(n))), out = "";
    for (var i = 0; i < t.length; i++) out += (i > 0 && (t.length - i) % 3 === 0 ? "," : "") + t[i];
    return (n < 0 ? "-" : "") + out;
  }
  function three(x) { return x >= 100 ? String(Math.round(x)) : x >= 10 ? x.toFixed(1) : x.toFixed(2); }
  function fmtCount(x) {
    if (typeof x !== "number") return String(x);
    var a = Math.abs(x), sign = x < 0 ? "-" : "";
    if (a < 1e5) return x === Math.floor(x) ? group(x) : x.toFixed(3);
    var units = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
    for (var i = 0; i < units.length; i++)
      if (a >= units[i][0] * 0.9995) return sign + three(a / units[i][0]) + units[i][1];
    return group(x);
  }
  function fmt(x) {
    if (typeof x !== "number") return String(x);
    if (x === Math.floor(x) || Math.abs(x) >= 1e5) return fmtCount(x);
    return x.toFixed(3);
  }
  // Bytes in binary units: "512 B", "233 KiB", "18.6 MiB", "2.10 GiB".
  function fmtBytes(b) {
    if (typeof b !== "number") return String(b);
    var units = ["KiB", "MiB", "GiB", "TiB"], v = b, u = -1;
    while (v >= 1023.5 && u < units.length - 1) { v /= 1024; u++; }
    return u < 0 ? Math.round(b) + " B" : three(v) + " " + units[u];
  }
  // Seconds: "< 0.1 ms", "0.4 ms", "12 ms", "2.43 s", "24.3 s", "3 min 05 s".
  function fmtSeconds(t) {
    if (typeof t !== "number") return String(t);
    if (t === 0) return "0 ms";
    if (t < 0.00005) return "< 0.1 ms";
    if (t < 0.0095) return (t * 1000).toFixed(1) + " ms";
    if (t < 0.9995) return Math.round(t * 1000) + " ms";
    if (t < 99.95) return (t < 9.995 ? t.toFixed(2) : t.toFixed(1)) + " s";
    if (t < 600) return Math.round(t) + " s";
    var m = Math.floor(t / 60), sec = Math.round(t - m * 60);
    return m + " min " + (sec < 10 ? "0" : "") + sec + " s";
  }

  // ---- colours: SameGame and Water Sort colour indices 1..n ----
  var PALETTE = ["#fff", "#e53935", "#43a047", "#1e88e5", "#fdd835", "#8e24aa",
                 "#00acc1", "#fb8c00", "#d81b60", "#6d4c41", "#7cb342",
                 "#3949ab", "#c0ca33", "#00897b", "#546e7a", "#f06292", "#212121"];
  function colour(i) {
    if (i < PALETTE.length) return PALETTE[i];
    return "hsl(" + ((i * 67) % 360) + ",65%,50%)";
  }

  // ---- drawing one state (the game's state_json, or its text) ----
  function drawState(box, st) {
    box.innerHTML = "";
    if (!st) return;
    if (st.kind === "grid") return box.appendChild(drawGrid(st));
    if (st.kind === "tubes") return box.appendChild(drawTubes(st));
    box.appendChild(el("pre", {"class": "board"}, st.text !== undefined ? st.text : JSON.stringify(st)));
  }
  function drawGrid(st) {
    var size = Math.max(14, Math.min(40, Math.floor(420 / Math.max(st.rows, st.cols))));
    var s = svg("svg", {width: st.cols * size + 2, height: st.rows * size + 2, "class": "grid"});
    var hl = {};
    (st.highlight || []).forEach(function (i) { hl[i] = true; });
    for (var r = 0; r < st.rows; r++) {
      for (var c = 0; c < st.cols; c++) {
        var i = r * st.cols + c, v = st.cells[i], x = 1 + c * size, y = 1 + r * size;
        if (st.style === "tiles") {
          s.appendChild(svg("rect", {x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 4, "data-cell": i,
            fill: v ? (hl[i] ? "#ffe082" : "#90caf9") : (hl[i] ? "#eee" : "#fafafa"),
            stroke: hl[i] ? "#e65100" : "#555", "stroke-width": hl[i] ? 3 : 1}));
          if (v) s.appendChild(svg("text", {x: x + size / 2, y: y + size / 2 + size * 0.17,
            "text-anchor": "middle", "font-size": Math.floor(size * 0.45), "font-family": "sans-serif", "pointer-events": "none"}, String(v)));
        } else {
          s.appendChild(svg("rect", {x: x, y: y, width: size, height: size, "data-cell": i,
            fill: v ? colour(v) : "#fff", stroke: hl[i] ? "#000" : "#ddd",
            "stroke-width": hl[i] ? 3 : 1}));
          if (hl[i]) s.appendChild(svg("circle", {cx: x + size / 2, cy: y + size / 2, r: size / 6, fill: "#000", "fill-opacity": 0.6, "pointer-events": "none"}));
        }
      }
    }
    return s;
  }
  function drawTubes(st) {
    var n = st.tubes.length, w = Math.max(22, Math.min(44, Math.floor(640 / n) - 10)), u = 24, gap = 10;
    var h = st.capacity * u + 30;
    var s = svg("svg", {width: n * (w + gap) + gap, height: h + 4, "class": "tubes"});
    var from = st.highlight ? st.highlight[0] : -1, to = st.highlight ? st.highlight[1] : -1;
    st.tubes.forEach(function (t, k) {
      var x = gap + k * (w + gap);
      t.forEach(function (c, j) {
        s.appendChild(svg("rect", {x: x + 2, y: 4 + (st.capacity - 1 - j) * u + 2, width: w - 4, height: u - 2, fill: colour(c), "data-tube": k}));
      });
      s.appendChild(svg("rect", {x: x, y: 4, width: w, height: st.capacity * u + 4, rx: 6, fill: "transparent", "data-tube": k,
        stroke: k === from ? "#e65100" : k === to ? "#1565c0" : "#555", "stroke-width": k === from || k === to ? 4 : 1.5}));
      s.appendChild(svg("text", {x: x + w / 2, y: h, "text-anchor": "middle", "font-size": 12}, String(k + 1) + (k === from ? " from" : k === to ? " to" : "")));
    });
    return s;
  }

  // ---- charts ----
  // `format` (optional) writes the values beside the bars (default fmt).
  function bars(title, labels, values, log, format) {
    format = format || fmt;
    var W = 340, rowH = 22, left = 90, H = labels.length * rowH + 30;
    var box = el("div", {"class": "panel"});
    box.appendChild(el("div", {}, title + (log ? " (log scale)" : "")));
    var s = svg("svg", {width: W, height: H, "class": "bars"});
    var max = 0, min = Infinity;
    values.forEach(function (v) { max = Math.max(max, v); if (v > 0) min = Math.min(min, v); });
    // Log scale: the smallest positive value gets a short bar, the largest
    // the full length, whatever their units.
    var lo = Math.log10(min) - 0.5, hi = Math.log10(max);
    function scale(v) {
      if (v <= 0 || max <= 0) return 0;
      if (!log) return v / max;
      return hi > lo ? (Math.log10(v) - lo) / (hi - lo) : 1;
    }
    labels.forEach(function (name, i) {
      var y = 8 + i * rowH, len = scale(values[i]) * (W - left - 70);
      s.appendChild(svg("text", {x: 0, y: y + 14, "font-size": 12}, name));
      s.appendChild(svg("rect", {x: left, y: y, width: Math.max(1, len), height: rowH - 6, fill: "#4a90d9"}));
      s.appendChild(svg("text", {x: left + len + 4, y: y + 14, "font-size": 12}, format(values[i])));
    });
    box.appendChild(s);
    return box;
  }
  // Lines of [x, y] points; `steps` draws each as a step function (a best
  // so far). opts (optional): width (px, default 460), x and y (the
  // formats of the axes' numbers, default fmt). The curves' names stand in
  // a legend above the plot, where no curve is drawn.
  function lineChart(series, xName, yName, steps, marker, opts) {
    opts = opts || {};
    var fx = opts.x || fmt, fy = opts.y || fmt;
    var W = Math.max(300, Math.round(opts.width || 460)), L = 60, B = 30, R = 10;
    // The legend's entries, left to right, wrapped into rows.
    var legend = [], lx = L, rows = series.length ? 1 : 0;
    series.forEach(function (sr) {
      var w = 18 + String(sr.name).length * 7 + 14;
      if (lx > L && lx + w > W - R) { lx = L; rows++; }
      legend.push([lx, 2 + rows * 15]);
      lx += w;
    });
    var T = 10 + rows * 15, H = 220 + T;
    var s = svg("svg", {width: W, height: H, "class": "chart"});
    var xs = [], ys = [];
    series.forEach(function (sr) { sr.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
    if (!xs.length) return s;
    var x0 = Math.min(0, Math.min.apply(null, xs)), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    if (x1 === x0) x1 = x0 + 1;
    if (y1 === y0) { y1 = y0 + 1; y0 = y0 - 1; }
    function X(x) { return L + (x - x0) / (x1 - x0) * (W - L - R); }
    function Y(y) { return H - B - (y - y0) / (y1 - y0) * (H - B - T); }
    s.appendChild(svg("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#333"}));
    s.appendChild(svg("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#333"}));
    s.appendChild(svg("text", {x: W - R, y: H - 4, "text-anchor": "end", "font-size": 11}, xName + " " + fx(x0) + " .. " + fx(x1)));
    s.appendChild(svg("text", {x: L - 4, y: T + 8, "text-anchor": "end", "font-size": 11}, fy(y1)));
    s.appendChild(svg("text", {x: L - 4, y: H - B, "text-anchor": "end", "font-size": 11}, fy(y0)));
    s.appendChild(svg("text", {x: 2, y: (H - B + T) / 2, "font-size": 11}, yName));
    series.forEach(function (sr, k) {
      var d = "";
      sr.points.forEach(function (p, i) {
        if (i === 0) d += "M" + X(p[0]) + "," + Y(p[1]);
        else if (steps) d += "H" + X(p[0]) + "V" + Y(p[1]);
        else d += "L" + X(p[0]) + "," + Y(p[1]);
      });
      var c = colour(k + 1), at = legend[k];
      s.appendChild(svg("path", {d: d, fill: "none", stroke: c, "stroke-width": 2}));
      s.appendChild(svg("line", {x1: at[0], y1: at[1] + 5, x2: at[0] + 14, y2: at[1] + 5, stroke: c, "stroke-width": 3, "class": "legend-line"}));
      s.appendChild(svg("text", {x: at[0] + 18, y: at[1] + 9, "font-size": 12, fill: c, "class": "legend"}, sr.name));
    });
    if (marker) s.appendChild(svg("circle", {cx: X(marker[0]), cy: Y(marker[1]), r: 5, fill: "#e33", id: "curve-marker"}));
    return s;
  }

  return {el: el, svg: svg, fmt: fmt, fmtCount: fmtCount, fmtBytes: fmtBytes,
          fmtSeconds: fmtSeconds, colour: colour, drawState: drawState,
          bars: bars, lineChart: lineChart};
})();
