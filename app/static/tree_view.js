// The browser tree (app/tree_view.py): draws the TreeView JSON as SVG, with a tooltip, a click
// that sends a focus id back, drag to pan and zoom buttons. Every element is built with
// createElement(NS) and every text set with textContent only: game labels are data, never HTML.
const NS = "http://www.w3.org/2000/svg";
const ROLES = new Set(["p0", "p1", "end", "chance", "more", "up"]);
const PAD_X = 4;
const PAD_Y = 4;

// Everything below builds DOM with createElement(NS) + textContent: labels are data, never HTML.
function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

function htmlEl(tag, cls, parent, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  if (parent) parent.appendChild(e);
  return e;
}

function svgText(parent, x, y, str, cls) {
  const t = svgEl("text", { x: x, y: y, class: cls }, parent);
  t.textContent = String(str);
  return t;
}

function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

// Cut a text the font draws wider than its box (the server's width estimate is rough).
function fitText(t, maxWidth) {
  let s = t.textContent;
  try {
    let guard = 40;
    while (s.length > 1 && guard-- > 0 && t.getComputedTextLength() > maxWidth) {
      s = (s.endsWith("…") ? s.slice(0, -2) : s.slice(0, -1)).trimEnd() + "…";
      t.textContent = s;
    }
  } catch (err) {
    // not laid out yet: keep the text
  }
}

function setup(host) {
  const root = htmlEl("div", "tv-root", host);
  const scroll = htmlEl("div", "tv-scroll", root);
  // a group, not an image: its boxes are buttons (focus on click); its name says the tree
  const svg = svgEl("svg", { role: "group", "aria-label": "search tree" }, scroll);
  const edgesG = svgEl("g", { class: "tv-edges" }, svg);
  const labelsG = svgEl("g", { class: "tv-edge-labels" }, svg);
  const nodesG = svgEl("g", { class: "tv-nodes" }, svg);
  const bar = htmlEl("div", "tv-bar", root);
  const tip = htmlEl("div", "tv-tip", root);
  const legend = htmlEl("div", "tv-legend", root);
  const st = {
    host, root, scroll, svg, edgesG, labelsG, nodesG, tip, legend,
    data: null, view: null, byKey: new Map(), scale: 1, offsetX: 0, moved: false,
    drag: null, tipKey: null, setTrigger: null, lastWidth: -1, ro: null,
  };
  const buttons = [
    ["−", "zoom out", () => zoomAtCentre(st, 1 / 1.25)],
    ["+", "zoom in", () => zoomAtCentre(st, 1.25)],
    ["1:1", "actual size, the top box centred", () => actualSize(st)],
    ["fit", "fit the whole drawing", () => fit(st)],
    ["?", "what the colours and marks mean", () => legend.classList.toggle("open")],
  ];
  for (const [text, title, action] of buttons) {
    const b = htmlEl("button", "tv-button", bar, text);
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", text + ": " + title); // the visible text first (WCAG 2.5.3)
    b.addEventListener("click", (e) => { e.preventDefault(); action(); });
  }

  scroll.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const g = nodeGroup(e.target);
    st.drag = {
      id: e.pointerId, x: e.clientX, y: e.clientY, left: scroll.scrollLeft, top: scroll.scrollTop,
      key: g ? g.getAttribute("data-key") : null, moved: false,
    };
  });
  scroll.addEventListener("pointermove", (e) => {
    const d = st.drag;
    if (d && d.id === e.pointerId) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) > 4) {
        d.moved = true;
        try { scroll.setPointerCapture(e.pointerId); } catch (err) { /* ignore */ }
        scroll.classList.add("dragging");
        hideTip(st);
      }
      if (d.moved) {
        scroll.scrollLeft = d.left - dx;
        scroll.scrollTop = d.top - dy;
        st.moved = true;
        return;
      }
    }
    showTip(st, e);
  });
  const end = (e) => {
    const d = st.drag;
    if (!d || d.id !== e.pointerId) return;
    st.drag = null;
    scroll.classList.remove("dragging");
    if (!d.moved && d.key && e.type === "pointerup") click(st, d.key);
  };
  scroll.addEventListener("pointerup", end);
  scroll.addEventListener("pointercancel", end);
  scroll.addEventListener("pointerleave", () => { if (!st.drag) hideTip(st); });
  scroll.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return; // a plain wheel scrolls as usual
    e.preventDefault();
    const r = scroll.getBoundingClientRect();
    zoomTo(st, st.scale * Math.exp(-e.deltaY * 0.002), e.clientX - r.left, e.clientY - r.top);
    st.moved = true;
  }, { passive: false });
  svg.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const g = nodeGroup(e.target);
    if (g) { e.preventDefault(); click(st, g.getAttribute("data-key")); }
  });
  if (typeof ResizeObserver !== "undefined") {
    st.ro = new ResizeObserver(() => {
      if (!st.view) return;
      const w = scroll.clientWidth;
      if (w === st.lastWidth) return;
      st.lastWidth = w;
      layout(st);
      if (!st.moved) centre(st);
    });
    st.ro.observe(scroll);
  }
  return st;
}

function nodeGroup(target) {
  return target && target.closest ? target.closest("g.tv-node") : null;
}

function click(st, key) {
  const n = st.byKey.get(key);
  if (!n || n.click === null || n.click === undefined) return;
  if (key === st.view.top) return; // already the top
  if (st.setTrigger) st.setTrigger("focus", n.click);
}

function showTip(st, e) {
  const g = nodeGroup(e.target);
  const n = g ? st.byKey.get(g.getAttribute("data-key")) : null;
  if (!n) { hideTip(st); return; }
  const tip = st.tip;
  if (st.tipKey !== n.key) {
    clear(tip);
    for (const line of n.tooltip || []) htmlEl("div", "", tip, line);
    st.tipKey = n.key;
  }
  tip.style.display = "block";
  const r = st.root.getBoundingClientRect();
  let x = e.clientX - r.left + 14;
  let y = e.clientY - r.top + 16;
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  if (x + tw > r.width - 4) x = Math.max(4, e.clientX - r.left - tw - 10);
  if (y + th > r.height - 4) y = Math.max(4, e.clientY - r.top - th - 10);
  tip.style.left = x + "px";
  tip.style.top = y + "px";
}

function hideTip(st) {
  st.tip.style.display = "none";
  st.tipKey = null;
}

function topCentre(st) {
  const v = st.view;
  const t = st.byKey.get(v.top);
  return t ? t.x + t.w / 2 : v.width / 2;
}

function layout(st) {
  const v = st.view;
  const s = st.scale;
  const w = v.width * s;
  const h = v.height * s;
  st.svg.setAttribute("width", String(w));
  st.svg.setAttribute("height", String(h));
  st.svg.setAttribute("viewBox", "0 0 " + v.width + " " + v.height);
  const cw = st.scroll.clientWidth;
  // narrower than the container: put the top box in the middle while everything stays in view
  st.offsetX = w < cw ? Math.max(0, Math.min(cw - w, cw / 2 - topCentre(st) * s)) : 0;
  st.svg.style.marginLeft = st.offsetX + "px";
}

function centre(st) {
  const sc = st.scroll;
  sc.scrollLeft = Math.max(0, topCentre(st) * st.scale + st.offsetX - sc.clientWidth / 2);
  sc.scrollTop = 0;
}

function zoomTo(st, scale, ax, ay) {
  const sc = st.scroll;
  const old = st.scale;
  const px = (sc.scrollLeft + ax - st.offsetX) / old;
  const py = (sc.scrollTop + ay) / old;
  st.scale = Math.min(4, Math.max(0.15, scale));
  layout(st);
  sc.scrollLeft = px * st.scale + st.offsetX - ax;
  sc.scrollTop = py * st.scale - ay;
}

function actualSize(st) {
  st.scale = st.baseScale || 1;
  st.moved = false;
  layout(st);
  centre(st);
}

function zoomAtCentre(st, factor) {
  zoomTo(st, st.scale * factor, st.scroll.clientWidth / 2, st.scroll.clientHeight / 2);
  st.moved = true;
}

function fitWidth(st) { // a narrow screen: the whole width in view, top first (not "moved")
  const cw = st.scroll.clientWidth;
  if (!cw) return;
  st.scale = Math.min(st.baseScale || 1, Math.max(0.15, cw / st.view.width));
  layout(st);
  st.scroll.scrollLeft = 0;
  st.scroll.scrollTop = 0;
}

function fit(st) {
  const v = st.view;
  const cw = st.scroll.clientWidth;
  const ch = st.scroll.clientHeight;
  st.scale = Math.min(2, Math.max(0.15, Math.min(cw / v.width, ch / v.height)));
  layout(st);
  st.scroll.scrollLeft = 0;
  st.scroll.scrollTop = 0;
  st.moved = true;
}

function bezierPoint(x1, y1, x2, y2, t) {
  const ym = (y1 + y2) / 2;
  const u = 1 - t;
  const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  return [a * x1 + b * x1 + c * x2 + d * x2, a * y1 + b * ym + c * ym + d * y2];
}

function drawEdges(st, pal) {
  for (const e of st.view.edges) {
    const a = st.byKey.get(String(e.from));
    const b = st.byKey.get(String(e.to));
    if (!a || !b) continue;
    const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
    const ym = (y1 + y2) / 2;
    const style = e.style === "path" ? "path" : e.style === "fold" ? "fold" : "normal";
    const attrs = {
      d: "M" + x1 + "," + y1 + " C" + x1 + "," + ym + " " + x2 + "," + ym + " " + x2 + "," + y2,
      fill: "none",
      stroke: style === "path" ? pal.path : pal.edge,
      "stroke-width": style === "path" ? 3 : 1.5,
      class: "tv-edge tv-edge-" + style,
    };
    if (style === "fold") attrs["stroke-dasharray"] = "4 3";
    svgEl("path", attrs, st.edgesG);
    if (e.label) {
      const p = bezierPoint(x1, y1, x2, y2, 0.7);
      svgText(st.labelsG, p[0], p[1] + 4, e.label, "tv-edge-label");
    }
  }
}

function badge(g, cx, cy, text, fill, cls) {
  svgEl("circle", { cx: cx, cy: cy, r: 9, fill: fill, stroke: "#ffffff", "stroke-width": 1.5 }, g);
  svgText(g, cx, cy + 4, text, "tv-badge " + cls);
}

function drawNode(st, n, pal) {
  const v = st.view;
  const g = svgEl("g", {
    class: "tv-node tv-" + (ROLES.has(n.role) ? n.role : "more"),
    transform: "translate(" + n.x + "," + n.y + ")",
    "data-key": n.key,
  }, st.nodesG);
  if (n.id !== null && n.id !== undefined) g.setAttribute("data-id", String(n.id));
  const clickable = n.click !== null && n.click !== undefined && n.key !== v.top;
  if (clickable) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.classList.add("tv-click");
  }
  const role = ROLES.has(n.role) ? n.role : "more";
  const m = n.marks || {};
  let stroke = pal[role + "_stroke"];
  let width = 1.2;
  if (m.path) { stroke = pal.path; width = 2.5; }
  if (m.new) { stroke = pal.new; width = 3; }
  if (m.changed) width += 1.5;
  if (m.path) g.classList.add("tv-on-path");
  if (m.new) g.classList.add("tv-new");
  if (m.changed) g.classList.add("tv-changed");
  if (n.faint) g.classList.add("tv-is-faint");
  if (n.kind === "chance") {
    const cx = n.w / 2, r = 9;
    svgEl("rect", { x: 0, y: 0, width: n.w, height: n.h, fill: "transparent" }, g);
    svgEl("polygon", {
      points: cx + ",0 " + (cx + r) + "," + r + " " + cx + "," + 2 * r + " " + (cx - r) + "," + r,
      fill: pal.chance, stroke: stroke, "stroke-width": width,
    }, g);
    const t = svgText(g, cx, 2 * r + 15, n.label, "tv-label tv-chance-label");
    fitText(t, n.w - 4);
    if (m.pv) badge(g, cx + 20, 8, m.pv, pal.pv, "tv-pv");
    return;
  }
  if (m.focus) {
    svgEl("rect", {
      x: -4, y: -4, width: n.w + 8, height: n.h + 8, rx: 8, fill: "none",
      stroke: pal.text, "stroke-width": 1.2, "stroke-dasharray": "4 3",
    }, g);
  }
  const box = {
    x: 0, y: 0, width: n.w, height: n.h, rx: n.kind === "action" ? 6 : 11,
    fill: pal[role], stroke: stroke, "stroke-width": width, class: "tv-box",
  };
  if (n.kind === "more") box["stroke-dasharray"] = "4 3";
  svgEl("rect", box, g);
  if (n.kind === "action") {
    const t = svgText(g, n.w / 2, PAD_Y + 13, n.label, "tv-label");
    fitText(t, n.w - 2 * PAD_X);
    (n.lines || []).forEach((line, i) => {
      const cls = "tv-line" + (n.faint ? " tv-faint" : "") + (m.changed ? " tv-bold" : "");
      const lt = svgText(g, n.w / 2, PAD_Y + 16 + 15 * (i + 1) - 1, line, cls);
      fitText(lt, n.w - 4);
    });
  } else {
    svgText(g, n.w / 2, n.h / 2 + 4.5, n.label, "tv-small");
  }
  if (m.pv) badge(g, n.w - 2, 1, m.pv, pal.pv, "tv-pv");
  if (n.proven) {
    const letter = n.proven === "win" ? "W" : n.proven === "loss" ? "L" : "D";
    badge(g, 2, 1, letter, pal[n.proven] || pal.draw, "tv-proven");
  }
}

function drawLegend(st, pal) {
  const names = st.view.player_names || ["X", "O"];
  const lg = st.legend;
  clear(lg);
  const row = (swatch, text, dashed) => {
    const r = htmlEl("div", "tv-legend-row", lg);
    const s = htmlEl("span", "tv-swatch", r);
    if (swatch) s.style.background = swatch[0];
    if (swatch) s.style.borderColor = swatch[1];
    if (dashed) s.style.borderStyle = "dashed";
    htmlEl("span", "", r, text);
  };
  row([pal.p0, pal.p0_stroke], names[0] + " to move");
  row([pal.p1, pal.p1_stroke], names[1] + " to move");
  row([pal.end, pal.end_stroke], "game over");
  row([pal.chance, pal.chance_stroke], "◆ chance: each outcome's probability on its edge");
  row(["#ffffff", pal.path], "orange: the last selection path");
  row(["#ffffff", pal.new], "green outline: the node just added");
  row(["#ffffff", "#111827"], "thick outline, bold numbers: N and Q changed in the last backup");
  row([pal.pv, pal.pv], "numbered badge: the principal variation (most visited line)");
  row(["#ffffff", pal.more_stroke], "+n: moves folded away (click to show them)", true);
  htmlEl("div", "tv-legend-text", lg,
    "N: visits. Q: the mean value for the player who chose the move into the box. "
    + "Faint numbers: few visits. Hover a box for details, click to focus on it. "
    + "Drag to pan; +, −, Ctrl + wheel zoom.");
  const v = st.view;
  let info = v.drawn + " of " + v.total + " nodes drawn";
  if (!v.focus_found) info += " · the focused node is not in the tree: drawing from the root";
  htmlEl("div", "tv-legend-text", lg, info);
}

function render(st, data) {
  const v = data.view;
  const topChanged = !st.view || st.view.top !== v.top;
  if (v.summary) st.svg.setAttribute("aria-label", String(v.summary));
  st.view = v;
  const px = Math.max(80, Number(data.height) || 400) + "px";
  // grow with a taller window (a 1080-high projector) when asked: "calc(100vh - Npx)"
  st.root.style.height = data.fill ? "max(" + px + ", " + String(data.fill) + ")" : px;
  const base = Math.min(4, Math.max(0.15, Number(data.scale) || 1));
  if (st.baseScale !== base) { // a new first-view zoom (presentation mode): start from it
    st.baseScale = base;
    st.scale = base;
    st.moved = false;
  }
  st.byKey = new Map();
  for (const n of v.nodes) st.byKey.set(String(n.key), n);
  const pal = v.palette || {};
  clear(st.edgesG);
  clear(st.labelsG);
  clear(st.nodesG);
  layout(st); // size the svg first: text widths are measured while laid out
  drawEdges(st, pal);
  for (const n of v.nodes) drawNode(st, n, pal);
  drawLegend(st, pal);
  if (topChanged) st.moved = false;
  if (!st.moved && data.fit) fitWidth(st);
  else if (!st.moved) centre(st);
  st.lastWidth = st.scroll.clientWidth;
  if (st.tipKey !== null) {
    const n = st.byKey.get(st.tipKey);
    if (!n) {
      hideTip(st);
    } else { // the same box is still under the pointer: its new numbers
      clear(st.tip);
      for (const line of n.tooltip || []) htmlEl("div", "", st.tip, line);
    }
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let st = parentElement.__mctsTreeView;
  if (!st || !st.root.isConnected) {
    st = setup(parentElement);
    parentElement.__mctsTreeView = st;
  }
  st.setTrigger = setTriggerValue;
  if (data && data.view) render(st, data);
  return () => {
    // Streamlit calls this when the component goes away for good (also, rarely, for a stale
    // render): only tear down once the drawing has left the page.
    if (st.root.isConnected) return;
    if (st.ro) st.ro.disconnect();
    if (parentElement.__mctsTreeView === st) delete parentElement.__mctsTreeView;
  };
}
