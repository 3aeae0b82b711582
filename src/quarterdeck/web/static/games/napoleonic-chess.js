// Napoleonic Chess: the field with hills, streams (obstacles between squares) and redoubt sites;
// units by army and type; the moves made this turn, attacks and supports as arrows; while attacks
// and supports are being declared, each attacked unit's attack total against its defence (with
// supports and terrain), worked out by the server's rules (the view's `notes`); the odds of the last
// combat from its events; units still to place.
import { arrow, drawLegend, el, expandSquares, gridBoard, legendLayout, pieceGroup, sideColour, withSelection } from "../board.js";

// Each unit type's map symbol, after the convention of military maps (NATO APP-6): infantry a
// cross, cavalry one diagonal, artillery a disc; a bar along the foot marks the heavy types
// (cuirassiers, heavy infantry), one along the top the guards (two for the foot guards), a
// crossbar the dragoons (horsemen who fight on foot). The shape alone tells the types apart, and the
// frame the armies (the first's square, the others' rounded), so nothing rests on colour alone.
const SYMBOLS = {
  infantry: ["cross"],
  "foot-guards": ["cross", "guard", "guard2"],
  guards: ["cross", "guard"],
  "heavy-infantry": ["cross", "heavy"],
  cavalry: ["slash"],
  cuirassiers: ["slash", "heavy"],
  dragoons: ["slash", "bar"],
  artillery: ["disc"],
  "horse-artillery": ["disc", "slash"],
};
const FRAME = { width: 36, height: 24 };

/** The field's ground: its scenario data, the hills, the redoubt sites and the redoubts built. */
function fieldOf(state) {
  const data = state.scenario.data;
  return { data, hills: new Set(expandSquares(data.terrain?.hills)), sites: new Set(expandSquares(data.redoubts?.sites)),
    built: new Set(state.redoubts || []) };
}

export function draw(ctx) {
  const state = ctx.state;
  const { data, hills, sites, built } = fieldOf(state);
  const types = [...new Set([...state.units.map((unit) => unit.type),
    ...Object.values(state.hidden || {}).flatMap((placed) => placed.map(([, type]) => type)),
    ...Object.values(state.to_place || {}).flatMap((left) => Object.keys(left))])];
  const entries = legendEntries(ctx, types);
  const layout = legendLayout(entries.length, data.width * 56, 180, 30);
  const board = gridBoard(ctx, {
    width: data.width, height: data.height, right: 20, bottom: 16 + layout.height,
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
  drawLegend(board, entries, layout, board.origin.y + board.boardHeight + 34);
  return board.svg;
}

/** What each symbol means (only the types of this battle), and how the armies differ besides colour. */
function legendEntries(ctx, types) {
  const seats = ctx.view.seats;
  const shapes = (army, type) => (x, y) => unitShapes(ctx, x, y, army, type, sideColour(army, seats));
  return [
    ...seats.map((army, index) => ({ key: army, text: `${army}: ${index ? "rounded" : "square"} frame`, shapes: shapes(army, null) })),
    ...types.map((type) => ({ key: type, text: type.replace("-", " "), shapes: shapes(seats[0], type) })),
  ];
}

/** A unit's frame, filled in its army's colour (square for the first army, rounded for the others),
 * and its type's symbol in white. */
function unitShapes(ctx, x, y, army, type, colour, opacity = 1, selected = false) {
  const left = x - FRAME.width / 2;
  const top = y - FRAME.height / 2;
  const right = left + FRAME.width;
  const bottom = top + FRAME.height;
  const ink = { stroke: "white", "stroke-width": 2, "stroke-linecap": "round", "pointer-events": "none" };
  const rounded = ctx.view.seats.indexOf(army) > 0;
  const shapes = withSelection(el("rect", { x: left, y: top, width: FRAME.width, height: FRAME.height, rx: rounded ? 10 : 0,
    fill: colour, opacity, stroke: "#111", "stroke-width": 1.5, class: `unit-frame${rounded ? " rounded" : ""}` }), selected);
  const inset = rounded ? 6 : 4;
  for (const part of type ? SYMBOLS[type] || [] : []) {
    if (part === "cross") {
      shapes.push(el("line", { x1: left + inset, y1: top + inset, x2: right - inset, y2: bottom - inset, ...ink }),
        el("line", { x1: left + inset, y1: bottom - inset, x2: right - inset, y2: top + inset, ...ink }));
    } else if (part === "slash") {
      shapes.push(el("line", { x1: left + inset, y1: bottom - inset, x2: right - inset, y2: top + inset, ...ink }));
    } else if (part === "disc") {
      shapes.push(el("circle", { cx: x, cy: y, r: 4.5, fill: "white", "pointer-events": "none" }));
    } else if (part === "bar") {
      shapes.push(el("line", { x1: left + inset, y1: y, x2: right - inset, y2: y, ...ink }));
    } else {
      const at = { heavy: bottom - 3, guard: top + 3, guard2: top + 7.5 }[part];
      shapes.push(el("line", { x1: left + inset, y1: at, x2: right - inset, y2: at, ...ink, "stroke-width": 3.5 }));
    }
  }
  if (type && !SYMBOLS[type]) shapes.push(el("text", { x, y: y + 5, class: "piece-label" }, type.slice(0, 2)));
  return shapes;
}

function unitToken(ctx, board, unit, colour, opacity = 1) {
  const { x, y } = board.center(unit.square);
  const selected = unit.id && ctx.selected === unit.id;
  const shapes = [...unitShapes(ctx, x, y, unit.army, unit.type, colour, opacity, selected),
    el("title", {}, `${unit.id || "hidden"}: ${unit.army} ${unit.type} on ${unit.square}`)];
  return pieceGroup(ctx, unit.id, unit.square, ...shapes);
}

/** The board in words (app.js reads it out and lists it): each unit by army, type and square, the
 * units hidden or still to place, the ground (hills, streams, redoubts), the turn and phase. */
export function describe(ctx) {
  const state = ctx.state;
  const { data, hills, sites, built } = fieldOf(state);
  const streams = data.terrain?.obstacles || [];
  const pieces = state.units.map((unit) => {
    const marks = [state.moved?.[unit.id] && "moved this turn", state.attacks?.[unit.id] && `attacking ${state.attacks[unit.id]}`,
      state.supports?.[unit.id] && `supporting the attack on ${state.supports[unit.id]}`].filter(Boolean);
    return { piece: unit.id, name: unit.id.replaceAll("-", " "), side: unit.army, at: unit.square,
      text: `${unit.army} ${unit.type.replace("-", " ")}${marks.length ? `, ${marks.join(", ")}` : ""}` };
  });
  for (const [army, placed] of Object.entries(state.hidden || {})) {
    for (const [square, type] of placed) pieces.push({ piece: null, name: `${army} ${type}`, side: army, at: square, text: `${army} ${type}, placed unseen` });
  }
  for (const [army, left] of Object.entries(state.to_place || {})) {
    const counts = Object.entries(left).filter(([, n]) => n).map(([type, n]) => `${n} ${type}`);
    if (counts.length) pieces.push({ piece: null, name: `${army} to place`, side: army, at: null, text: `${army} still to place: ${counts.join(", ")}` });
  }
  const terrain = (square) => [hills.has(square) && "hill", built.has(square) ? "redoubt" : sites.has(square) && "redoubt site",
    ...streams.filter((edge) => edge.split("|").includes(square)).map((edge) => `stream towards ${edge.split("|").find((s) => s !== square)}`)]
    .filter(Boolean).join(", ") || null;
  const ground = [hills.size && `hills on ${[...hills].join(" ")}`, streams.length && `streams between ${streams.map((e) => e.replace("|", " and ")).join("; ")}`,
    sites.size && `redoubt sites on ${[...sites].join(" ")}`].filter(Boolean);
  return {
    pieces,
    terrain,
    notes: [`Turn ${state.turn}: ${state.active} to ${state.phase}. The field is ${data.width} by ${data.height} squares` +
      `${ground.length ? `; ${ground.join("; ")}` : ""}.`],
  };
}
