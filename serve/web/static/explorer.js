// explorer.js is the position explorer of one run: it asks the JSON API
// for the position in the URL, draws it, lists its moves best first and
// plays them, keeps the position and the player to move in the URL (so
// the browser's back and forward buttons, and links, work), and plays
// against its user with census's best moves.

import { draw, squareName } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const run = document.body.dataset.run;
const api = `/api/v1/runs/${encodeURIComponent(run)}`;
const other = (p) => (p === "left" ? "right" : "left");
const storeKey = `census-line:${run}`;
// How long census waits before it answers a move, so that the user sees it.
const censusDelay = 350;

const state = {
  info: null,
  diagram: "",
  toMove: "left",
  answer: null, // the API's answer for diagram and toMove
  picked: [], // the squares clicked so far toward a move
  hover: null, // the move under the pointer in the list
  // line holds the positions of this visit, {d, m}, one per history entry
  // the page made; cursor is the one shown. Undo and redo walk it through
  // the browser's history, so that they and its buttons agree.
  line: [],
  cursor: 0,
  vs: null, // the side the user plays against census, or null
  seq: 0, // the number of the latest request: older answers are dropped
  timer: 0, // census's pending move
};

// ---- the API ----

class APIError extends Error {}

async function getJSON(url) {
  let res;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" } });
  } catch (e) {
    throw new APIError(`the server did not answer (${e.message})`);
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    // An answer that is not JSON: its status says it all.
  }
  if (!res.ok) throw new APIError((body && body.error) || `${res.status} ${res.statusText}`);
  return body;
}

function probe(d, m) {
  const q = new URLSearchParams({ diagram: d, to_move: m });
  return getJSON(`${api}/position?${q}`);
}

// ---- the URL and the history ----

function pageURL(d, m) {
  return `${location.pathname}?${new URLSearchParams({ d, to_move: m })}`;
}

function fromURL() {
  const q = new URLSearchParams(location.search);
  const m = q.get("to_move") === "right" ? "right" : "left";
  return { d: q.get("d") || state.info.start, m };
}

function saveLine() {
  try {
    sessionStorage.setItem(storeKey, JSON.stringify(state.line));
  } catch {
    // Storage may be off; the line then lasts as long as the page.
  }
}

function loadLine() {
  try {
    const l = JSON.parse(sessionStorage.getItem(storeKey) || "null");
    return Array.isArray(l) ? l : null;
  } catch {
    return null;
  }
}

// go shows position d with m to move as a new step of the line, after the
// API answered for it: a position the API refuses is not entered, its
// error is shown instead. byUser says the user chose it: census then
// answers when it is its turn.
async function go(d, m, byUser) {
  const answer = await ask(d, m);
  if (!answer) return;
  state.line = state.line.slice(0, state.cursor + 1);
  state.line.push({ d: answer.diagram, m });
  state.cursor = state.line.length - 1;
  saveLine();
  history.pushState({ i: state.cursor }, "", pageURL(answer.diagram, m));
  show(answer, m);
  if (byUser) censusTurn();
}

// visit shows the position of the URL, as the browser's history gives it.
async function visit() {
  const { d, m } = fromURL();
  const i = history.state && history.state.i;
  const at = Number.isInteger(i) ? state.line[i] : null;
  if (at && at.d === d && at.m === m) {
    state.cursor = i;
  } else {
    state.line = [{ d, m }];
    state.cursor = 0;
    saveLine();
    history.replaceState({ i: 0 }, "", pageURL(d, m));
  }
  const answer = await ask(d, m);
  if (answer) {
    show(answer, m);
    censusTurn();
  } else {
    // The URL names a position the API refuses: nothing to show but
    // the error, and the controls to go elsewhere.
    state.answer = null;
    state.diagram = d;
    state.toMove = m;
    renderEmpty();
  }
}

// ask fetches the answer for (d, m); on error it shows the error and
// returns null. The answer of a request overtaken by another is dropped.
async function ask(d, m) {
  const seq = ++state.seq;
  clearTimeout(state.timer);
  document.body.dataset.state = "loading";
  try {
    const a = await probe(d, m);
    if (seq !== state.seq) return null;
    showError("");
    return a;
  } catch (e) {
    if (seq !== state.seq) return null;
    showError(e instanceof APIError ? e.message : String(e));
    document.body.dataset.state = "error";
    return null;
  }
}

// ---- playing ----

function movesOf() {
  return (state.answer && state.answer.moves[state.toMove]) || [];
}

function play(move, byUser) {
  if (byUser && state.vs && state.toMove !== state.vs) return;
  state.picked = [];
  state.hover = null;
  go(move.diagram, other(state.toMove), byUser);
}

// censusTurn plays census's best move when it is census's turn.
function censusTurn() {
  clearTimeout(state.timer);
  if (!state.vs || state.toMove === state.vs) return;
  const moves = movesOf();
  if (moves.length === 0) return;
  const seq = state.seq;
  state.timer = setTimeout(() => {
    if (seq === state.seq && state.vs && state.toMove !== state.vs) play(moves[0], false);
  }, censusDelay);
  renderVs();
}

function undo() {
  if (state.cursor <= 0) return;
  let k = state.cursor - 1;
  // Against census, go back to the user's own turn.
  if (state.vs) while (k > 0 && state.line[k].m !== state.vs) k--;
  history.go(k - state.cursor);
}

function redo() {
  if (state.cursor >= state.line.length - 1) return;
  let k = state.cursor + 1;
  if (state.vs) while (k < state.line.length - 1 && state.line[k].m !== state.vs) k++;
  history.go(k - state.cursor);
}

// matches says whether move m goes through the squares picked: in their
// order, except for a domino, whose two squares come in either order.
function matches(m, picked) {
  if (state.info.game === "domineering") return picked.every((s) => m.squares.includes(s));
  return picked.every((s, j) => m.squares[j] === s);
}

function candidates() {
  return movesOf().filter((m) => matches(m, state.picked));
}

// targets are the squares a click may pick next, each with the best result
// of the moves through it.
function targets() {
  const t = new Map();
  if (state.vs && state.toMove !== state.vs) return t;
  for (const m of candidates()) {
    const next = state.info.game === "domineering"
      ? m.squares.filter((s) => !state.picked.includes(s))
      : [m.squares[state.picked.length]];
    for (const s of next) {
      if (s === undefined) continue;
      if (t.get(s) !== "win") t.set(s, m.result);
    }
  }
  return t;
}

function clickSquare(i) {
  if (!state.answer || (state.vs && state.toMove !== state.vs)) return;
  const p = state.picked;
  if (p.length > 0 && p[p.length - 1] === i) {
    p.pop(); // a second click on the last square picked takes it back
  } else if (targets().has(i)) {
    p.push(i);
  } else {
    state.picked = [];
    if (targets().has(i)) state.picked = [i];
  }
  const whole = candidates().filter((m) => m.squares.length === state.picked.length);
  if (whole.length > 0) {
    play(whole[0], true);
    return;
  }
  renderBoard();
}

// ---- showing ----

function playerName(p) {
  const game = state.info ? state.info.game : "";
  if (game === "domineering") return p === "left" ? "Left (vertical)" : "Right (horizontal)";
  return p === "left" ? "Left (Black)" : "Right (White)";
}

const classes = {
  L: "L: Left wins whoever starts",
  R: "R: Right wins whoever starts",
  N: "N: the player to move wins",
  P: "P: the player to move loses",
};

function showError(msg) {
  const e = $("#error");
  e.textContent = msg;
  e.hidden = !msg;
}

function show(answer, m) {
  state.answer = answer;
  state.diagram = answer.diagram;
  state.toMove = m;
  state.picked = [];
  state.hover = null;
  render();
  document.body.dataset.state = "ready";
}

function render() {
  renderBoard();
  renderStatus();
  renderMoves();
  renderBestLine();
  renderValues();
  renderControls();
}

function renderEmpty() {
  renderBoard();
  for (const id of ["#result", "#outcome", "#moves", "#best-line", "#move-count"]) $(id).replaceChildren();
  delete $("#result").dataset.result;
  delete $("#result").dataset.remoteness;
  $("#game-over").hidden = true;
  $("#values").hidden = true;
  renderControls();
}

function renderBoard() {
  const info = state.info;
  const svg = $("#board");
  if (!state.answer) {
    svg.replaceChildren();
    $("#hint").textContent = "No position to show: paste one below, or press Start.";
    return;
  }
  const picked = state.picked;
  const yourTurn = !(state.vs && state.toMove !== state.vs);
  draw(svg, {
    game: info.game, rows: info.rows, cols: info.cols, diagram: state.diagram,
    moves: movesOf(), candidates: yourTurn ? candidates() : [], picked,
    // Before the first click the moves' arrows say where to click; after
    // it, rings mark the squares that may come next.
    targets: picked.length > 0 ? targets() : new Map(), hover: state.hover,
  });
  svg.setAttribute("aria-label", `${info.game} ${info.board}: ${state.diagram}`);
  svg.dataset.toMove = state.toMove;
  const hint = $("#hint");
  const moves = movesOf();
  if (moves.length === 0 || !yourTurn) {
    hint.textContent = "";
  } else if (picked.length === 0) {
    hint.textContent = {
      clobber: "Click one of your stones, then the stone it captures.",
      domineering: "Click the two squares of your domino.",
      amazons: "Click an amazon, the square it moves to, then where it shoots.",
    }[info.game] || "Click a move.";
  } else {
    const names = picked.map((s) => squareName(s, info.cols)).join(", ");
    hint.textContent = `Picked ${names}; click a ringed square (or the last one again to take it back).`;
  }
}

function renderStatus() {
  const a = state.answer;
  const m = state.toMove;
  const res = m === "left" ? a.left_first : a.right_first;
  const r = $("#result");
  r.dataset.result = res.result;
  r.dataset.remoteness = res.remoteness;
  r.className = `result ${res.result}`;
  r.replaceChildren();
  const badge = document.createElement("span");
  badge.className = `badge ${res.result}`;
  badge.textContent = res.result === "win" ? "WIN" : "LOSS";
  const text = document.createElement("span");
  text.textContent = ` for ${playerName(m)} to move, remoteness ${res.remoteness}`;
  const why = document.createElement("span");
  why.className = "muted small";
  why.textContent = res.remoteness === 0 ? " (no move left)" : ` (${res.remoteness} move${res.remoteness === 1 ? "" : "s"} to the end with best play)`;
  r.append(badge, text, why);

  const o = $("#outcome");
  o.dataset.outcome = a.outcome;
  o.replaceChildren();
  const cls = document.createElement("span");
  cls.className = `outcome outcome-${a.outcome}`;
  cls.textContent = a.outcome;
  const alt = m === "left" ? a.right_first : a.left_first;
  o.append("Class ", cls, ` ${(classes[a.outcome] || "").slice(3)}. With ${playerName(other(m))} to move: ${alt.result}, remoteness ${alt.remoteness}. Tier ${a.tier}.`);

  const over = $("#game-over");
  if (movesOf().length === 0) {
    let msg = `Game over: ${playerName(m)} has no move and loses; ${playerName(other(m))} wins.`;
    if (state.vs) msg += state.vs === m ? " Census won." : " You won!";
    over.textContent = msg;
    over.hidden = false;
  } else {
    over.textContent = "";
    over.hidden = true;
  }
  document.body.dataset.over = movesOf().length === 0 ? "true" : "false";
}

function renderMoves() {
  const list = $("#moves");
  list.replaceChildren();
  const moves = movesOf();
  $("#move-count").textContent = moves.length
    ? `${moves.length} for ${playerName(state.toMove)}, best first; the number is the remoteness after the move`
    : "";
  const yourTurn = !(state.vs && state.toMove !== state.vs);
  for (const mv of moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = `move ${mv.result}`;
    b.dataset.move = mv.move;
    b.dataset.result = mv.result;
    b.dataset.remoteness = mv.remoteness;
    b.dataset.squares = mv.squares.join(",");
    b.disabled = !yourTurn;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = mv.move;
    const res = document.createElement("span");
    res.className = `badge ${mv.result}`;
    res.textContent = mv.result;
    const rem = document.createElement("span");
    rem.className = "rem";
    rem.textContent = String(mv.remoteness);
    rem.title = `remoteness ${mv.remoteness}: moves left after this one, with best play`;
    b.append(name, res, rem);
    b.addEventListener("click", () => play(mv, true));
    b.addEventListener("mouseenter", () => { state.hover = mv; renderBoard(); });
    b.addEventListener("mouseleave", () => { state.hover = null; renderBoard(); });
    b.addEventListener("focus", () => { state.hover = mv; renderBoard(); });
    b.addEventListener("blur", () => { state.hover = null; renderBoard(); });
    li.append(b);
    list.append(li);
  }
  if (moves.length === 0) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = `${playerName(state.toMove)} has no move.`;
    list.append(li);
  }
}

function renderBestLine() {
  const list = $("#best-line");
  list.replaceChildren();
  const line = (state.answer.best_line && state.answer.best_line[state.toMove]) || [];
  list.classList.toggle("empty", line.length === 0);
  for (const mv of line) {
    const li = document.createElement("li");
    li.className = `line-move ${mv.player}`;
    li.dataset.move = mv.move;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = mv.player === "left" ? "Left" : "Right";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = ` ${mv.move}`;
    li.append(who, name);
    list.append(li);
  }
  if (line.length === 0) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "None: the player to move has no move.";
    list.append(li);
  }
}

function renderValues() {
  const sec = $("#values");
  const a = state.answer;
  if (!state.info.valued) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  const table = $("#pieces");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["Piece", "Value", "Class"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  for (const p of a.pieces || []) {
    const tr = table.insertRow();
    tr.className = "piece";
    const pic = document.createElement("pre");
    pic.className = "picture";
    pic.textContent = p.picture.split("/").join("\n");
    tr.insertCell().append(pic);
    const v = tr.insertCell();
    v.className = "value";
    v.textContent = p.value || `(${p.note || "no value"})`;
    tr.insertCell().textContent = p.outcome || "";
  }
  if (!a.pieces || a.pieces.length === 0) {
    const tr = table.insertRow();
    const td = tr.insertCell();
    td.colSpan = 3;
    td.textContent = "No live piece: the position is 0.";
  }
  const sum = $("#value-sum");
  sum.dataset.value = a.value == null ? "" : a.value;
  sum.textContent = a.value == null ? "Sum: unknown (some piece has no value)" : `Sum: ${a.value}`;
}

function renderControls() {
  $("#undo").disabled = state.cursor <= 0;
  $("#redo").disabled = state.cursor >= state.line.length - 1;
  const yourTurn = !(state.vs && state.toMove !== state.vs);
  $("#best").disabled = !state.answer || movesOf().length === 0 || !yourTurn;
  const tm = $("#to-move");
  tm.dataset.toMove = state.toMove;
  for (const b of tm.querySelectorAll("button")) {
    b.textContent = playerName(b.dataset.player);
    b.setAttribute("aria-pressed", String(b.dataset.player === state.toMove));
  }
  for (const o of $("#vs-side").options) o.textContent = playerName(o.value);
  const input = $("#diagram-input");
  if (document.activeElement !== input) input.value = state.diagram;
  renderVs();
}

function renderVs() {
  const b = $("#play-vs");
  b.setAttribute("aria-pressed", String(!!state.vs));
  b.textContent = state.vs ? "Stop playing" : "Play against census";
  $("#vs-side").disabled = !!state.vs;
  const s = $("#vs-status");
  document.body.dataset.vs = state.vs || "";
  if (!state.vs) {
    s.textContent = "";
    return;
  }
  const over = state.answer && movesOf().length === 0;
  if (over) s.textContent = state.vs === state.toMove ? "Census won." : "You won!";
  else if (state.toMove === state.vs) s.textContent = `You play ${playerName(state.vs)}: your move.`;
  else s.textContent = "Census is thinking…";
}

// ---- wiring ----

function wire() {
  $("#board").addEventListener("click", (e) => {
    const sq = e.target.closest("[data-square]");
    if (sq) clickSquare(Number(sq.dataset.square));
  });
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#best").addEventListener("click", () => {
    const moves = movesOf();
    if (moves.length > 0) play(moves[0], true);
  });
  for (const b of $("#to-move").querySelectorAll("button")) {
    b.addEventListener("click", () => {
      if (b.dataset.player !== state.toMove) go(state.diagram, b.dataset.player, true);
    });
  }
  $("#play-vs").addEventListener("click", () => {
    state.vs = state.vs ? null : $("#vs-side").value;
    renderBoard();
    renderMoves();
    renderControls();
    censusTurn();
  });
  $("#diagram-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const d = $("#diagram-input").value.trim();
    if (d) go(d, state.toMove, true);
  });
  $("#start").addEventListener("click", () => go(state.info.start, "left", true));
  window.addEventListener("popstate", visit);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft") undo();
    else if (e.key === "ArrowRight") redo();
    else if (e.key === "Escape" && state.picked.length) {
      state.picked = [];
      renderBoard();
    }
  });
}

async function main() {
  wire();
  try {
    state.info = await getJSON(api);
  } catch (e) {
    showError(e.message);
    document.body.dataset.state = "error";
    return;
  }
  const saved = loadLine();
  if (saved) state.line = saved;
  await visit();
  // Against census the user plays, unless they choose, the side to move.
  $("#vs-side").value = state.toMove;
}

main();
