// Pirate Chess: the torus board with its harbour (the centre four squares), both fleets with their
// anchors, the reserves still to place, lost ships, a steering wheel for the side to move, and a
// foghorn when the turn passes.
import { el, gridBoard, parseSquare, pieceGroup, sideColour } from "../board.js";

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
  const board = gridBoard(ctx, {
    width: size, height: size, right: 120, bottom: 40 * fleets.length + 10,
    fill: (square, x, y) => (harbour(square) ? "#d6c08d" : (x + y) % 2 ? "#8fc1e3" : "#6aa6d1"),
  });
  for (const fleet of fleets) {
    const colour = sideColour(fleet, ctx.view.seats);
    for (const ship of state.fleets[fleet].ships) {
      if (!ship.square) continue;
      const { x, y } = board.center(ship.square);
      board.layers.pieces.append(shipToken(ctx, fleet === ctx.seat ? ship.id : null, ship, x, y, colour, ship.square));
    }
  }
  fleets.forEach((fleet, row) => {
    const colour = sideColour(fleet, ctx.view.seats);
    const y = board.origin.y + board.boardHeight + 40 + row * 40;
    board.layers.extras.append(el("text", { x: board.origin.x, y: y + 5, class: "tray-label", "text-anchor": "start" },
      `${fleet}:`));
    let x = board.origin.x + 60;
    for (const ship of state.fleets[fleet].ships.filter((s) => !s.square)) {
      board.layers.pieces.append(shipToken(ctx, fleet === ctx.seat ? ship.id : null, ship, x, y, colour, null, 0.75));
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
  return board.svg;
}

function symbol(id) {
  return id.replace(/\d+$/, "").slice(0, 2);
}

function shipToken(ctx, selectable, ship, x, y, colour, square, scale = 1) {
  const radius = 19 * scale;
  const shapes = [
    el("circle", { cx: x, cy: y, r: radius, fill: colour, stroke: ctx.selected && ctx.selected === selectable ? "#facc15" : "#111",
      "stroke-width": ctx.selected && ctx.selected === selectable ? 4 : 1.5 }),
    el("text", { x, y: y + 5 * scale, class: "piece-label" }, symbol(ship.id)),
    el("title", {}, `${ship.id}${ship.anchored ? " (at anchor)" : ""}${square ? "" : " (in reserve)"}`),
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
