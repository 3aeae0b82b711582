// Square Rigger Chess: sea, land and harbour from the scenario's board; ships by class with
// heading and F/S/T factors; batteries; the wind rose; fire lines with amount and effect; for the
// selected piece its bearings with caps, targets, range and effect (fire) or the fire arriving on
// them (defence); the fire arriving on each target with its defence; the hits of the last volley.
//
// Everything shown is read from the state's JSON and the legal actions the server sent: a bearing's
// cap is the largest amount it may legally fire, its target the square its actions aim at. Nothing
// here decides what is legal.
import { arrow, drawLegend, el, gridBoard, legendLayout, parseSquare, pieceGroup, sideColour, squareName, withSelection } from "../board.js";

const TERRAIN = { ".": "#9cc9e6", "#": "#c8b27a", H: "#7fb3d5" };
const CLASS_MARK = { first: "1", second: "2", third: "3", fourth: "4", fifth: "5", sixth: "6" };

export function draw(ctx) {
  const state = ctx.state;
  const rows = state.setup.board.trim().split("\n").map((row) => row.trim()).filter(Boolean);
  const height = rows.length;
  const width = rows[0].length;
  const terrainAt = (square) => {
    const { x, y } = parseSquare(square);
    return rows[height - 1 - y][x];
  };
  // On a phone the wind rose and the selected ship's bearings go below the board, which takes the width.
  const below = window.innerWidth <= 640;
  const entries = legendEntries(ctx, state);
  const layout = legendLayout(entries.length, width * 56 + (below ? 0 : PANEL), 190, 36);
  const board = gridBoard(ctx, {
    width, height, right: below ? 0 : PANEL, bottom: (below ? BELOW : 0) + layout.height + 24,
    fill: (square) => TERRAIN[terrainAt(square)] || "#9cc9e6",
    squareOf: (piece) => squareOf(state, piece),
  });
  rows.forEach((row, index) => [...row].forEach((cell, x) => {
    if (cell !== "H") return;
    const { x: cx, y: cy } = board.center(squareName(x, height - 1 - index));
    board.layers.terrain.append(el("text", { x: cx, y: cy + 5, class: "terrain-mark", "pointer-events": "none" }, "⚓"));
  }));
  for (const line of state.fire || []) {
    const from = squareOf(state, line.piece);
    const to = squareOf(state, line.target);
    if (from && to) {
      const drawn = arrow(board, from, to, {
        colour: "#ea580c", label: `${line.piece} ${line.bearing} ${line.amount} → effect ${line.effect} (range ${line.distance})`,
        aside: 16,
      });
      drawn.classList.add("fire-line");
      drawn.setAttribute("data-fire", `${line.piece}>${line.target}`);
      board.layers.lines.append(drawn);
    }
  }
  incomingLabels(board, state);
  selectedPanel(ctx, board, state, below);
  hitLabels(ctx, board, state);
  for (const [name, battery] of Object.entries(state.batteries || {})) {
    const { x, y } = board.center(battery.square);
    const colour = battery.silenced ? "#6b7280" : sideColour(battery.side, ctx.view.seats);
    const fieldTicks = (battery.field || []).map((point) => {
      const angle = (board.angle(point) - 90) * Math.PI / 180;
      return el("line", { x1: x, y1: y, x2: x + Math.cos(angle) * 24, y2: y + Math.sin(angle) * 24,
        stroke: colour, "stroke-width": 2, opacity: 0.5 });
    });
    board.layers.pieces.append(pieceGroup(ctx, name, battery.square, ...fieldTicks,
      el("rect", { x: x - 15, y: y - 15, width: 30, height: 30, rx: 4, fill: colour, stroke: "#111" }),
      el("text", { x, y: y + 5, class: "piece-label" }, `B${battery.F}`),
      el("title", {}, `${name} (battery, F${battery.F}${battery.silenced ? ", silenced" : ""})`)));
  }
  for (const [name, ship] of Object.entries(state.ships)) {
    if (!ship.square) continue;
    board.layers.pieces.append(shipGlyph(ctx, board, name, ship));
  }
  const { middle, top } = panelAt(board, below);
  windRose(board, state.wind, middle, top + 60);
  const escaped = Object.entries(state.ships).filter(([, ship]) => ship.escaped).map(([name]) => name);
  board.layers.extras.append(el("text", { x: middle, y: top + 140,
    class: "side-note" }, `turn ${state.turn}: ${state.side} ${state.phase}`));
  if (escaped.length) {
    board.layers.extras.append(el("text", { x: middle, y: top + 160,
      class: "side-note" }, `escaped: ${escaped.join(", ")}`));
  }
  drawLegend(board, entries, layout, board.origin.y + board.boardHeight + (below ? BELOW : 0) + 34);
  return board.svg;
}

const CLASS_NAME = { first: "1st rater", second: "2nd rater", third: "3rd rater", frigate: "frigate" };

/** What the drawing's marks mean: the sides' hulls, the class marks of the ships in this battle, the
 * factors, a merchant's outline, the moved, struck and battery marks where there are any. */
function legendEntries(ctx, state) {
  const seats = ctx.view.seats;
  const ships = Object.values(state.ships);
  const hull = (side, options = {}) => (x, y) => hullShapes(ctx, x, y, side, { rotation: 90, scale: 0.6, ...options });
  const mark = (text, className = "piece-label", fill = null) => (x, y) =>
    [el("text", { x, y: y + 5, class: className, style: fill ? `fill: ${fill}` : null }, text)];
  const classes = Object.keys(CLASS_NAME).filter((name) => ships.some((ship) => ship.class === name));
  const entries = [
    ...seats.map((side, index) => ({ key: side, text: `${side}: ${index ? "striped" : "plain"} hull`, shapes: hull(side) })),
    ...classes.map((name) => ({ key: name, text: CLASS_NAME[name], shapes: (x, y) => [...hull(seats[0])(x, y),
      el("text", { x, y: y + 5, class: "piece-label" }, CLASS_MARK[name] || name[0])] })),
    { key: "factors", text: "firepower/speed/turning", shapes: mark("5/1/1", "factor-label", "#0f172a") },
  ];
  if (ships.some((ship) => ship.role !== "warship")) {
    entries.push({ key: "merchant", text: "dashed: merchant, never fires", shapes: hull(seats[0], { merchant: true }) });
  }
  entries.push({ key: "moved", text: "moved this turn", shapes: (x, y) => [el("circle", { cx: x, cy: y, r: 4, fill: "#111" })] },
    { key: "struck", text: "struck her colours", shapes: mark("⚑", "struck-flag") });
  if (Object.keys(state.batteries || {}).length) {
    entries.push({ key: "battery", text: "shore battery (B and its F)", shapes: mark("B", "factor-label", "#0f172a") });
  }
  return entries;
}

/** A hull pointing its heading, in its side's colour; the second side's striped along the keel and
 * a merchant's outline dashed, so neither rests on colour alone. Drawn short enough (0.8) that a
 * ship heading N or S leaves room in her square for her factors below her. */
function hullShapes(ctx, x, y, side, { rotation, scale = 0.8, struck = false, selected = false, merchant = false }) {
  const colour = struck ? "#9ca3af" : sideColour(side, ctx.view.seats);
  const turn = `translate(${x},${y}) rotate(${rotation}) scale(${scale})`;
  const shapes = withSelection(el("path", {
    d: "M0,-24 C10,-12 11,8 8,20 L-8,20 C-11,8 -10,-12 0,-24 Z", class: "hull",
    fill: colour, stroke: "#111", "stroke-width": 1.5, "stroke-dasharray": merchant ? "4 3" : null, transform: turn,
  }), selected);
  if (ctx.view.seats.indexOf(side) > 0) {
    shapes.push(el("path", { d: "M0,-17 L0,-9 M0,11 L0,18", stroke: "white", "stroke-width": 3, class: "hull-stripe",
      "pointer-events": "none", transform: turn }));
  }
  return shapes;
}

const PANEL = 210; // room right of the board: the wind rose and the selected piece's bearings
const BELOW = 280; // on a phone, the same below the board: the rose on the left, the bearings beside it

/** Where the panel lies: right of the board, or below it (the rose's centre line, its top, and where
 * the selected ship's lines start). */
function panelAt(board, below) {
  if (below) {
    const top = board.origin.y + board.boardHeight + 24;
    return { middle: board.origin.x + 80, top, listX: board.origin.x + 175, listY: top + 16 };
  }
  const x = board.origin.x + board.boardWidth;
  return { middle: x + PANEL / 2, top: board.origin.y, listX: x + 8, listY: board.origin.y + 190 };
}

function chebyshev(a, b) {
  const p = parseSquare(a);
  const q = parseSquare(b);
  return p && q ? Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y)) : null;
}

/** The selected piece's legal fire, one entry per bearing: the amounts it may fire, its target. */
export function fireBearings(actions) {
  const bearings = new Map();
  for (const action of actions || []) {
    const match = /^fire (\S+) (\S+) (\d+)(?: at (\S+))?$/.exec(action.text);
    if (!match) continue;
    const [, , bearing, amount, target] = match;
    const entry = bearings.get(bearing) || { bearing, target, square: action.destination, low: Infinity, high: 0 };
    entry.low = Math.min(entry.low, Number(amount));
    entry.high = Math.max(entry.high, Number(amount));
    bearings.set(bearing, entry);
  }
  return [...bearings.values()];
}

/** The selected piece's legal defence, one entry per bearing: the most it may defend with there. */
export function defenceBearings(actions) {
  const bearings = new Map();
  for (const action of actions || []) {
    const match = /^defend (\S+) (\S+) (\d+)$/.exec(action.text);
    if (!match) continue;
    const [, , bearing, amount] = match;
    bearings.set(bearing, Math.max(bearings.get(bearing) || 0, Number(amount)));
  }
  return bearings;
}

/** Fire arriving on each bearing of each target, with the defence assigned there so far. */
function arriving(state) {
  const totals = new Map();
  for (const line of state.fire || []) {
    const key = `${line.target} ${line.arrives}`;
    const entry = totals.get(key) || { target: line.target, bearing: line.arrives, effect: 0, defence: 0 };
    entry.effect += line.effect;
    totals.set(key, entry);
  }
  for (const defended of state.defence || []) {
    const entry = totals.get(`${defended.piece} ${defended.bearing}`);
    if (entry) entry.defence = defended.amount;
  }
  return [...totals.values()];
}

function incomingLabels(board, state) {
  const rows = new Map();
  for (const entry of arriving(state)) {
    const square = squareOf(state, entry.target);
    if (!square) continue;
    const row = rows.get(square) || 0;
    rows.set(square, row + 1);
    const { x, y } = board.center(square);
    const open = Math.max(0, entry.effect - entry.defence);
    board.layers.overlay.append(el("text", {
      x, y: y + board.cell / 2 + 12 + 13 * row, class: "incoming-label", "data-incoming": `${entry.target} ${entry.bearing}`,
    }, `${entry.bearing}: ${entry.effect} in, defence ${entry.defence} → ${open} hit${open === 1 ? "" : "s"}`));
  }
}

/** The selected piece: each bearing it may fire on (cap, target, range, effect), drawn on the board
 * and listed beside it; or, while it defends, the fire arriving on each bearing and its defence cap. */
function selectedPanel(ctx, board, state, below) {
  const name = ctx.selected;
  const from = name && squareOf(state, name);
  if (!from) return;
  const { listX: x, listY } = panelAt(board, below);
  let y = listY;
  const line = (text, extra = {}) => {
    board.layers.extras.append(el("text", { x, y, class: "panel-line", "text-anchor": "start", ...extra }, text));
    y += 15;
  };
  const fire = fireBearings(ctx.actions);
  if (fire.length) {
    line(`${name}: fire`, { class: "panel-line panel-title" });
    for (const bearing of fire) {
      const range = chebyshev(from, bearing.square);
      const low = bearing.low - range + 1;
      const high = bearing.high - range + 1;
      const effect = low === high ? `${low}` : `${low}–${high}`;
      line(`${bearing.bearing}: cap ${bearing.high} → ${bearing.target}`, { "data-bearing": bearing.bearing });
      line(`  range ${range}, effect ${effect}`);
      const drawn = arrow(board, from, bearing.square, {
        colour: "#0f766e", dashed: true, width: 2, label: `${bearing.bearing} ≤${bearing.high}: effect ${effect} @${range}`,
        aside: -16,
      });
      drawn.classList.add("bearing-option");
      drawn.setAttribute("data-bearing", bearing.bearing);
      board.layers.lines.append(drawn);
    }
  }
  const defence = defenceBearings(ctx.actions);
  if (defence.size) {
    line(`${name}: defence`, { class: "panel-line panel-title" });
    const incoming = new Map(arriving(state).filter((e) => e.target === name).map((e) => [e.bearing, e]));
    for (const [bearing, cap] of defence) {
      line(`${bearing}: ${incoming.get(bearing)?.effect ?? "?"} arriving, defend ≤${cap}`, { "data-bearing": bearing });
    }
  }
}

/** The last turn's hits and strikes, on the pieces they fell on. */
function hitLabels(ctx, board, state) {
  const rows = new Map();
  for (const event of ctx.turnEvents || ctx.lastEvents || []) {
    if (!["hit", "struck", "silenced"].includes(event.kind)) continue;
    const square = event.square || squareOf(state, event.piece);
    if (!square) continue;
    const row = rows.get(square) || 0;
    rows.set(square, row + 1);
    const { x, y } = board.center(square);
    const text = event.kind === "hit"
      ? `−${event.hits} hit${event.hits === 1 ? "" : "s"}${event.bearing ? ` (${event.bearing})` : ""}`
      : event.kind === "struck" ? "struck!" : "silenced!";
    board.layers.overlay.append(el("text", { x, y: y + board.cell / 2 + 10 + 13 * row, class: "hit-label",
      "data-hit": event.piece }, text));
  }
}

function squareOf(state, piece) {
  return state.ships[piece]?.square || state.batteries?.[piece]?.square || null;
}

function shipGlyph(ctx, board, name, ship) {
  const { x, y } = board.center(ship.square);
  const [f, s, t] = ship.factors;
  // A clear disc under the hull: the ship answers a click anywhere in her square's middle, not only on her hull.
  const shapes = [el("circle", { cx: x, cy: y, r: 24, fill: "transparent" }), ...hullShapes(ctx, x, y, ship.side, { rotation: board.angle(ship.heading), struck: ship.struck,
    selected: ctx.selected === name, merchant: ship.role !== "warship" }),
    el("text", { x, y: y + 4, class: "piece-label" }, CLASS_MARK[ship.class] || ship.class[0]),
    el("text", { x, y: y + 28.5, class: "factor-label" }, `${f}/${s}/${t}`),
    el("title", {}, `${name} (${ship.side}) on ${ship.square}: ${CLASS_NAME[ship.class] || ship.class}, ${ship.role}, ` +
      `heading ${ship.heading}, F${f} S${s} T${t}, ` +
      `${ship.hits} hit${ship.hits === 1 ? "" : "s"}${ship.struck ? ", struck" : ""}`)];
  if (ship.struck) shapes.push(el("text", { x: x + 14, y: y - 14, class: "struck-flag" }, "⚑"));
  if (ctx.state.moved?.includes(name)) shapes.push(el("circle", { cx: x - 20, cy: y - 20, r: 4, fill: "#111" }));
  return pieceGroup(ctx, name, ship.square, ...shapes);
}

function windRose(board, wind, cx, cy) {
  const group = el("g", { class: "wind-rose" });
  group.append(el("circle", { cx, cy, r: 40, fill: "#f8fafc", stroke: "#334155" }));
  for (const point of ["N", "E", "S", "W"]) {
    const angle = (board.angle(point) - 90) * Math.PI / 180;
    group.append(el("text", { x: cx + Math.cos(angle) * 32, y: cy + Math.sin(angle) * 32 + 4, class: "rose-label" }, point));
  }
  // The arrow blows from the wind's point towards the opposite one.
  group.append(el("path", {
    d: "M0,-26 L7,8 L0,2 L-7,8 Z", fill: "#0f172a",
    transform: `translate(${cx},${cy}) rotate(${board.angle(wind.from) + 180})`,
  }));
  group.append(el("text", { x: cx, y: cy + 56, class: "side-note" }, `wind ${wind.from}, ${wind.strength}`));
  board.layers.extras.append(group);
}

/** The board in words (app.js reads it out and lists it): each ship and battery with its square,
 * class, heading, factors and damage; each square's ground; the wind and the turn. */
export function describe(ctx) {
  const state = ctx.state;
  const rows = state.setup.board.trim().split("\n").map((row) => row.trim()).filter(Boolean);
  const ground = { "#": "land", H: "harbour" };
  const pieces = [];
  for (const [name, ship] of Object.entries(state.ships)) {
    const [f, s, t] = ship.factors;
    const where = ship.square ? `heading ${COMPASS_WORDS[ship.heading] || ship.heading}` : ship.escaped ? "escaped" : "off the board";
    const marks = [ship.hits ? `${ship.hits} hit${ship.hits === 1 ? "" : "s"}` : "no hits", ship.struck && "struck",
      state.moved?.includes(name) && "moved this turn"].filter(Boolean);
    pieces.push({ piece: name, name, side: ship.side, at: ship.square,
      text: `${name}, ${ship.side} ${CLASS_NAME[ship.class] || ship.class}${ship.role === "warship" ? "" : ` (${ship.role})`}, ` +
        `${where}, F${f} S${s} T${t}, ${marks.join(", ")}` });
  }
  for (const [name, battery] of Object.entries(state.batteries || {})) {
    pieces.push({ piece: name, name, side: battery.side, at: battery.square,
      text: `${name}, ${battery.side} battery, F${battery.F}${battery.silenced ? ", silenced" : ""}` });
  }
  const terrain = (square) => {
    const at = parseSquare(square);
    const row = at && rows[rows.length - 1 - at.y];
    return row ? ground[row[at.x]] || null : null;
  };
  // Runs along each rank, read as "a12 to n12" rather than fourteen squares.
  const runsOf = (mark) => rows.flatMap((row, index) => [...row.matchAll(new RegExp(`${mark === "H" ? "H" : "#"}+`, "g"))]
    .map((run) => {
      const rank = rows.length - 1 - index;
      const [from, to] = [squareName(run.index, rank), squareName(run.index + run[0].length - 1, rank)];
      return from === to ? from : `${from} to ${to}`;
    }));
  const land = runsOf("#");
  const harbours = runsOf("H");
  return {
    pieces,
    terrain,
    notes: [`Turn ${state.turn}: ${state.side} to ${state.phase}. Wind from the ${COMPASS_WORDS[state.wind.from] || state.wind.from}, ` +
      `${state.wind.strength}. Board ${rows[0].length} by ${rows.length} squares` +
      `${land.length ? `; land on ${land.join(", ")}` : ""}${harbours.length ? `; harbours on ${harbours.join(", ")}` : ""}; the rest is sea.`],
  };
}

const COMPASS_WORDS = { N: "north", NE: "north-east", E: "east", SE: "south-east", S: "south", SW: "south-west", W: "west",
  NW: "north-west" };
