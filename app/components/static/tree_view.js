// The browser tree (app/components/tree_view.py): draws the TreeView JSON as SVG, with a tooltip, a click
// that sends a focus id back, drag to pan and zoom buttons. Every element is built with
// createElement(NS) and every text set with textContent only: game labels are data, never HTML.
// After every change of what the last iteration marked (a Step, back, a new focus) the view
// frames the boxes that matter: the top, the last path, the new node and the favourite (PV 1).
// Its own words (buttons, legend, aria labels) come translated with the data (data.words, made
// by tree_words in app/components/tree_view.py, in the page's language): none are written here.
const NS = "http://www.w3.org/2000/svg";
const ROLES = new Set(["p0", "p1", "end", "chance", "more", "up"]);
const PAD_X = 4;
const PAD_Y = 4;
const FRAME_PAD = 6; // px around the framed boxes (their badges have 10 more)
// a window at most this wide is a phone (app/screen/sidebar.py PHONE_CSS): the drawing's whole
// width (the screen's tree column at 1280x720 is narrower, and keeps its type at 12 px or more)
const PHONE = 640;

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

// A message's named placeholders filled as Python's str.format fills them ("{label}"; "{{" is
// a brace): the words come with placeholders for what only the script knows.
function fill(template, values) {
  return String(template || "").replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : m;
  });
}

function words(st) {
  return (st.data && st.data.words) || {};
}

// The direction of the words' boxes (the legend, the tooltip): "rtl" or "ltr", from the data.
function direction(st) {
  return words(st).dir === "rtl" ? "rtl" : "ltr";
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
  const svg = svgEl("svg", { role: "group" }, scroll);
  const edgesG = svgEl("g", { class: "tv-edges" }, svg);
  const labelsG = svgEl("g", { class: "tv-edge-labels" }, svg);
  const nodesG = svgEl("g", { class: "tv-nodes" }, svg);
  const bar = htmlEl("div", "tv-bar", root);
  const tip = htmlEl("div", "tv-tip", root);
  const legend = htmlEl("div", "tv-legend", root);
  const st = {
    host, root, scroll, svg, edgesG, labelsG, nodesG, tip, legend,
    data: null, view: null, byKey: new Map(), scale: 1, offsetX: 0, moved: false,
    drag: null, tipKey: null, setTrigger: null, setState: null, lastWidth: -1, ro: null, frameKey: null,
    fitWidth: false, buttons: [],
  };
  // their text and tooltips come with the data (nameButtons), in this order
  const actions = [
    () => zoomAtCentre(st, 1 / 1.25),
    () => zoomAtCentre(st, 1.25),
    () => actualSize(st),
    () => fit(st),
    () => legend.classList.toggle("open"),
  ];
  for (const action of actions) {
    const b = htmlEl("button", "tv-button", bar);
    b.type = "button";
    b.addEventListener("click", (e) => { e.preventDefault(); action(); });
    st.buttons.push(b);
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
      const h = scroll.clientHeight;
      if (w === st.lastWidth && h === st.lastHeight) return;
      st.lastWidth = w;
      st.lastHeight = h;
      layout(st);
      if (!st.moved) frame(st);
    });
    st.ro.observe(scroll);
  }
  // down to the window's bottom (data.bottom): again when the window or what is above changes
  st.onResize = () => fillWindow(st);
  window.addEventListener("resize", st.onResize);
  return st;
}

// The buttons' visible text, tooltip and accessible name, from the data's words.
function nameButtons(st) {
  const w = words(st);
  const named = Array.isArray(w.buttons) ? w.buttons : [];
  st.buttons.forEach((b, i) => {
    const pair = Array.isArray(named[i]) ? named[i] : ["", ""];
    const text = String(pair[0] || "");
    const title = String(pair[1] || "");
    if (b.textContent !== text) b.textContent = text;
    b.title = title;
    // the visible text first (WCAG 2.5.3)
    b.setAttribute("aria-label", w.button ? fill(w.button, { text: text, title: title }) : text);
  });
}

function nodeGroup(target) {
  return target && target.closest ? target.closest("g.tv-node") : null;
}

// A phone answering a question about a move (data.answer): the index of the answer a box
// stands for, or null.
function answerOf(st, n) {
  const a = st.answer;
  if (!a || !a.nodes || n.id === null || n.id === undefined) return null;
  const i = a.nodes[String(n.id)];
  return Number.isInteger(i) && i >= 0 ? i : null;
}

function click(st, key) {
  const n = st.byKey.get(key);
  if (!n) return;
  const choice = answerOf(st, n);
  if (choice !== null) { // a tap answers: the round it was drawn for goes with it
    // a state, not a trigger: the browser keeps it and sends it with the page's next run, so
    // a tap made as the page's server died reaches the next one; "at" makes each tap a change
    if (st.setState) {
      st.setState("answer", {
        poll: st.answer.poll, round: st.answer.round, choice: choice, at: Date.now(),
      });
    }
    // shown at once; the page's next run draws what the store kept
    const answer = Object.assign({}, st.data.answer, { chosen: choice });
    render(st, Object.assign({}, st.data, { answer: answer }));
    return;
  }
  if (n.click === null || n.click === undefined) return;
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
    tip.dir = direction(st);
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
  layout(st);
  centre(st);
  st.moved = true; // kept until the next Step, back or focus reframes
}

function zoomAtCentre(st, factor) {
  zoomTo(st, st.scale * factor, st.scroll.clientWidth / 2, st.scroll.clientHeight / 2);
  st.moved = true;
}

// What a click's framing keeps in view, most wanted first: the top box, the last path from the
// top down and the node just added, the top's moves, the favourite (PV badge 1); with
// data.movesFirst (a projector) the top's moves come before the path: what a class is asked
// about, so a deep path gives way before the top's row does. In drawing units, with room for
// their badges; each goes in only while all before it fit the container at the zoom ``s``.
function framedRect(st, s, cw, ch) {
  const v = st.view;
  const grow = (r, n) => ({
    x0: Math.min(r.x0, n.x - 10), y0: Math.min(r.y0, n.y - 10),
    x1: Math.max(r.x1, n.x + n.w + 10), y1: Math.max(r.y1, n.y + n.h + 10),
  });
  const fits = (r) => (r.x1 - r.x0) * s <= cw - 2 * FRAME_PAD && (r.y1 - r.y0) * s <= ch - 2 * FRAME_PAD;
  const top = st.byKey.get(String(v.top));
  if (!top) return null;
  let r = grow({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }, top);
  const moves = v.nodes.filter((n) => String(n.parent) === String(v.top));
  const marked = v.nodes.filter((n) => n.marks && (n.marks.path || n.marks.new) && n !== top)
    .sort((a, b) => a.y - b.y || (a.marks.new ? 1 : 0) - (b.marks.new ? 1 : 0));
  const favourite = v.nodes.filter((n) => n.marks && n.marks.pv === 1 && n !== top);
  const addMoves = () => { // all of the row or none of it
    let row = r;
    for (const n of moves) row = grow(row, n);
    if (fits(row)) r = row;
  };
  const addPath = () => {
    for (const n of marked) {
      const more = grow(r, n);
      if (!fits(more)) return; // (the rest lies deeper: it gives way too)
      r = more;
    }
  };
  if (st.data && st.data.movesFirst) { addMoves(); addPath(); } else { addPath(); addMoves(); }
  for (const n of favourite) if (fits(grow(r, n))) r = grow(r, n);
  return r;
}

// The zoom a click's framing takes: the first view's, zoomed out only as far as the top, its
// moves, the path, the new node and the favourite need, never below the floor (``minScale``:
// a projector's readable type) except on a phone, which shows the drawing's whole width.
function frameScale(st, cw, ch) {
  const v = st.view;
  let s = st.baseScale || 1;
  let floor = st.minScale || 0;
  if (st.fitWidth || window.innerWidth <= PHONE) {
    s = Math.min(s, cw / v.width);
    floor = 0;
  }
  const all = framedRect(st, 0, cw, ch); // every wanted box (at zoom 0 all fit)
  if (all) {
    s = Math.min(s, (cw - 2 * FRAME_PAD) / (all.x1 - all.x0), (ch - 2 * FRAME_PAD) / (all.y1 - all.y0));
  }
  return Math.min(4, Math.max(0.15, floor, s));
}

// Zoom out only as far as needed (never past the first view's zoom, nor below the floor) and
// pan so that the framed boxes are inside the drawing's box.
function frame(st) {
  const sc = st.scroll;
  const cw = sc.clientWidth;
  const ch = sc.clientHeight;
  if (!cw || !ch || !st.byKey.get(String(st.view.top))) { centre(st); return; }
  st.scale = frameScale(st, cw, ch);
  layout(st);
  const s = st.scale;
  const r = framedRect(st, s, cw, ch);
  // across: the top box in the middle when that keeps the framed boxes in view, else as near
  let x = topCentre(st) * s + st.offsetX - cw / 2;
  x = Math.min(x, r.x0 * s + st.offsetX - FRAME_PAD);
  x = Math.max(x, r.x1 * s + st.offsetX + FRAME_PAD - cw);
  sc.scrollLeft = Math.max(0, x);
  // down: from the top of the drawing when the framed boxes fit from there
  sc.scrollTop = r.y1 * s + FRAME_PAD <= ch ? 0 : Math.max(0, r.y0 * s - FRAME_PAD);
}

// What the framing depends on: a change (a Step, back, a focus, a new zoom) reframes, even
// after the user panned; a rerun that changed none of it keeps the user's view.
function frameKey(v, base) {
  const keys = [];
  for (const n of v.nodes) {
    const m = n.marks || {};
    if (m.path || m.new || m.pv === 1) keys.push(n.key + (m.new ? "+" : "") + (m.pv ? "*" : ""));
  }
  return [v.top, base, keys.join(",")].join("|");
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
      "stroke-width": style === "path" ? 3.5 : 1.3, // the path: thicker as well as orange
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
  if (n.parent) g.setAttribute("data-parent", String(n.parent));
  const choice = answerOf(st, n);
  const clickable = choice !== null || (n.click !== null && n.click !== undefined && n.key !== v.top);
  if (clickable) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.classList.add("tv-click");
  }
  if (choice !== null) {
    g.classList.add("tv-answer");
    g.setAttribute("aria-label", fill(words(st).answer || "{label}", { label: n.label }));
    if (st.answer.chosen === choice) {
      g.classList.add("tv-my-answer");
      g.setAttribute("aria-pressed", "true");
    }
  }
  const role = ROLES.has(n.role) ? n.role : "more";
  const m = n.marks || {};
  // the players differ by shape as well as colour: square corners for the first, round for
  // the second (the player whose move it was: n.mover)
  const rx = n.kind !== "action" ? 11 : n.mover === 1 ? Math.min(14, n.h / 2) : 2;
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
    drawHeat(st, g, n, pal, false);
    return;
  }
  if (m.focus) {
    svgEl("rect", {
      x: -7, y: -7, width: n.w + 14, height: n.h + 14, rx: 10, fill: "none",
      stroke: pal.text, "stroke-width": 1.2, "stroke-dasharray": "4 3",
    }, g);
  }
  if (m.new) { // a double outline: the new node is told by its line, not by green alone
    svgEl("rect", {
      x: -4, y: -4, width: n.w + 8, height: n.h + 8, rx: rx + 3, fill: "none",
      stroke: pal.new, "stroke-width": 2, class: "tv-new-ring",
    }, g);
  }
  const box = {
    x: 0, y: 0, width: n.w, height: n.h, rx: rx,
    fill: pal[role], stroke: stroke, "stroke-width": width, class: "tv-box",
  };
  if (n.kind === "more") box["stroke-dasharray"] = "4 3";
  svgEl("rect", box, g);
  if (n.heat) { // the class's share: a shade under the texts (the count's badge says the number)
    const share = Math.max(0, Math.min(1, Number(n.heat.share) || 0));
    svgEl("rect", {
      x: 0, y: 0, width: n.w, height: n.h, rx: rx, fill: pal.heat || "#0e7490",
      "fill-opacity": (0.06 + 0.5 * share).toFixed(3), class: "tv-heat-shade",
    }, g);
  }
  if (n.kind === "action") {
    const t = svgText(g, n.w / 2, PAD_Y + 13, n.label, "tv-label");
    fitText(t, n.w - 2 * PAD_X);
    (n.lines || []).forEach((line, i) => {
      // a third line is a proven box's mean beside its proven value (tree_layout._lines)
      const cls = "tv-line" + (n.faint ? " tv-faint" : "") + (m.changed ? " tv-bold" : "") +
        (i >= 2 ? " tv-mean" : "");
      const lt = svgText(g, n.w / 2, PAD_Y + 16 + 15 * (i + 1) - 1, line, cls);
      fitText(lt, n.w - 4);
    });
  } else {
    svgText(g, n.w / 2, n.h / 2 + 4.5, n.label, "tv-small");
  }
  if (m.pv) badge(g, n.w - 2, 1, m.pv, pal.pv, "tv-pv");
  if (n.proven) { // bottom left: clear of the PV badge (top right) and of the neighbours'
    const letters = words(st).proven || {};
    const which = n.proven === "win" ? "win" : n.proven === "loss" ? "loss" : "draw";
    const letter = letters[which] || which.charAt(0).toUpperCase();
    badge(g, 2, n.h - 1, letter, pal.proven, "tv-proven");
  }
  drawHeat(st, g, n, pal, true);
  if (choice !== null && st.answer.chosen === choice) { // this phone's answer: a thick ring
    svgEl("rect", {
      x: -5, y: -5, width: n.w + 10, height: n.h + 10, rx: rx + 4, fill: "none",
      stroke: pal.text || "#111827", "stroke-width": 3.5, class: "tv-my-answer-ring",
    }, g);
  }
}

// The class's answers on a move (class_heat): the count in a badge at the bottom right (the
// shade is drawn under the texts; a move nobody chose has neither unless it was right), and
// after the reveal a right move's ✓ badge (top left) and ring: never colour alone.
function drawHeat(st, g, n, pal, box) {
  const h = n.heat;
  if (!h) return;
  const count = Math.max(0, Math.floor(Number(h.count) || 0));
  if (count === 0 && h.right !== true) return; // nobody chose it: no badge (less to read)
  const text = String(count);
  const x = box ? n.w - 2 : n.w / 2 + 20;
  const y = box ? n.h - 1 : 26;
  const half = Math.max(9, 4 + 3.6 * text.length);
  const hg = svgEl("g", { class: "tv-heat" }, g);
  svgEl("rect", {
    x: x - half, y: y - 9, width: 2 * half, height: 18, rx: 9, fill: pal.heat || "#0e7490",
    stroke: "#ffffff", "stroke-width": 1.5,
  }, hg);
  svgText(hg, x, y + 4, text, "tv-badge tv-heat-count");
  if (h.right === true) {
    if (box) {
      svgEl("rect", {
        x: -4, y: -4, width: n.w + 8, height: n.h + 8, rx: 6, fill: "none",
        stroke: pal.right || "#166534", "stroke-width": 3, class: "tv-heat-ring",
      }, g);
    }
    const cx = box ? 2 : n.w / 2 - 20;
    const cy = box ? 1 : 8;
    badge(g, cx, cy, "✓", pal.right || "#166534", "tv-heat-right");
  }
}

// The legend's lines: the swatches drawn here, the words from the data (words.legend, with the
// game's players and colours already in them).
function drawLegend(st, pal) {
  const said = words(st).legend || {};
  const lg = st.legend;
  clear(lg);
  // its lines run in the words' direction (Arabic: right to left, the swatch first on the
  // right); the drawing beside it keeps its geometry
  lg.dir = direction(st);
  const row = (swatch, key, extra) => {
    const r = htmlEl("div", "tv-legend-row", lg);
    const s = htmlEl("span", "tv-swatch" + (extra ? " " + extra : ""), r);
    if (swatch) s.style.background = swatch[0];
    if (swatch) s.style.borderColor = swatch[1];
    htmlEl("span", "", r, said[key] || "");
    return s;
  };
  row([pal.p0, pal.p0_stroke], "p0", "tv-swatch-square");
  row([pal.p1, pal.p1_stroke], "p1", "tv-swatch-round");
  row([pal.end, pal.end_stroke], "end");
  row([pal.chance, pal.chance_stroke], "chance", "tv-swatch-diamond");
  row(["#ffffff", pal.path], "path", "tv-swatch-thick");
  row(["#ffffff", pal.new], "new", "tv-swatch-double");
  row(["#ffffff", "#111827"], "changed", "tv-swatch-thick");
  row([pal.pv, pal.pv], "pv", "tv-swatch-badge");
  row([pal.proven, pal.proven], "proven", "tv-swatch-badge");
  row(["#ffffff", pal.more_stroke], "more", "tv-swatch-dashed");
  if (st.view.nodes.some((n) => n.heat)) {
    row([pal.heat, pal.heat], "heat", "tv-swatch-badge");
    row([pal.right, pal.right], "right", "tv-swatch-badge");
  }
  if (st.answer) row(["#ffffff", pal.text], "answer", "tv-swatch-thick");
  htmlEl("div", "tv-legend-text", lg, said.how || "");
  htmlEl("div", "tv-legend-text", lg, said.info || "");
}

// With data.bottom (Present mode): the drawing takes the window's height from where it starts
// down to ``bottom`` px above the window's bottom (never less than data.height): the room a
// projector has, not a fixed share of it. The resize observer reframes a new height.
function fillWindow(st) {
  if (st.bottom === null || st.bottom === undefined || !st.root.isConnected) return;
  const least = Math.max(80, Number(st.data && st.data.height) || 400);
  const top = st.root.getBoundingClientRect().top;
  const room = Math.floor(window.innerHeight - top - st.bottom);
  const px = Math.max(least, room) + "px";
  if (st.root.style.height !== px) st.root.style.height = px;
}

function render(st, data) {
  const v = data.view;
  st.svg.setAttribute("aria-label", String(v.summary || (data.words && data.words.tree) || ""));
  st.view = v;
  const px = Math.max(80, Number(data.height) || 400) + "px";
  // grow with a taller window (a 1080-high projector) when asked: "calc(100vh - Npx)"
  st.root.style.height = data.fill ? "max(" + px + ", " + String(data.fill) + ")" : px;

  const base = Math.min(4, Math.max(0.15, Number(data.scale) || 1));
  if (st.baseScale !== base) { // a new first-view zoom (presentation mode): start from it
    st.baseScale = base;
    st.scale = base;
  }
  st.fitWidth = Boolean(data.fit);
  st.data = data;
  st.bottom = typeof data.bottom === "number" ? data.bottom : null;
  fillWindow(st);
  nameButtons(st);
  const a = data.answer;
  st.answer = a && typeof a === "object" && a.nodes && typeof a.nodes === "object"
    ? { poll: String(a.poll), round: Number(a.round) || 0, nodes: a.nodes,
      chosen: Number.isInteger(a.chosen) ? a.chosen : null }
    : null;
  st.minScale = Math.min(4, Math.max(0, Number(data.minScale) || 0));
  const key = frameKey(v, base);
  if (key !== st.frameKey) { // a Step, back, a focus: frame what it marked, even after a pan
    st.frameKey = key;
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
  if (!st.moved) frame(st);
  st.lastWidth = st.scroll.clientWidth;
  st.lastHeight = st.scroll.clientHeight;
  // what is above the drawing settles after this run's other elements (and changes with the
  // next run's): measure again every 400 ms while it reaches down to the window's bottom
  if (st.bottom !== null && !st.fillTimer) st.fillTimer = setInterval(() => fillWindow(st), 400);
  if (st.bottom === null && st.fillTimer) { clearInterval(st.fillTimer); st.fillTimer = null; }
  if (st.tipKey !== null) {
    const n = st.byKey.get(st.tipKey);
    if (!n) {
      hideTip(st);
    } else { // the same box is still under the pointer: its new numbers
      clear(st.tip);
      st.tip.dir = direction(st);
      for (const line of n.tooltip || []) htmlEl("div", "", st.tip, line);
    }
  }
}

// The data comes as one JSON text (app/components/tree_view.py's as_json); an object is taken
// as it is. Text that does not parse draws nothing.
function readData(raw) {
  if (typeof raw !== "string") return raw;
  try { return JSON.parse(raw); } catch (e) { return null; }
}

export default function (component) {
  const { parentElement, setTriggerValue, setStateValue } = component;
  const data = readData(component.data);
  let st = parentElement.__mctsTreeView;
  if (!st || !st.root.isConnected) {
    st = setup(parentElement);
    parentElement.__mctsTreeView = st;
  }
  st.setTrigger = setTriggerValue;
  st.setState = setStateValue;
  if (data && data.view) render(st, data);
  return () => {
    // Streamlit calls this when the component goes away for good (also, rarely, for a stale
    // render): only tear down once the drawing has left the page.
    if (st.root.isConnected) return;
    if (st.ro) st.ro.disconnect();
    window.removeEventListener("resize", st.onResize);
    if (st.fillTimer) clearInterval(st.fillTimer);
    if (parentElement.__mctsTreeView === st) delete parentElement.__mctsTreeView;
  };
}
