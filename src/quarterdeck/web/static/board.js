// Shared SVG helpers for the per-game drawing modules: a square grid with algebraic names
// (files a.., ranks 1.. from the bottom), highlights, a keyboard cursor and small glyphs.
// A drawing module only draws; every rule stays on the server.

export const SVG_NS = "http://www.w3.org/2000/svg";

export const COLOURS = {
  blue: "#1d4ed8", red: "#b91c1c", black: "#1f2937", white: "#f8fafc", green: "#15803d",
  yellow: "#ca8a04", purple: "#7e22ce", orange: "#c2410c",
};
const FALLBACK = ["#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#c2410c", "#0f766e"];

/** The colour of a side: by its name when it names a colour, else by its place among the seats. */
export function sideColour(side, seats = []) {
  if (COLOURS[side]) return COLOURS[side];
  const index = Math.max(0, seats.indexOf(side));
  return FALLBACK[index % FALLBACK.length];
}

/** A result as a player says it: "dutch won", "a draw" (`result` is the winner or "draw"). */
export function resultWords(result) {
  return result === "draw" ? "a draw" : `${result} won`;
}

/** The end of a game as the board's bridge says it: "Game over: dutch won (nightfall ...)". */
export function gameOverText(outcome) {
  return `Game over: ${resultWords(outcome.result)} (${outcome.reason})`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** An HTML element, for the parts of a drawing outside the SVG (panels, forms, tables): `on...`
 * attributes become listeners; children may be nested arrays; null, undefined and false are left out. */
export function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function parseSquare(name) {
  const match = /^([a-z])(\d+)$/.exec(name || "");
  return match ? { x: match[1].charCodeAt(0) - 97, y: Number(match[2]) - 1 } : null;
}

export function squareName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

/** Expand "a2:h3" rectangles and plain names into square names. */
export function expandSquares(items) {
  const squares = [];
  for (const item of items || []) {
    const [from, to] = String(item).split(":");
    const a = parseSquare(from);
    const b = parseSquare(to || from);
    if (!a || !b) continue;
    for (let x = Math.min(a.x, b.x); x <= Math.max(a.x, b.x); x++) {
      for (let y = Math.min(a.y, b.y); y <= Math.max(a.y, b.y); y++) squares.push(squareName(x, y));
    }
  }
  return squares;
}

export const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
export function compassAngle(point) {
  return COMPASS.indexOf(point) * 45;
}

/**
 * A grid board. `ctx` is what the app hands every drawing module (targets, selection, cursor,
 * last move, clickSquare); `fill(square, x, y)` colours a square. Returns the svg, layers to
 * draw into, `center(square)` and `angle(point)` (a compass point's angle on screen). Margins
 * leave room for extras such as a wind rose. With `ctx.flipped` the board is turned half round
 * (the second seat's side at the bottom): squares, coordinates and compass angles all follow.
 */
export function gridBoard(ctx, { width, height, fill, cell = 56, right = 0, bottom = 0, top = 0, squareOf = () => null }) {
  const margin = 22;
  const boardWidth = width * cell;
  const boardHeight = height * cell;
  const svg = el("svg", {
    viewBox: `0 0 ${boardWidth + 2 * margin + right} ${boardHeight + 2 * margin + bottom + top}`,
    class: "board-svg", role: "img",
    "aria-label": `the board, ${width} by ${height} squares: read square by square with the cursor, or as a list in “The board in words”`,
  });
  const origin = { x: margin, y: margin + top };
  const layers = {};
  // Target markers go above the pieces: the moves that matter most (captures, fire, attacks) end on
  // a square where a piece stands.
  for (const name of ["terrain", "marks", "lines", "pieces", "targets", "overlay", "extras"]) {
    layers[name] = el("g", { class: `layer-${name}` });
    svg.append(layers[name]);
  }
  const flipped = Boolean(ctx.flipped);
  const center = (name) => {
    const square = parseSquare(name);
    if (!square) return null;
    const column = flipped ? width - 1 - square.x : square.x;
    const row = flipped ? square.y : height - 1 - square.y;
    return { x: origin.x + column * cell + cell / 2, y: origin.y + row * cell + cell / 2 };
  };
  const angle = (point) => compassAngle(point) + (flipped ? 180 : 0);
  ctx.setGrid?.(width, height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const name = squareName(x, y);
      const { x: cx, y: cy } = center(name);
      const rect = el("rect", {
        x: cx - cell / 2, y: cy - cell / 2, width: cell, height: cell,
        fill: fill(name, x, y), stroke: "rgba(0,0,0,0.18)", "data-square": name, class: "square",
      });
      rect.addEventListener("click", () => ctx.clickSquare(name));
      layers.terrain.append(rect);
      if (ctx.lastSquares?.has(name)) {
        // A dark dashed frame (at least 3:1 against every square colour), not a pale tint alone.
        layers.marks.append(el("rect", { x: cx - cell / 2 + 3, y: cy - cell / 2 + 3, width: cell - 6, height: cell - 6,
          fill: "rgba(250, 204, 21, 0.3)", stroke: "#78350f", "stroke-width": 3, "stroke-dasharray": "7 4",
          "pointer-events": "none", class: "last-square", "data-last": name }));
      }
      if (ctx.targets?.has(name)) layers.targets.append(targetRing(name, cx, cy, cell, ctx.targetColour));
      if (ctx.cursor === name) {
        layers.overlay.append(el("rect", {
          x: cx - cell / 2 + 2, y: cy - cell / 2 + 2, width: cell - 4, height: cell - 4,
          fill: "none", stroke: "#0f172a", "stroke-width": 4, "pointer-events": "none", class: "cursor",
        }), el("rect", { // black with a white line inside: seen on light and dark squares alike
          x: cx - cell / 2 + 5, y: cy - cell / 2 + 5, width: cell - 10, height: cell - 10,
          fill: "none", stroke: "white", "stroke-width": 2, "pointer-events": "none",
        }));
      }
    }
  }
  for (let x = 0; x < width; x++) {
    const { x: cx } = center(squareName(x, 0));
    layers.extras.append(el("text", { x: cx, y: origin.y + boardHeight + 15, class: "coord" },
      String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < height; y++) {
    const { y: cy } = center(squareName(0, y));
    layers.extras.append(el("text", { x: margin / 2, y: cy + 4, class: "coord" }, String(y + 1)));
  }
  const board = { svg, layers, center, angle, cell, origin, boardWidth, boardHeight, margin };
  turnTrail(board, ctx.turnEvents, (name) => (parseSquare(name) ? name : squareOf(name)));
  return board;
}

// The last turn's trail: moves in amber, fire and attacks in red, supports dashed blue.
const TRAIL = { moved: "#b45309", fired: "#b91c1c", attacked: "#b91c1c", supported: "#1d4ed8" };

/** The whole last turn on the board (every move's path, every fire, attack and support line), so
 * the opponent's turn can be read at a glance until the next one starts. `at(name)` is a piece's
 * square (or the square itself). */
function turnTrail(board, events, at) {
  for (const event of events || []) {
    const colour = TRAIL[event.kind];
    if (!colour) continue;
    const moved = event.kind === "moved";
    const from = moved ? event.origin : at(event.piece);
    const to = moved ? event.destination : at(event.target);
    if (!from || !to || from === to) continue;
    const drawn = arrow(board, from, to, { colour, width: 2.5, dashed: event.kind === "supported" || moved });
    drawn.classList.add("last-turn");
    drawn.setAttribute("data-trail", moved ? `moved ${event.piece}` : `${event.kind} ${event.piece}>${event.target}`);
    drawn.append(el("title", {}, event.text || event.kind));
    board.layers.lines.append(drawn);
  }
}

/** A legal end square's marker: a ring (a white halo under a coloured line) that leaves the piece
 * inside it visible and lets clicks through to the square, the way lichess marks captures. */
function targetRing(square, cx, cy, cell, colour = "#14532d") { // dark green: >= 3:1 on every square colour
  const r = cell * 0.42;
  return el("g", { class: "target-ring", "pointer-events": "none" },
    el("circle", { cx, cy, r, fill: "none", stroke: "white", "stroke-width": 7, opacity: 0.8 }),
    el("circle", { cx, cy, r, fill: "none", stroke: colour, "stroke-width": 4, class: "target", "data-target": square }));
}

/** A piece's outline, chosen or not: when `selected`, `shape` is stroked yellow on its edge over a copy of
 * it drawn first with a wider dark line, so a dark line shows outside the yellow one. The dark line stands
 * 3:1 or more against every square, hex and sea colour (yellow alone: 1.0-1.3:1), the yellow 11:1 against
 * the dark line (tests/web/test_browser_a11y.py measures both). */
export function withSelection(shape, selected) {
  if (!selected) return [shape];
  shape.setAttribute("stroke", "#facc15");
  shape.setAttribute("stroke-width", 4);
  shape.removeAttribute("stroke-dasharray");
  const halo = shape.cloneNode(false);
  halo.removeAttribute("opacity");
  for (const [name, value] of Object.entries({ class: "selection-halo", fill: "none", stroke: "#0f172a", "stroke-width": 8,
    "pointer-events": "none" })) halo.setAttribute(name, value);
  return [halo, shape];
}

/** A piece that selects itself when clicked, glowing when selected. */
export function pieceGroup(ctx, piece, square, ...shapes) {
  const group = el("g", {
    class: "piece" + (ctx.selected === piece ? " selected" : ""),
    "data-piece": piece, "data-square": square || "",
  }, ...shapes);
  group.addEventListener("click", (event) => {
    event.stopPropagation();
    if (square) ctx.clickSquare(square, piece);
    else ctx.select(piece);
  });
  return group;
}

/** An arrow between two squares' centres; its label sits at the middle, or `aside` pixels off to
 * the arrow's left (so labels of crossing arrows and of nearby squares keep clear of each other). */
export function arrow(board, from, to, { colour = "#111", dashed = false, label = null, width = 3, aside = 0 } = {}) {
  const a = board.center(from);
  const b = board.center(to);
  if (!a || !b) return el("g");
  const id = `arrow-${colour.replace(/[^a-z0-9]/gi, "")}`;
  const group = el("g", { class: "arrow", "pointer-events": "none" });
  group.append(el("defs", {}, el("marker", {
    id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse",
  }, el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }))));
  group.append(el("line", {
    x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour, "stroke-width": width,
    "stroke-dasharray": dashed ? "6 4" : null, "marker-end": `url(#${id})`, opacity: 0.85,
  }));
  if (label) {
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const [nx, ny] = [(b.y - a.y) / length, -(b.x - a.x) / length]; // the arrow's left
    group.append(el("text", {
      x: (a.x + b.x) / 2 + nx * aside, y: (a.y + b.y) / 2 + ny * aside - (aside ? -4 : 6), class: "arrow-label",
    }, label));
  }
  return group;
}

/** The history as turns: runs of one seat's moves within one turn of the game, the throws of the dice
 * joining the run they follow. Each run's `number` is the game's own turn as its events announce it
 * ("turn 3: red to move"), so that the list agrees with the game's header where both sides move in
 * one turn (Naval Warfare's moves, Frigate's game-turns); a game that announces none has its runs
 * counted. */
export function turnsOf(history) {
  const turns = [];
  let announced = null;
  for (const entry of history || []) {
    const last = turns[turns.length - 1];
    if (last && (entry.seat === "chance" || (entry.seat === last.seat && announced === last.number))) {
      last.entries.push(entry);
    } else {
      turns.push({ seat: entry.seat, entries: [entry], number: announced });
    }
    for (const event of entry.events || []) {
      if (event.kind !== "phase-changed") continue;
      if (announced === null) { // the runs before the game's first word on its turns are its first turn
        for (const turn of turns) turn.number = Math.min(event.turn, 1);
      }
      announced = event.turn;
    }
  }
  if (announced === null) turns.forEach((turn, index) => { turn.number = index + 1; });
  return turns;
}

/** Squares the last move touched, from its events (for the "last move" highlight). */
export function eventSquares(events) {
  const squares = new Set();
  for (const event of events || []) {
    for (const key of ["origin", "destination", "square"]) {
      if (typeof event[key] === "string" && parseSquare(event[key])) squares.add(event[key]);
    }
  }
  return squares;
}

/**
 * A piece that is clicked or dragged: a press that moves less than `slop` pixels is a click; past
 * that, `start(event)` (return false to refuse the drag), then `move(event)` while the pointer moves
 * and `drop(event)` where it is let go. The click the browser sends after a drag is swallowed.
 */
export function clickOrDrag(node, { click, start = () => true, move = () => {}, drop, slop = 8 }) {
  let press = null;
  let dragged = false;
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    press = { x: event.clientX, y: event.clientY, moving: false };
    dragged = false;
    node.setPointerCapture?.(event.pointerId);
  });
  node.addEventListener("pointermove", (event) => {
    if (!press) return;
    if (!press.moving) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < slop) return;
      if (start(event) === false) {
        press = null;
        return;
      }
      press.moving = true;
    }
    move(event);
  });
  node.addEventListener("pointerup", (event) => {
    const moving = press?.moving;
    press = null;
    if (!moving) return;
    dragged = true;
    drop(event);
  });
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    if (dragged) {
      dragged = false;
      return;
    }
    click(event);
  });
}

/** How a legend of `count` entries lies under a board `width` wide: entries per row and the height. */
export function legendLayout(count, width, entryWidth, rowHeight) {
  const perRow = Math.max(1, Math.floor(width / entryWidth));
  return { perRow, entryWidth, rowHeight, height: Math.ceil(count / perRow) * rowHeight };
}

/** A legend from its `top` down: each entry its drawing (`shapes(x, y)`, centred on the point) and its
 * words beside it, marked `data-legend` with its key, in the rows `legendLayout` worked out. */
export function drawLegend(board, entries, { perRow, entryWidth, rowHeight }, top, indent = 20) {
  const group = el("g", { class: "legend", "aria-label": "legend" });
  entries.forEach((entry, index) => {
    const x = board.origin.x + (index % perRow) * entryWidth + indent;
    const y = top + Math.floor(index / perRow) * rowHeight;
    group.append(...entry.shapes(x, y), el("text", { x: x + indent + 4, y: y + 4, class: "tray-label",
      style: "text-anchor: start", "data-legend": entry.key }, entry.text));
  });
  board.layers.extras.append(group);
}
