// Square Rigger Chess: sea, land and harbour from the scenario's board; ships by class with
// heading and F/S/T factors; batteries; the wind rose; fire lines with amount and effect.
import { arrow, compassAngle, el, gridBoard, parseSquare, pieceGroup, sideColour, squareName } from "../board.js";

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
  const board = gridBoard(ctx, { width, height, right: 130, fill: (square) => TERRAIN[terrainAt(square)] || "#9cc9e6" });
  rows.forEach((row, index) => [...row].forEach((cell, x) => {
    if (cell !== "H") return;
    const { x: cx, y: cy } = board.center(squareName(x, height - 1 - index));
    board.layers.terrain.append(el("text", { x: cx, y: cy + 5, class: "terrain-mark", "pointer-events": "none" }, "⚓"));
  }));
  for (const line of state.fire || []) {
    const from = squareOf(state, line.piece);
    const to = squareOf(state, line.target);
    if (from && to) {
      board.layers.lines.append(arrow(board, from, to, {
        colour: "#ea580c", label: `${line.amount}→${line.effect} (${line.bearing}, range ${line.distance})`,
      }));
    }
  }
  for (const [name, battery] of Object.entries(state.batteries || {})) {
    const { x, y } = board.center(battery.square);
    const colour = battery.silenced ? "#6b7280" : sideColour(battery.side, ctx.view.seats);
    const fieldTicks = (battery.field || []).map((point) => {
      const angle = (compassAngle(point) - 90) * Math.PI / 180;
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
  windRose(board, state.wind, board.origin.x + board.boardWidth + 65, board.origin.y + 60);
  const escaped = Object.entries(state.ships).filter(([, ship]) => ship.escaped).map(([name]) => name);
  board.layers.extras.append(el("text", { x: board.origin.x + board.boardWidth + 65, y: board.origin.y + 140,
    class: "side-note" }, `turn ${state.turn}: ${state.side} ${state.phase}`));
  if (escaped.length) {
    board.layers.extras.append(el("text", { x: board.origin.x + board.boardWidth + 65, y: board.origin.y + 160,
      class: "side-note" }, `escaped: ${escaped.join(", ")}`));
  }
  return board.svg;
}

function squareOf(state, piece) {
  return state.ships[piece]?.square || state.batteries?.[piece]?.square || null;
}

function shipGlyph(ctx, board, name, ship) {
  const { x, y } = board.center(ship.square);
  const colour = ship.struck ? "#9ca3af" : sideColour(ship.side, ctx.view.seats);
  const hull = el("path", {
    d: "M0,-24 C10,-12 11,8 8,20 L-8,20 C-11,8 -10,-12 0,-24 Z",
    fill: colour, stroke: ctx.selected === name ? "#facc15" : "#111", "stroke-width": ctx.selected === name ? 4 : 1.5,
    transform: `translate(${x},${y}) rotate(${compassAngle(ship.heading)})`,
  });
  const [f, s, t] = ship.factors;
  const shapes = [hull,
    el("text", { x, y: y + 4, class: "piece-label" }, CLASS_MARK[ship.class] || ship.class[0]),
    el("text", { x, y: y + 27, class: "factor-label" }, `${f}/${s}/${t}`),
    el("title", {}, `${name}: ${ship.class} rate, ${ship.role}, heading ${ship.heading}, F${f} S${s} T${t}, ` +
      `${ship.hits} hit(s)${ship.struck ? ", struck" : ""}`)];
  if (ship.struck) shapes.push(el("text", { x: x + 14, y: y - 14, class: "struck-flag" }, "⚑"));
  if (ctx.state.moved?.includes(name)) shapes.push(el("circle", { cx: x - 20, cy: y - 20, r: 4, fill: "#111" }));
  return pieceGroup(ctx, name, ship.square, ...shapes);
}

function windRose(board, wind, cx, cy) {
  const group = el("g", { class: "wind-rose" });
  group.append(el("circle", { cx, cy, r: 40, fill: "#f8fafc", stroke: "#334155" }));
  for (const point of ["N", "E", "S", "W"]) {
    const angle = (compassAngle(point) - 90) * Math.PI / 180;
    group.append(el("text", { x: cx + Math.cos(angle) * 32, y: cy + Math.sin(angle) * 32 + 4, class: "rose-label" }, point));
  }
  // The arrow blows from the wind's point towards the opposite one.
  group.append(el("path", {
    d: "M0,-26 L7,8 L0,2 L-7,8 Z", fill: "#0f172a",
    transform: `translate(${cx},${cy}) rotate(${compassAngle(wind.from) + 180})`,
  }));
  group.append(el("text", { x: cx, y: cy + 56, class: "side-note" }, `wind ${wind.from}, ${wind.strength}`));
  board.layers.extras.append(group);
}
