// Pirate Chess: the torus board with its harbour (the centre four squares), both fleets with their
// anchors, the reserves still to place, lost ships, a steering wheel for the side to move, and a
// foghorn when the turn passes.
import { drawLegend, el, gridBoard, legendLayout, parseSquare, pieceGroup, sideColour, squareName, withSelection } from "../board.js";

export const hasSound = true;

export function draw(ctx) {
  const state = ctx.state;
  const size = state.options.size;
  const middle = Math.floor(size / 2);
  const harbour = (square) => {
    const { x, y } = parseSquare(square);
    return [middle - 1, middle].includes(x) && [middle - 1, middle].includes(y);
  };
  const fleets = Object.keys(state.fleets);
  const kinds = [...new Set(fleets.flatMap((fleet) => [...state.fleets[fleet].ships.map((ship) => kindOf(ship.id)),
    ...(state.fleets[fleet].lost || []).map((lost) => kindOf(typeof lost === "string" ? lost : lost.id))]))]
    .sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b));
  const entries = legendEntries(ctx, fleets, kinds);
  const layout = legendLayout(entries.length, size * 56 + 120, 140, 44);
  const board = gridBoard(ctx, {
    width: size, height: size, right: 120, bottom: 40 * fleets.length + 10 + layout.height,
    fill: (square, x, y) => (harbour(square) ? "#d6c08d" : (x + y) % 2 ? "#8fc1e3" : "#6aa6d1"),
  });
  for (const fleet of fleets) {
    const colour = sideColour(fleet, ctx.view.seats);
    for (const ship of state.fleets[fleet].ships) {
      if (!ship.square) continue;
      const { x, y } = board.center(ship.square);
      board.layers.pieces.append(shipToken(ctx, fleet === ctx.seat ? ship.id : null, ship, x, y, colour, ship.square, 1, fleet));
    }
  }
  fleets.forEach((fleet, row) => {
    const colour = sideColour(fleet, ctx.view.seats);
    const y = board.origin.y + board.boardHeight + 40 + row * 40;
    board.layers.extras.append(el("text", { x: board.origin.x, y: y + 5, class: "tray-label", "text-anchor": "start" },
      `${fleet}:`));
    let x = board.origin.x + 60;
    for (const ship of state.fleets[fleet].ships.filter((s) => !s.square)) {
      board.layers.pieces.append(shipToken(ctx, fleet === ctx.seat ? ship.id : null, ship, x, y, colour, null, 0.75, fleet));
      x += 36;
    }
    for (const lost of state.fleets[fleet].lost || []) {
      const name = typeof lost === "string" ? lost : lost.id;
      board.layers.extras.append(el("text", { x, y: y + 5, class: "lost-ship" }, `✕${symbol(name)}`));
      x += 36;
    }
  });
  steeringWheel(board, state.to_move, sideColour(state.to_move, ctx.view.seats),
    board.origin.x + board.boardWidth + 60, board.origin.y + 60);
  drawLegend(board, entries, layout, board.origin.y + board.boardHeight + 40 * fleets.length + 40);
  return board.svg;
}

const KIND_ORDER = ["Frigate", "Pirate", "Barque", "Schooner", "Brig", "Caravel", "Junk", "Dhow"];

/** A ship's kind from its name (an upgraded ship is numbered: Frigate2). */
function kindOf(id) {
  return id.replace(/\d+$/, "");
}

function symbol(id) {
  return kindOf(id).slice(0, 2);
}

/** Each kind's rig and the sides' hulls, for the kinds in this game. */
function legendEntries(ctx, fleets, kinds) {
  const shapes = (fleet, kind) => (x, y) => shipShapes(ctx, kind, fleet, x, y, sideColour(fleet, ctx.view.seats), 0.8);
  return [
    ...fleets.map((fleet, index) => ({ key: fleet, text: `${fleet}: ${index ? "striped" : "plain"} hull`, shapes: shapes(fleet, null) })),
    ...kinds.map((kind) => ({ key: kind, text: kind, shapes: shapes(fleets[0], kind) })),
  ];
}

// Each kind its own rig, drawn over a hull in the side's colour (the second side's hull striped,
// so colour is not the only difference): the Frigate three masts of square sails, the Pirate one
// great square sail under a black flag, the Barque square-rigged with a fore-and-aft mizzen, the
// Schooner two fore-and-aft sails, the Brig two masts of square sails, the Caravel two lateen
// sails, the Junk two battened sails, the Dhow one great lateen sail.
const RIGS = {
  Frigate: [["square2", -10, 4], ["square2", 0, 4], ["square2", 10, 4]],
  Pirate: [["square", 0, 9], ["flag", 0]],
  Barque: [["square2", -10, 4], ["square2", 0, 4], ["gaff", 9]],
  Schooner: [["gaff", -8], ["gaff", 4]],
  Brig: [["square2", -7, 5], ["square2", 7, 5]],
  Caravel: [["lateen", -6, 0.7], ["lateen", 8, 0.7]],
  Junk: [["batten", -7], ["batten", 7]],
  Dhow: [["lateen", 2, 1]],
};

function shipShapes(ctx, kind, fleet, x, y, colour, scale = 1, selected = false) {
  const at = (dx, dy) => `${x + dx * scale},${y + dy * scale}`;
  const line = "#111";
  const sail = { fill: "#f8fafc", stroke: line, "stroke-width": 1, "pointer-events": "none" };
  const shapes = withSelection(el("path", { d: `M${at(-18, 6)} L${at(18, 6)} L${at(12, 16)} L${at(-12, 16)} Z`, fill: colour,
    stroke: line, "stroke-width": 1.5, class: "hull" }), selected);
  if (ctx.view.seats.indexOf(fleet) > 0) {
    shapes.push(el("line", { x1: x - 15 * scale, y1: y + 11 * scale, x2: x + 15 * scale, y2: y + 11 * scale,
      stroke: "white", "stroke-width": 2.5 * scale, "pointer-events": "none", class: "hull-stripe" }));
  }
  for (const [part, mast, size] of kind ? RIGS[kind] || [] : []) {
    if (part !== "flag") {
      shapes.push(el("line", { x1: x + mast * scale, y1: y + 6 * scale, x2: x + mast * scale, y2: y - 19 * scale,
        stroke: line, "stroke-width": 1.5, "pointer-events": "none" }));
    }
    const m = mast;
    if (part === "square") {
      shapes.push(el("path", { d: `M${at(m - size, -15)} L${at(m + size, -15)} L${at(m + size, 3)} L${at(m - size, 3)} Z`, ...sail }));
    } else if (part === "square2") {
      for (const [top, bottom] of [[-17, -8], [-6, 3]]) {
        shapes.push(el("path", { d: `M${at(m - size, top)} L${at(m + size, top)} L${at(m + size, bottom)} L${at(m - size, bottom)} Z`, ...sail }));
      }
    } else if (part === "gaff") {
      shapes.push(el("path", { d: `M${at(m, -17)} L${at(m + 9, -9)} L${at(m + 10, 3)} L${at(m, 3)} Z`, ...sail }));
    } else if (part === "lateen") {
      shapes.push(el("path", { d: `M${at(m + 12 * size, -19)} L${at(m - 14 * size, 3)} L${at(m + 9 * size, 3)} Z`, ...sail }));
    } else if (part === "batten") {
      shapes.push(el("path", { d: `M${at(m - 6, -16)} L${at(m + 6, -16)} L${at(m + 6, 3)} L${at(m - 6, 3)} Z`, ...sail }));
      for (const batten of [-11, -6, -1]) {
        shapes.push(el("line", { x1: x + (m - 6) * scale, y1: y + batten * scale, x2: x + (m + 6) * scale, y2: y + batten * scale,
          stroke: line, "stroke-width": 1, "pointer-events": "none" }));
      }
    } else if (part === "flag") {
      shapes.push(el("path", { d: `M${at(m, -19)} L${at(m + 10, -19)} L${at(m + 10, -13)} L${at(m, -13)} Z`, fill: "#111",
        "pointer-events": "none", class: "black-flag" }));
    }
  }
  if (kind && !RIGS[kind]) shapes.push(el("text", { x, y: y - 2, class: "piece-label" }, symbol(kind)));
  return shapes;
}

function shipToken(ctx, selectable, ship, x, y, colour, square, scale = 1, fleet = null) {
  const radius = 19 * scale;
  const selected = Boolean(ctx.selected && ctx.selected === selectable);
  // A clear disc behind the rig: the whole square's worth of ship answers a click, not just its lines.
  const shapes = [el("circle", { cx: x, cy: y, r: radius, fill: "transparent" }),
    ...shipShapes(ctx, kindOf(ship.id), fleet, x, y, colour, scale, selected),
    el("title", {}, `${ship.id}, ${fleet}${ship.anchored ? " (at anchor)" : ""}${square ? ` on ${square}` : " (in reserve)"}`),
  ];
  if (ship.anchored) shapes.push(el("text", { x: x + radius * 0.8, y: y - radius * 0.6, class: "anchor-mark" }, "⚓"));
  if (selectable) return pieceGroup(ctx, selectable, square, ...shapes);
  const group = el("g", { class: "piece", "data-square": square || "" }, ...shapes);
  if (square) group.addEventListener("click", () => ctx.clickSquare(square));
  return group;
}

function steeringWheel(board, side, colour, cx, cy) {
  const group = el("g", { class: "steering-wheel", "aria-label": `${side} to move` });
  for (let spoke = 0; spoke < 8; spoke++) {
    const angle = spoke * Math.PI / 4;
    group.append(el("line", { x1: cx, y1: cy, x2: cx + Math.cos(angle) * 44, y2: cy + Math.sin(angle) * 44,
      stroke: "#78350f", "stroke-width": 5, "stroke-linecap": "round" }));
  }
  group.append(el("circle", { cx, cy, r: 32, fill: "none", stroke: "#78350f", "stroke-width": 7 }));
  group.append(el("circle", { cx, cy, r: 12, fill: colour, stroke: "#78350f", "stroke-width": 3 }));
  group.append(el("text", { x: cx, y: cy + 66, class: "side-note" }, `${side} to move`));
  board.layers.extras.append(group);
}

/** The foghorn: a low, swelling tone made on the spot (no sound files to load). */
export function onTurnPassed() {
  const AudioContext = window.AudioContext || window.webkitAudioContext;
  if (!AudioContext) return;
  const audio = new AudioContext();
  const horn = audio.createOscillator();
  const gain = audio.createGain();
  horn.type = "sawtooth";
  horn.frequency.value = 92;
  gain.gain.setValueAtTime(0.0001, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + 0.25);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 1.4);
  horn.connect(gain).connect(audio.destination);
  horn.start();
  horn.stop(audio.currentTime + 1.5);
  horn.onended = () => audio.close();
}

/** The board in words (app.js reads it out and lists it): each ship with its square, side and anchor,
 * the reserves still to place, the ships lost, the harbour's four squares. */
export function describe(ctx) {
  const state = ctx.state;
  const size = state.options.size;
  const middle = Math.floor(size / 2);
  const harbour = [middle - 1, middle].flatMap((x) => [middle - 1, middle].map((y) => squareName(x, y)));
  const pieces = [];
  for (const [fleet, { ships, lost }] of Object.entries(state.fleets)) {
    for (const ship of ships) {
      pieces.push({ piece: ship.id, name: ship.id, side: fleet, at: ship.square,
        text: `${ship.id}, ${fleet}${ship.square ? (ship.anchored ? ", at anchor" : "") : ", in reserve (to place)"}` });
    }
    if (lost?.length) {
      pieces.push({ piece: null, name: `${fleet} lost`, side: fleet, at: null,
        text: `${fleet} has lost ${lost.map((l) => (typeof l === "string" ? l : l.id)).join(", ")}` });
    }
  }
  return {
    pieces,
    terrain: (square) => (harbour.includes(square) ? "harbour" : null),
    notes: [`${state.to_move} to move. The sea is ${size} by ${size} squares and wraps round at every edge; ` +
      `the harbour is ${harbour.join(" ")}.`],
  };
}
