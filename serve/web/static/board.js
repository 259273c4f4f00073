// board.js draws a position as SVG: the squares, the pieces, the legal
// moves of the player to move coloured by result, and the squares that a
// click may pick next.

const NS = "http://www.w3.org/2000/svg";
const S = 64; // a square's side
const M = 26; // the margin that holds the coordinates

// squareName names square i as probe.SquareName does: column a, b, c ...
// from the left, row 1, 2, 3 ... from the top.
export function squareName(i, cols) {
  return String.fromCharCode(97 + (i % cols)) + (Math.floor(i / cols) + 1);
}

// cells is a diagram's cells without its row separators.
export function cells(diagram) {
  return diagram.replaceAll("/", "");
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function centre(i, cols) {
  return [M + (i % cols) * S + S / 2, M + Math.floor(i / cols) * S + S / 2];
}

// segment is the line from square a to square b, cut short at both ends
// so that lines meeting at a square stay apart.
function segment(a, b, cols, cut) {
  const [x1, y1] = centre(a, cols);
  const [x2, y2] = centre(b, cols);
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const c1 = cut[0] / len, c2 = cut[1] / len;
  return { x1: x1 + dx * c1, y1: y1 + dy * c1, x2: x2 - dx * c2, y2: y2 - dy * c2 };
}

// draw replaces the content of svg with the position of view:
//   game, rows, cols, diagram
//   moves: the legal moves of the player to move (the API's move objects)
//   candidates: the moves that the squares picked so far lead to
//   picked: the squares clicked so far toward a move
//   targets: Map square -> "win" | "loss", the squares a click may pick next
//   hover: a move to draw whole, or null
export function draw(svg, view) {
  const { game, rows, cols, diagram } = view;
  const w = cols * S + 2 * M, h = rows * S + 2 * M;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.dataset.diagram = diagram;
  svg.dataset.game = game;
  const defs = el("defs", {}, svg);
  for (const r of ["win", "loss", "hover"]) {
    const m = el("marker", { id: `head-${r}`, viewBox: "0 0 10 10", refX: "6", refY: "5",
      markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse", class: `head ${r}` }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z" }, m);
  }

  const board = el("g", { class: "squares" }, svg);
  const cs = cells(diagram);
  for (let i = 0; i < rows * cols; i++) {
    const r = Math.floor(i / cols), c = i % cols;
    const shade = game === "domineering" ? "plain" : (r + c) % 2 === 0 ? "light" : "dark";
    el("rect", { x: M + c * S, y: M + r * S, width: S, height: S, class: `sq ${shade}`,
      "data-square": i, "data-name": squareName(i, cols), "data-cell": cs[i] || "" }, board);
  }
  el("rect", { x: M, y: M, width: cols * S, height: rows * S, class: "frame" }, svg);

  const coords = el("g", { class: "coords" }, svg);
  for (let c = 0; c < cols; c++) {
    const t = el("text", { x: M + c * S + S / 2, y: M + rows * S + M * 0.72 }, coords);
    t.textContent = String.fromCharCode(97 + c);
    const u = el("text", { x: M + c * S + S / 2, y: M * 0.7 }, coords);
    u.textContent = String.fromCharCode(97 + c);
  }
  for (let r = 0; r < rows; r++) {
    const t = el("text", { x: M / 2, y: M + r * S + S / 2 + 5 }, coords);
    t.textContent = String(r + 1);
    const u = el("text", { x: M + cols * S + M / 2, y: M + r * S + S / 2 + 5 }, coords);
    u.textContent = String(r + 1);
  }

  const picks = el("g", { class: "marks" }, svg);
  for (const i of view.picked) {
    const [x, y] = centre(i, cols);
    el("rect", { x: x - S / 2 + 3, y: y - S / 2 + 3, width: S - 6, height: S - 6, rx: 6, class: "picked",
      "data-picked": i }, picks);
  }

  // An amazon picked and sent to a square stands there while its shot is
  // chosen.
  const shown = [...cs];
  if (game === "amazons" && view.picked.length >= 2) {
    const [from, to] = view.picked;
    shown[to] = shown[from];
    shown[from] = ".";
  }
  const pieces = el("g", { class: "pieces" }, svg);
  for (let i = 0; i < shown.length; i++) drawCell(pieces, game, shown[i], i, cols);

  const marks = el("g", { class: "marks" }, svg);
  for (const [i, result] of view.targets) {
    const [x, y] = centre(i, cols);
    el("circle", { cx: x, cy: y, r: S * 0.44, class: `target ${result}`, "data-target": i }, marks);
  }

  const arrows = el("g", { class: "arrows" }, svg);
  drawMoves(arrows, game, view.candidates, view.picked, cols);
  if (view.hover) drawMove(arrows, game, view.hover, cols);
}

// drawCell draws what stands on square i.
function drawCell(g, game, cell, i, cols) {
  const [x, y] = centre(i, cols);
  const attrs = { "data-piece": i };
  if (cell === "x" || cell === "o") {
    const colour = cell === "x" ? "black" : "white";
    el("circle", { cx: x, cy: y, r: S * 0.34, class: `stone ${colour}`, ...attrs }, g);
    if (game === "amazons") {
      const k = S / 64;
      const pts = [[-13, 8], [-15, -8], [-7, 0], [0, -13], [7, 0], [15, -8], [13, 8]]
        .map(([px, py]) => `${x + px * k},${y + py * k}`).join(" ");
      el("polygon", { points: pts, class: `crown ${colour}` }, g);
    }
  } else if (cell === "#") {
    if (game === "domineering") {
      el("rect", { x: x - S / 2 + 4, y: y - S / 2 + 4, width: S - 8, height: S - 8, rx: 5, class: "covered", ...attrs }, g);
    } else {
      el("rect", { x: x - S / 2 + 2, y: y - S / 2 + 2, width: S - 4, height: S - 4, rx: 3, class: "burnt", ...attrs }, g);
      const d = S * 0.16;
      el("path", { d: `M${x - d},${y - d} L${x + d},${y + d} M${x + d},${y - d} L${x - d},${y + d}`, class: "burnt-x" }, g);
    }
  }
}

// drawMoves draws the candidate moves' next steps: from the last square
// picked (or the first of the move) to the next one, one line for each
// pair of squares, coloured by the best result through it.
function drawMoves(g, game, moves, picked, cols) {
  const best = new Map();
  const k = Math.max(0, picked.length - 1);
  for (const m of moves) {
    let a, b;
    if (game === "domineering") {
      [a, b] = m.squares;
    } else if (k + 1 < m.squares.length) {
      [a, b] = [m.squares[k], m.squares[k + 1]];
    } else continue;
    const key = `${a}-${b}`;
    if (!best.has(key) || m.result === "win") best.set(key, { a, b, result: m.result });
  }
  // Losing moves first, so that the winning ones are drawn on top.
  const all = [...best.values()].sort((p, q) => (p.result === q.result ? 0 : p.result === "win" ? 1 : -1));
  for (const { a, b, result } of all) {
    if (game === "domineering") {
      el("line", { ...segment(a, b, cols, [S * 0.22, S * 0.22]), class: `domino ${result}` }, g);
    } else {
      const arrow = game === "amazons" && picked.length >= 2;
      el("line", { ...segment(a, b, cols, [S * 0.2, S * 0.3]), class: `arrow ${result}${arrow ? " shot" : ""}`,
        "marker-end": `url(#head-${result})` }, g);
    }
  }
}

// drawMove draws one move whole, for the move the pointer is on in the list.
function drawMove(g, game, m, cols) {
  if (game === "domineering") {
    el("line", { ...segment(m.squares[0], m.squares[1], cols, [S * 0.22, S * 0.22]), class: "domino hover" }, g);
    return;
  }
  for (let j = 0; j + 1 < m.squares.length; j++) {
    el("line", { ...segment(m.squares[j], m.squares[j + 1], cols, [S * 0.2, S * 0.3]),
      class: `arrow hover${j > 0 ? " shot" : ""}`, "marker-end": "url(#head-hover)" }, g);
  }
}
