// Napoleonic Chess: the field with hills, streams (obstacles between squares) and redoubt sites;
// units by army and type; the moves made this turn, attacks and supports as arrows; while attacks
// and supports are being declared, each attacked unit's attack total against its defence (with
// supports and terrain), worked out by the server's rules (the view's `notes`); the odds of the last
// combat from its events; units still to place.
import { arrow, el, expandSquares, gridBoard, pieceGroup, sideColour } from "../board.js";

const TYPE_MARK = { infantry: "I", cavalry: "C", artillery: "A", guards: "G" };

export function draw(ctx) {
  const state = ctx.state;
  const data = state.scenario.data;
  const hills = new Set(expandSquares(data.terrain?.hills));
  const sites = new Set(expandSquares(data.redoubts?.sites));
  const built = new Set(state.redoubts || []);
  const board = gridBoard(ctx, {
    width: data.width, height: data.height, right: 20,
    squareOf: (id) => state.units.find((unit) => unit.id === id)?.square,
    fill: (square, x, y) => (hills.has(square) ? "#b7a46a" : (x + y) % 2 ? "#cfe3b4" : "#bcd69c"),
  });
  for (const edge of data.terrain?.obstacles || []) {
    const [a, b] = edge.split("|").map(board.center);
    if (!a || !b) continue;
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const half = board.cell / 2;
    const across = a.x === b.x;
    board.layers.terrain.append(el("line", {
      x1: across ? mx - half : mx, y1: across ? my : my - half, x2: across ? mx + half : mx, y2: across ? my : my + half,
      stroke: "#2563eb", "stroke-width": 6, "stroke-linecap": "round", "pointer-events": "none", class: "stream",
    }));
  }
  for (const square of new Set([...sites, ...built])) {
    const { x, y } = board.center(square);
    board.layers.terrain.append(el("rect", {
      x: x - board.cell / 2 + 4, y: y - board.cell / 2 + 4, width: board.cell - 8, height: board.cell - 8,
      fill: "none", stroke: "#78350f", "stroke-width": built.has(square) ? 5 : 2,
      "stroke-dasharray": built.has(square) ? null : "4 3", "pointer-events": "none",
    }));
  }
  const squareOfUnit = {};
  for (const unit of state.units) {
    squareOfUnit[unit.id] = unit.square;
    board.layers.pieces.append(unitToken(ctx, board, unit, sideColour(unit.army, ctx.view.seats)));
  }
  for (const [army, placed] of Object.entries(state.hidden || {})) {
    for (const [square, type] of placed) {
      board.layers.pieces.append(unitToken(ctx, board, { id: null, army, type, square },
        sideColour(army, ctx.view.seats), 0.45));
    }
  }
  for (const path of Object.values(state.moved || {})) {
    for (let i = 1; i < path.length; i++) {
      board.layers.lines.append(arrow(board, path[i - 1], path[i], { colour: "#475569", dashed: true, width: 2 }));
    }
  }
  for (const [unitId, target] of Object.entries(state.attacks || {})) {
    board.layers.lines.append(arrow(board, squareOfUnit[unitId], target, { colour: "#dc2626" }));
  }
  for (const [unitId, target] of Object.entries(state.supports || {})) {
    board.layers.lines.append(arrow(board, squareOfUnit[unitId], target, { colour: "#2563eb", dashed: true }));
  }
  for (const [square, ids] of Object.entries(state.fallen || {})) {
    const { x, y } = board.center(square);
    board.layers.overlay.append(el("text", { x, y: y + 8, class: "fallen-mark" }, "✕"),
      el("title", {}, `${ids.join(", ")} fell here`));
  }
  for (const engagement of ctx.notes?.engagements || []) {
    const { x, y } = board.center(engagement.square);
    const parts = [`${engagement.base_defence}`];
    if (engagement.support) parts.push(`${engagement.support} support`);
    if (engagement.terrain) parts.push(`${engagement.terrain} terrain`);
    const label = el("text", {
      x, y: y - board.cell / 2 + 11, class: `total-label${engagement.falls ? " falls" : ""}`,
      "data-total": engagement.square,
    }, `${engagement.attack} vs ${engagement.defence}`);
    const explained = el("g", { class: "total" }, label);
    explained.append(el("title", {}, `${engagement.unit}: attack ${engagement.attack} (${engagement.attackers.join(", ")}) ` +
      `against defence ${engagement.defence} = ${parts.join(" + ")}` +
      `${engagement.supporters.length ? ` (supported by ${engagement.supporters.join(", ")})` : ""}: ` +
      `${engagement.falls ? "falls" : "holds"}`));
    board.layers.overlay.append(explained);
    board.layers.overlay.append(el("text", { x, y: y + board.cell / 2 - 4, class: `total-label${engagement.falls ? " falls" : ""}` },
      engagement.falls ? "falls" : "holds"));
  }
  for (const event of ctx.turnEvents || ctx.lastEvents || []) {
    if (!["eliminated", "survived"].includes(event.kind) || !(event.attack || event.defence)) continue;
    const { x, y } = board.center(event.square);
    board.layers.overlay.append(el("text", { x, y: y - board.cell / 2 + 12, class: "odds-label" },
      `${event.attack} vs ${event.defence}`));
  }
  return board.svg;
}

function unitToken(ctx, board, unit, colour, opacity = 1) {
  const { x, y } = board.center(unit.square);
  const selected = unit.id && ctx.selected === unit.id;
  const shapes = [
    el("rect", { x: x - 19, y: y - 14, width: 38, height: 28, rx: 3, fill: colour, opacity,
      stroke: selected ? "#facc15" : "#111", "stroke-width": selected ? 4 : 1.5 }),
    el("text", { x, y: y + 6, class: "piece-label" }, TYPE_MARK[unit.type] || unit.type[0].toUpperCase()),
    el("title", {}, `${unit.id || "hidden"}: ${unit.army} ${unit.type} on ${unit.square}`),
  ];
  return pieceGroup(ctx, unit.id, unit.square, ...shapes);
}
