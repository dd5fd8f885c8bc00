// A phone's board for a question about a move (app/components/board_tap.py): the position the
// question asks about, each answer's cell (tic-tac-toe) or column (Connect Four) a button that
// sends the answer's index back with the round it was drawn for. Built with createElementNS and
// textContent only: labels are data, never HTML. Its words (aria labels) come translated with
// the data (data.words, made in app/components/board_tap.py in the page's language).
const NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  tic_tac_toe: { X: "#2563eb", O: "#dc2626" },
  connect_four: { X: "#facc15", O: "#dc2626" },
};

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

// A message's named placeholders filled as Python's str.format fills them ("{label}").
function fill(template, values) {
  return String(template || "").replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : m;
  });
}

function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

function send(st, tap) {
  // a state, not a trigger: the browser keeps it and sends it with the page's next run, so a
  // tap made as the page's server died reaches the next one; "at" makes each tap a change
  if (st.setState) {
    st.setState("answer", {
      poll: st.data.poll, round: st.data.round, choice: tap.choice, at: Date.now(),
    });
  }
  st.chosen = tap.choice; // shown at once; the page's next run draws what the store kept
  draw(st);
}

function button(st, g, tap) {
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("class", "bt-tap" + (st.chosen === tap.choice ? " bt-chosen" : ""));
  const said = st.data.words || {};
  g.setAttribute("aria-label", fill(said.answer || "{label}", { label: String(tap.label) }));
  if (st.chosen === tap.choice) g.setAttribute("aria-pressed", "true");
  g.setAttribute("data-choice", String(tap.choice));
  g.addEventListener("click", (e) => { e.preventDefault(); send(st, tap); });
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(st, tap); }
  });
}

function draw(st) {
  const d = st.data;
  const rows = d.rows;
  const nRows = rows.length;
  const nCols = rows[0].length;
  const ttt = d.view === "tic_tac_toe";
  const cell = ttt ? 38 : 24; // compact: the tree's moves stay on the first screen
  const colours = COLOURS[d.view] || COLOURS.tic_tac_toe;
  const byAt = new Map();
  for (const t of d.taps) byAt.set(t.at, t);
  const svg = st.svg;
  clear(svg);
  const w = nCols * cell + 4;
  const h = nRows * cell + 4;
  svg.setAttribute("width", String(w));
  svg.setAttribute("height", String(h));
  svg.setAttribute("viewBox", "-2 -2 " + w + " " + h);
  if (!ttt) el("rect", { x: 0, y: 0, width: nCols * cell, height: nRows * cell, rx: 5, fill: "#1e3a8a" }, svg);
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      const mark = rows[r][c];
      const x = c * cell;
      const y = r * cell;
      if (ttt) {
        const tap = mark === "." ? byAt.get(r * nCols + c) : undefined;
        const g = el("g", {}, svg);
        el("rect", {
          x: x, y: y, width: cell, height: cell, fill: tap ? "#ffffff" : "#f3f4f6",
          stroke: "#374151", "stroke-width": 1.5,
        }, g);
        if (mark !== ".") {
          const t = el("text", {
            x: x + cell / 2, y: y + cell / 2 + 10, "text-anchor": "middle", "font-size": 24,
            "font-weight": 700, fill: colours[mark] || "#111827",
          }, g);
          t.textContent = mark;
        } else if (tap) {
          const t = el("text", {
            x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": 14,
            fill: "#374151", class: "bt-label",
          }, g);
          t.textContent = String(tap.label);
          if (st.chosen === tap.choice) {
            el("rect", {
              x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, rx: 4, fill: "none",
              stroke: "#111827", "stroke-width": 3.5, class: "bt-ring",
            }, g);
          }
          button(st, g, tap);
        }
      } else {
        el("circle", {
          cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 4,
          fill: mark === "." ? "#ffffff" : colours[mark] || "#ffffff",
        }, svg);
      }
    }
  }
  if (!ttt) { // a column is one button, its whole height, over the stones
    for (let c = 0; c < nCols; c++) {
      const tap = byAt.get(c);
      if (!tap) continue;
      const g = el("g", {}, svg);
      const chosen = st.chosen === tap.choice;
      el("rect", {
        x: c * cell + 1, y: 1, width: cell - 2, height: nRows * cell - 2, rx: 4,
        fill: "rgba(255,255,255,0.01)", stroke: chosen ? "#f9fafb" : "none",
        "stroke-width": chosen ? 4 : 0, class: chosen ? "bt-ring" : "",
      }, g);
      button(st, g, tap);
    }
  }
  st.caption.textContent = String(d.caption || "");
}

// The data comes as one JSON text (app/components/tree_view.py's as_json); an object is taken
// as it is. Text that does not parse draws nothing.
function readData(raw) {
  if (typeof raw !== "string") return raw;
  try { return JSON.parse(raw); } catch (e) { return null; }
}

export default function (component) {
  const { parentElement, setStateValue } = component;
  const data = readData(component.data);
  let st = parentElement.__mctsBoardTap;
  if (!st || !st.root.isConnected) {
    const root = document.createElement("div");
    root.className = "bt-root";
    parentElement.appendChild(root);
    const svg = el("svg", { role: "group" }, root);
    const caption = document.createElement("div");
    caption.className = "bt-caption";
    root.appendChild(caption);
    st = { root, svg, caption, data: null, chosen: null, setState: null };
    parentElement.__mctsBoardTap = st;
  }
  st.setState = setStateValue;
  if (!data || !Array.isArray(data.rows) || !data.rows.length || !Array.isArray(data.taps)) return;
  st.data = data;
  st.svg.setAttribute("aria-label", String((data.words && data.words.board) || ""));
  st.chosen = Number.isInteger(data.chosen) ? data.chosen : null;
  draw(st);
}
