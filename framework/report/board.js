/*
 * board.js - drawing shared by the --html report (report.html) and the
 * psolve serve app (serve.html): DOM and SVG helpers, number formats
 * (counts, bytes, seconds; never an exponent), the
 * colour palette, one state of a game (its state_json: a grid, tubes or
 * tiles, else its text), bar charts and line charts, and a --trace's
 * search tree and open list. Both pages embed it
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
    // A drawing scales down with its box (a phone's narrow screen) rather
    // than being cut off: its own size becomes its coordinate system.
    if (tag === "svg" && attrs && attrs.width && attrs.height && !attrs.viewBox)
      e.setAttribute("viewBox", "0 0 " + attrs.width + " " + attrs.height);
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
  // Told apart at a glance (Trubetskoy's 20 distinct colours, in the order
  // of SameGame's letters RGBYPOCMW, then the rest): green and lime, red and
  // pink, yellow and lime were too close before. Tubes also carry each
  // colour's number (drawTubes), for colour-blind players.
  var PALETTE = ["#fff", "#e6194b", "#3cb44b", "#4363d8", "#ffe119", "#911eb4",
                 "#f58231", "#42d4f4", "#f032e6", "#dcdcdc", "#9a6324",
                 "#000075", "#bfef45", "#469990", "#800000", "#fabed4", "#000000"];
  // Is a "#rrggbb" colour light (black text on it) or dark (white)?
  function light(c) {
    if (c.charAt(0) !== "#" || c.length !== 7) return true;
    var r = parseInt(c.substr(1, 2), 16), g = parseInt(c.substr(3, 2), 16), b = parseInt(c.substr(5, 2), 16);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150;
  }
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
        var y = 4 + (st.capacity - 1 - j) * u + 2;
        s.appendChild(svg("rect", {x: x + 2, y: y, width: w - 4, height: u - 2, fill: colour(c), "data-tube": k}));
        s.appendChild(svg("text", {x: x + w / 2, y: y + u / 2 + 4, "text-anchor": "middle", "font-size": 11,
          "font-family": "sans-serif", fill: light(colour(c)) ? "#000" : "#fff", "pointer-events": "none", "class": "unit-mark"}, String(c)));
      });
      s.appendChild(svg("rect", {x: x, y: 4, width: w, height: st.capacity * u + 4, rx: 6, fill: "transparent", "data-tube": k,
        stroke: k === from ? "#e65100" : k === to ? "#1565c0" : "#555", "stroke-width": k === from || k === to ? 4 : 1.5}));
      s.appendChild(svg("text", {x: x + w / 2, y: h, "text-anchor": "middle", "font-size": 12}, String(k + 1) + (k === from ? " from" : k === to ? " to" : "")));
    });
    return s;
  }

  // ---- one event of a --trace, in words (both pages' step-through) ----
  // The event's fields after its name, a field named as the event said
  // once ("iteration 1", not "iteration iteration 1"); A*'s key as
  // f = g + h when it is that sum.
  function describeEvent(ev) {
    var parts = [ev.event], fsum = ev.key !== undefined && ev.g !== undefined &&
      ev.h !== undefined && Number(ev.key) === Number(ev.g) + Number(ev.h);
    ["id", "parent", "depth", "g", "h", "key", "open", "iteration", "bound", "level", "width",
     "candidates", "value", "len"].forEach(function (f) {
      if (ev[f] === undefined) return;
      if (fsum && (f === "g" || f === "h")) return;
      if (f === "key" && fsum) { parts.push("f = g + h = " + fmt(ev.g) + " + " + fmt(ev.h) + " = " + fmt(ev.key)); return; }
      if (f === ev.event) { parts[0] = f + " " + fmt(ev[f]); return; }
      parts.push(f + " " + (f === "id" || f === "parent" ? "#" : "") + fmt(ev[f]));
    });
    if (ev.move !== undefined) parts.push("move " + ev.move);
    return parts.join("  ");
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

  // ---- a traced search (--trace's events): its tree and open list ----
  // The nodes events[0..k] name (expansions and pushes with an id), in the
  // order they first appear: {nodes: id -> {id, parent, depth, kind
  // ("open" or "closed"), g, h, key, move, state}, order: [id], current:
  // the id of the last expansion reached or null, closed: the closed
  // set's size (the nodes expanded), open: the open list's size the
  // search reported at its last event up to k (its "open" field) or null}.
  function traceNodes(ev, k) {
    var nodes = {}, order = [], closed = 0, open = null, current = null;
    for (var i = 0; i <= k && i < ev.length; i++) {
      var e = ev[i];
      if (e.open !== undefined) open = e.open;
      if ((e.event !== "expand" && e.event !== "push") || e.id === undefined) continue;
      if (!nodes[e.id]) { nodes[e.id] = {id: e.id, parent: e.parent, depth: 0, kind: "open", g: e.g, h: e.h, key: e.key, move: e.move}; order.push(e.id); }
      var nd = nodes[e.id];
      if (e.event === "expand") {
        if (nd.kind !== "closed") closed++;
        nd.kind = "closed"; nd.state = e.state; nd.depth = e.depth; current = e.id;
      }
      if (e.event === "push") { nd.kind = nd.kind === "closed" ? "closed" : "open"; nd.g = e.g; nd.key = e.key; nd.parent = e.parent; }
    }
    return {nodes: nodes, order: order, current: current, closed: closed, open: open};
  }
  // The search tree as a tidy drawing: each subtree in its own band of
  // columns, a parent centred over its children and joined to them by a
  // bracket (down, across, down), so no two edges cross and none passes
  // through a node; the queue key inside each node. A node whose parent
  // chain loops (a re-parented entry) is drawn as a root.
  function treeDrawing(nodes, order, curId) {
    var kids = {}, roots = [];
    function loops(id, p) {
      for (var steps = 0; p !== undefined && nodes[p]; steps++) {
        if (p === id || steps > order.length) return true;
        p = nodes[p].parent;
      }
      return false;
    }
    order.forEach(function (id) {
      var p = nodes[id].parent;
      if (p !== undefined && nodes[p] && !loops(id, p)) (kids[p] = kids[p] || []).push(id);
      else roots.push(id);
    });
    var slot = 24, rowH = 46, r = 10, at = {}, next = 0, maxDepth = 0;
    function place(id, d) {
      var c = kids[id] || [];
      maxDepth = Math.max(maxDepth, d);
      c.forEach(function (k) { place(k, d + 1); });
      var x = c.length ? (at[c[0]][0] + at[c[c.length - 1]][0]) / 2 : next++;
      at[id] = [x, d];
    }
    roots.forEach(function (id) { place(id, 0); });
    function px(id) { return [12 + (at[id][0] + 0.5) * slot, 14 + at[id][1] * rowH]; }
    var W = Math.max(300, next * slot + 24), H = (maxDepth + 1) * rowH + 4;
    var s = svg("svg", {width: W, height: H, "class": "tree"});
    function line(a, b) {
      if (a[0] !== b[0] || a[1] !== b[1])
        s.appendChild(svg("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#999"}));
    }
    order.forEach(function (id) {
      var c = kids[id];
      if (!c) return;
      var p = px(id), mid = p[1] + rowH / 2, lo = p[0], hi = p[0];
      line(p, [p[0], mid]);
      c.forEach(function (k) { var q = px(k); lo = Math.min(lo, q[0]); hi = Math.max(hi, q[0]); line([q[0], mid], q); });
      line([lo, mid], [hi, mid]);
    });
    order.forEach(function (id) {
      var nd = nodes[id], p = px(id);
      var fill = id === curId ? "#e33" : nd.kind === "closed" ? "#999" : "#fc3";
      var c = svg("circle", {cx: p[0], cy: p[1], r: r, fill: fill, stroke: "#333", "class": "node-" + nd.kind});
      if (id === curId) c.setAttribute("data-current", "1");
      c.appendChild(svg("title", {}, "#" + id + (nd.move ? " move " + nd.move : "") + "  g " + nd.g + (nd.h !== undefined ? "  h " + nd.h : "") + (nd.key !== undefined ? "  key " + fmt(nd.key) : "")));
      s.appendChild(c);
      if (nd.key === undefined) return;
      var label = fmt(nd.key);
      s.appendChild(svg("text", {x: p[0], y: p[1] + 3.5, "text-anchor": "middle", "pointer-events": "none",
        "font-size": Math.min(10, Math.floor(30 / Math.max(1, label.length))), fill: id === curId ? "#fff" : "#000"}, label));
    });
    return {svg: s, at: curId !== null && at[curId] ? px(curId) : null};
  }
  // The tree of a traceNodes() into box (emptied first), the node being
  // expanded kept in view when box scrolls a wide tree.
  function drawTree(box, t) {
    var s = treeDrawing(t.nodes, t.order, t.current);
    box.innerHTML = "";
    box.appendChild(el("div", {}, "search tree (label: queue key)"));
    box.appendChild(s.svg);
    if (s.at) box.scrollLeft = Math.max(0, s.at[0] - box.clientWidth / 2);
  }
  // The open nodes of a traceNodes() (the frontier the trace saw), by
  // queue key, as a table of at most `limit` rows into box (emptied first).
  function openList(box, t, limit) {
    var nodes = t.nodes;
    var open = t.order.filter(function (id) { return nodes[id].kind === "open"; })
      .sort(function (a, b) { return (nodes[a].key || 0) - (nodes[b].key || 0); });
    var table = el("table"), hr = el("tr");
    ["open list", "key", "g", "h", "move"].forEach(function (x) { hr.appendChild(el("th", {}, x)); });
    table.appendChild(hr);
    open.slice(0, limit).forEach(function (id) {
      var nd = nodes[id], row = el("tr");
      ["#" + id, nd.key, nd.g, nd.h, nd.move || ""].forEach(function (v) { row.appendChild(el("td", {}, v === undefined ? "" : fmt(v))); });
      table.appendChild(row);
    });
    box.innerHTML = "";
    box.appendChild(table);
    if (open.length > limit) box.appendChild(el("div", {"class": "muted"}, "... " + (open.length - limit) + " more"));
  }

  return {el: el, svg: svg, fmt: fmt, describeEvent: describeEvent, fmtCount: fmtCount, fmtBytes: fmtBytes,
          fmtSeconds: fmtSeconds, colour: colour, drawState: drawState,
          bars: bars, lineChart: lineChart, traceNodes: traceNodes,
          treeDrawing: treeDrawing, drawTree: drawTree, openList: openList};
})();
