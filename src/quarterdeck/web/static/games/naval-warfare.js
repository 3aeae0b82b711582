// Rules for Naval Warfare 1500-1850 (seed 003): the table to scale, its land and shoals, each ship a
// hull pointing her heading (the first side solid with a round badge, the second striped with a
// diamond, so colour is never the only mark), her name and flotation and crew bars; above the table
// the wind pointer and strength, the clock, the moves left and the throws since the last decision;
// under it the helm of the chosen ship and every ship's damage.
//
// Everything legal comes from the server: the actions it lists for this seat, the state's JSON
// (games/naval_warfare/state.py describes every field) and the board notes the rules measure
// (games/naval_warfare/__init__.py, board_notes: how far each moving ship can run on each heading
// her turn and the wind allow, and what her broadsides and keel lines bear on). A move is dragged
// from the ship to a point (or the point clicked, or typed as turn, run, turn), its end heading set by
// dragging the ghost's bow round, the mouse wheel over it or the end-turn field; the page writes the
// book's notation (`move Revenge turn +30 run 5.00 turn -15`) and plans it, and the server accepts
// it or names the rule it breaks. Under the "by eye" option no area, fan, bearing or grid is drawn.
import { el, gameOverText, html, sideColour } from "../board.js";

const MOUNTS = ["port", "starboard", "ahead", "astern"];
const FAN_TAN = Math.tan((15 * Math.PI) / 180); // rule 10: 15 degrees either side of the beam
const REACH = 16; // inches: the longest range band (a long battery's long range)
const MARGIN = 4; // inches of sea shown round the ships
const EDGE = 2.5; // inches drawn beyond the table's edges, so that a hull lying across one is seen whole, and her name
const LEAST = { width: 18, height: 10 }; // the smallest piece of table the ships' view shows
const MIN_SCALE = 14; // pixels an inch: a 1-inch Armada hull stays a hull you can see and grip
const ZOOMS = [1, 1.5, 2, 3];
const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const MARKS = ["round badge", "diamond badge"];

// Kept from one redraw to the next (the app redraws the page on every update).
const view = { zoom: 0, whole: false, game: null, corner: null }; // corner: the table point at the scrolled top left
let draft = null; // the move being built: {game, ship, from: [x, y, heading], turn1, run, turn2, extra}
let restoreFocus = null; // a selector for the ship or button whose keyboard focus a redraw gives back
// A drag round the ghost ends in a click, which is not a click on the sea; the next press on the table
// starts a new gesture, so only that one click is set aside, however soon the player clicks again.
let turnEndsInClick = false;
let scene = null; // what the last drawing drew: {ctx, frame, svg, aids, root}, for handlers that redraw a part

// --- small helpers -----------------------------------------------------------------------------------
const rad = (degrees) => (degrees * Math.PI) / 180;
const mod360 = (degrees) => ((degrees % 360) + 360) % 360;
const inches = (value) => Number(value).toFixed(2);
const signed = (degrees) => `${degrees < 0 ? "-" : "+"}${Math.abs(degrees)}`;
const compass = (degrees) => COMPASS[Math.round(mod360(degrees) / 45) % 8];

/** The turn from one heading to another, -180 < turn <= 180, + to starboard (core/plane.py signed_turn). */
function signedTurn(start, end) {
  const d = mod360(end - start);
  return d > 180 ? d - 360 : d;
}

/** A heading's unit vector on the table (x east, y north). */
function ahead(heading) {
  return [Math.sin(rad(heading)), Math.cos(rad(heading))];
}

function advance([x, y], heading, distance) {
  const [dx, dy] = ahead(heading);
  return [x + dx * distance, y + dy * distance];
}

function bearingTo([x1, y1], [x2, y2]) {
  return mod360((Math.atan2(x2 - x1, y2 - y1) * 180) / Math.PI);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// On the table (state.py, in_play): afloat, surrendered, a prize, or an abandoned galley rowed for the beach.
const inPlay = (ship) => ship.in_play;
const LOST = ["sunk", "wrecked", "blown-up", "foundered", "taken", "abandoned", "beached"];

function legalGroups(ctx) {
  return ctx.seat ? ctx.view.legal?.[ctx.seat] || [] : [];
}

function legalOf(ctx, name) {
  return legalGroups(ctx).find((group) => group.piece === name)?.actions.map((a) => a.text) || [];
}

/** Whether the server offers this seat a move for the ship now (the page then lets her be steered). */
function mayMove(ctx, name) {
  return legalOf(ctx, name).some((text) => text.startsWith(`move ${name} `));
}

// --- words -------------------------------------------------------------------------------------------
/** Batteries by mount, e.g. "port 2 medium 3 long, ahead 1 half long". */
function batteryText(ship) {
  const parts = [];
  for (const mount of MOUNTS) {
    const counts = new Map();
    for (const b of ship.batteries.filter((b) => b.mount === mount)) {
      const key = `${b.half ? "half " : ""}${b.kind}`;
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    if (counts.size) parts.push(`${mount} ${[...counts].map(([key, n]) => `${n} ${key}`).join(" ")}`);
  }
  return parts.join(", ") || "no batteries";
}

const DAMAGE = ["", "quarter damaged", "half damaged", "three-quarters damaged"];

function markers(state, ship) {
  const bits = [];
  if (ship.status === "surrendered") bits.push("surrendered");
  if (ship.status === "rowing") bits.push("abandoned: her slaves row her for the beach (optional rule 4)");
  if (ship.on_fire) bits.push("on fire");
  if (ship.grappled) bits.push(`grappled to ${ship.grappled}`);
  if (ship.grappled && ship.gunners) bits.push(`${ship.gunners} ${ship.gunners === 1 ? "man" : "men"} at her guns`);
  if (ship.irons) bits.push("in irons");
  if (ship.adrift) bits.push("adrift");
  if (ship.heave_to) bits.push("hove to");
  if (ship.oars) bits.push("under oars");
  if (ship.tow) bits.push(ship.towing ? `towing ${ship.tow}` : `towed by ${ship.tow}`);
  if (ship.dishonoured) bits.push("dishonoured");
  if (ship.captor >= 0 && ship.captor !== ship.side) bits.push(`prize of ${state.sides[ship.captor]}`);
  return bits;
}

/** Her state in a word, and for a reinforcement still off the table when and where she comes on. */
function statusText(ship) {
  return ship.arrival ? `${ship.status}: ${ship.arrival}` : ship.status;
}

function describeShip(state, ship) {
  const side = state.sides[ship.side];
  const kind = ship.guns ? `${ship.guns}-gun ${ship.type}` : `${ship.description || ship.type}`;
  const where = inPlay(ship)
    ? `at ${inches(ship.x)}, ${inches(ship.y)} heading ${ship.heading} (${compass(ship.heading)})`
    : statusText(ship);
  const bits = [
    `${ship.name}, ${side} (${MARKS[ship.side]})`, kind, where,
    `flotation ${ship.flotation} of ${ship.flotation_max}${ship.damage ? `, ${DAMAGE[ship.damage]}` : ""}`,
    `crew ${ship.crew} of ${ship.crew_max}`, `batteries ${batteryText(ship)}`, `masts lost ${ship.masts_lost}`,
  ];
  return [...bits, ...markers(state, ship)].join("; ");
}

function limitsText(state, ship) {
  const lim = ship.limits;
  switch (lim.mode) {
    case "sail":
    case "oars": {
      const bits = [`${lim.mode === "oars" ? "under oars" : "under sail"}: turns of up to ${lim.turn}° at the start ` +
        "and the end (rule 4)", `a run of up to ${inches(lim.run_max)} in`];
      if (lim.run_min) bits.push(`at least ${inches(lim.run_min)} in unless stopped by contact (rule 2)`);
      if (lim.wind !== null) bits.push(`not closer than ${lim.wind}° to the wind (rule 2)`);
      return bits.join("; ");
    }
    case "turn": return `one turn of up to ${lim.turn}° and no run (${state.wind.strength_name})`;
    case "grappled": return "grappled: she may hold, cut the grapples or board (rule 12)";
    case "surrendered": return "surrendered: she may hold, or dishonour her surrender (optional rule 6)";
    case "towed": return `under tow: ${ship.tow} moves her; she may hold, or cast off first (optional rule 3)`;
    default: return ship.moved ? "she has made her move" : `she ${lim.why || "does not move this move"}`;
  }
}

function phaseText(state) {
  if (state.outcome) return gameOverText(state.outcome);
  const [what, kind, player] = state.agenda[0] || [];
  if (what === "roll") return `Throwing for ${kind}`;
  const who = state.sides[player];
  return {
    move: `${who} moves ${who === state.sides[state.first] ? "first" : "second"}`,
    fire: `${who} fires`,
    damage: `${who} removes the batteries struck by sixes (rule 11)`,
    end: `End of the move: ${who}`,
    withdraw: `${who}'s boarders withdraw or fight on (rule 12)`,
    repel: `${who} may cut the grapples (rule 12)`,
    founder: `${who}: jettison a battery or founder (optional rule 7)`,
    accept: `${who} accepts or refuses a surrender (optional rule 6)`,
    night: `${who}: escape in the night or stay`,
    gunners: `${who} keeps men at ${state.agenda[0][3]}'s guns; the rest fight the boarders (optional rule 5)`,
  }[kind] || state.phase;
}

// --- the frame: table inches to pixels ------------------------------------------------------------------
/** The board's room beside the side panel (style.css: side by side above 900 px). */
function room() {
  return window.innerWidth > 900 ? window.innerWidth - 440 : window.innerWidth - 50;
}

/** The piece of table drawn (the ships with some sea round them, or the whole table) and its scale. */
function frame(ctx, state) {
  const table = state.table;
  let box = { x0: -EDGE, y0: -EDGE, x1: table.width + EDGE, y1: table.height + EDGE };
  if (!view.whole) {
    const points = [];
    for (const ship of state.ships.filter(inPlay)) {
      points.push([ship.x, ship.y]);
      if (ship.name === ctx.selected) {
        const reach = Math.max(ship.limits.run_max, 1) + ship.length;
        points.push([ship.x - reach, ship.y - reach], [ship.x + reach, ship.y + reach]);
      }
    }
    for (const [x, y] of Object.values(state.survivors || {})) points.push([x, y]);
    if (points.length) {
      const xs = points.map((p) => p[0]);
      const ys = points.map((p) => p[1]);
      box = grow(Math.min(...xs) - MARGIN, Math.max(...xs) + MARGIN, Math.min(...ys) - MARGIN,
        Math.max(...ys) + MARGIN, table);
    }
  }
  // The table fills the room, but never at fewer than MIN_SCALE pixels an inch: on a phone it scrolls instead.
  const scale = Math.max(MIN_SCALE, room() / (box.x1 - box.x0)) * ZOOMS[view.zoom];
  return { ...box, scale, width: Math.ceil((box.x1 - box.x0) * scale), height: Math.ceil((box.y1 - box.y0) * scale) };
}

/** The box round the points, at least LEAST wide and high, moved (not cut) to keep within EDGE of the table. */
function grow(x0, x1, y0, y1, table) {
  const span = (low, high, least, size) => {
    let [a, b] = [Math.floor(low), Math.ceil(high)];
    while (b - a < Math.min(least, size)) { a -= 1; b += 1; }
    const shift = Math.max(0, -EDGE - a) - Math.max(0, b - size - EDGE);
    return [Math.max(-EDGE, a + shift), Math.min(size + EDGE, b + shift)];
  };
  const [a, b] = span(x0, x1, LEAST.width, table.width);
  const [c, d] = span(y0, y1, LEAST.height, table.height);
  return { x0: a, x1: b, y0: c, y1: d };
}

const px = (f, x) => (x - f.x0) * f.scale;
const py = (f, y) => (f.y1 - y) * f.scale;
const pt = (f, [x, y]) => `${px(f, x).toFixed(1)},${py(f, y).toFixed(1)}`;

/** The table point (inches) under the pointer. */
function tableAt(event) {
  const { svg, frame: f } = scene;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  return [f.x0 + at.x / f.scale, f.y1 - at.y / f.scale];
}

// --- the drawing ------------------------------------------------------------------------------------------
export function draw(ctx) {
  const state = ctx.state;
  if (view.game !== ctx.view.id) Object.assign(view, { zoom: 0, whole: false, game: ctx.view.id, corner: null });
  const notes = ctx.notes || {};
  const aids = notes.aids !== false && !state.options?.["by-eye"];
  const f = frame(ctx, state);
  const svg = el("svg", {
    viewBox: `0 0 ${f.width} ${f.height}`, class: "board-svg naval-table", style: `width: ${f.width}px`,
    "data-frame": [f.x0, f.y0, f.x1, f.y1, f.scale].join(" "),
    role: "group", "aria-label": `the table, ${state.table.width} by ${state.table.height} inches; shown from ` +
      `${Math.max(0, f.x0)} to ${Math.min(state.table.width, f.x1)} inches east and ` +
      `${Math.max(0, f.y0)} to ${Math.min(state.table.height, f.y1)} inches north`,
  });
  svg.addEventListener("pointerdown", () => { turnEndsInClick = false; }, { capture: true });
  svg.append(patterns(state));
  const layers = {};
  for (const name of ["sea", "land", "aids", "ships", "draft", "overlay"]) {
    layers[name] = el("g", { class: `layer-${name}` });
    svg.append(layers[name]);
  }
  sea(ctx, f, layers.sea, aids);
  for (const land of state.land) layers.land.append(landShape(f, land));
  const selected = state.ships.find((s) => s.name === ctx.selected && inPlay(s));
  if (selected && aids) {
    layers.aids.append(area(f, state, selected, notes), fans(f, selected, "fans"), bearingLines(f, state, selected, notes));
  }
  links(f, state, layers.ships);
  for (const ship of state.ships.filter((s) => LOST.includes(s.status))) layers.ships.append(wreck(f, ship));
  for (const [name, [x, y, count]] of Object.entries(state.survivors || {})) {
    layers.ships.append(el("g", { class: "survivors", "data-survivors": name },
      el("title", {}, `${count} survivors of ${name} in the water`),
      el("circle", { cx: px(f, x), cy: py(f, y), r: 6, fill: "#fef9c3", stroke: "#854d0e", "stroke-dasharray": "2 2" })));
  }
  for (const ship of state.ships.filter(inPlay)) layers.ships.append(shipGlyph(ctx, f, ship));
  hitLabels(ctx, f, state, layers.overlay);
  const scroller = html("div", { class: "naval-scroll", tabindex: 0, role: "region",
    "aria-label": "the table (scrolls with the arrow keys when it is larger than the screen)" }, svg);
  scroller.addEventListener("scroll", () => {
    view.corner = [f.x0 + scroller.scrollLeft / f.scale, f.y1 - scroller.scrollTop / f.scale];
  });
  queueMicrotask(() => placeView(ctx, scroller, f));
  const root = html("div", { class: "naval" }, bridge(ctx, state), viewControls(), scroller);
  scene = { ctx, frame: f, svg, aids, root };
  root.append(helmPanel(ctx, state, notes, aids), shipTable(state));
  paintDraft();
  if (restoreFocus) {
    const wanted = restoreFocus;
    restoreFocus = null;
    queueMicrotask(() => root.isConnected && root.querySelector(wanted)?.focus());
  }
  return root;
}

/** Where a table wider than the room is scrolled: where it was, and the chosen ship brought into sight. */
function placeView(ctx, scroller, f) {
  if (!scroller.isConnected) return;
  if (view.corner) {
    scroller.scrollLeft = (view.corner[0] - f.x0) * f.scale;
    scroller.scrollTop = (f.y1 - view.corner[1]) * f.scale;
  }
  const ship = shipOf(ctx.state, ctx.selected);
  if (!ship) return;
  const [x, y] = [px(f, ship.x), py(f, ship.y)];
  const [left, top] = [scroller.scrollLeft, scroller.scrollTop];
  if (x < left + 40 || x > left + scroller.clientWidth - 40) scroller.scrollLeft = x - scroller.clientWidth / 2;
  if (y < top + 40 || y > top + scroller.clientHeight - 40) scroller.scrollTop = y - scroller.clientHeight / 2;
}

/** The page drawn again from the same ctx (a change of view that the server need not hear of). */
function redraw(focus = null) {
  restoreFocus = focus; // the button pressed keeps the keyboard focus in the fresh drawing
  const drawn = scene.root; // draw() makes the fresh drawing the scene's root: keep the one on the page
  drawn.replaceWith(draw(scene.ctx));
}

function patterns(state) {
  const defs = el("defs", {});
  defs.append(el("pattern", { id: "naval-side1", width: 5, height: 5, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" },
  el("rect", { width: 5, height: 5, fill: "#fee2e2" }),
  el("rect", { width: 2.6, height: 5, fill: sideColour(state.sides[1], state.sides) })));
  defs.append(el("pattern", { id: "naval-shoal", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
    el("rect", { width: 8, height: 8, fill: "#e0f2fe" }), el("circle", { cx: 4, cy: 4, r: 1.3, fill: "#b45309" })));
  return defs;
}

function sea(ctx, f, layer, aids) {
  // Beyond the table's edges, greyed: a run that ends there disengages the ship.
  const beyond = el("rect", { x: 0, y: 0, width: f.width, height: f.height, fill: "#cbd5e1", class: "off-table" });
  const water = el("rect", { x: px(f, 0), y: py(f, ctx.state.table.height), width: ctx.state.table.width * f.scale,
    height: ctx.state.table.height * f.scale, fill: "#dbeafe", stroke: "#1e3a8a", "stroke-width": 2, class: "sea" });
  for (const rect of [beyond, water]) rect.addEventListener("click", (event) => clickSea(event));
  layer.append(beyond, water);
  if (!aids) return; // by eye: no ruler on the table
  const grid = el("g", { class: "grid", "pointer-events": "none" });
  const { width, height } = ctx.state.table;
  const [west, east] = [px(f, Math.max(0, f.x0)), px(f, Math.min(width, f.x1))]; // the lines stay on the table
  const [south, north] = [py(f, Math.max(0, f.y0)), py(f, Math.min(height, f.y1))];
  for (let x = Math.max(0, Math.ceil(f.x0 / 6) * 6); x <= Math.min(width, f.x1); x += 6) {
    grid.append(el("line", { x1: px(f, x), y1: north, x2: px(f, x), y2: south, stroke: "#93c5fd", "stroke-width": 1 }));
    if (x > f.x0) grid.append(el("text", { x: px(f, x), y: f.height - 4, class: "naval-coord" }, `${x}"`));
  }
  for (let y = Math.max(0, Math.ceil(f.y0 / 6) * 6); y <= Math.min(height, f.y1); y += 6) {
    grid.append(el("line", { x1: west, y1: py(f, y), x2: east, y2: py(f, y), stroke: "#93c5fd", "stroke-width": 1 }));
    if (y > f.y0 && y < f.y1) grid.append(el("text", { x: 14, y: py(f, y) - 3, class: "naval-coord" }, `${y}"`));
  }
  layer.append(grid);
}

function landShape(f, land) {
  const shoal = land.kind === "shoal";
  const points = land.points.map((p) => pt(f, p)).join(" ");
  const xs = land.points.map((p) => p[0]);
  const ys = land.points.map((p) => p[1]);
  const cx = px(f, (Math.min(...xs) + Math.max(...xs)) / 2);
  const cy = py(f, (Math.min(...ys) + Math.max(...ys)) / 2);
  const words = `${land.name}, ${shoal ? "a shoal" : "land"}: a ship that drifts onto it is wrecked`;
  return el("g", { class: `land ${land.kind}`, "data-land": land.name, role: "img", "aria-label": words },
    el("title", {}, words),
    el("polygon", { points, fill: shoal ? "url(#naval-shoal)" : "#bbf7d0", stroke: shoal ? "#b45309" : "#166534",
      "stroke-width": 2, "stroke-dasharray": shoal ? "6 3" : null }),
    el("text", { x: cx, y: cy, class: "land-name" }, land.name));
}

/** Grapples and tows: a line between the two hulls. */
function links(f, state, layer) {
  const seen = new Set();
  for (const ship of state.ships.filter(inPlay)) {
    for (const [other, kind] of [[ship.grappled, "grappled"], [ship.towing ? ship.tow : "", "tow"]]) {
      const partner = other && state.ships.find((s) => s.name === other);
      const key = [ship.name, other].sort().join("|") + kind;
      if (!partner || seen.has(key)) continue;
      seen.add(key);
      layer.append(el("line", { x1: px(f, ship.x), y1: py(f, ship.y), x2: px(f, partner.x), y2: py(f, partner.y),
        stroke: kind === "tow" ? "#334155" : "#92400e", "stroke-width": 3, "stroke-dasharray": "4 3",
        class: `link ${kind}`, "data-link": key, "pointer-events": "none" }));
    }
  }
}

function wreck(f, ship) {
  const x = px(f, ship.x);
  const y = py(f, ship.y);
  const words = `${ship.name}: ${ship.status}`;
  return el("g", { class: "wreck", "data-wreck": ship.name, role: "img", "aria-label": words }, el("title", {}, words),
    el("path", { d: `M${x - 5},${y - 5} L${x + 5},${y + 5} M${x - 5},${y + 5} L${x + 5},${y - 5}`, stroke: "#475569",
      "stroke-width": 2.5 }),
    el("text", { x, y: y + 18, class: "lost-name" }, `${ship.name} (${ship.status})`));
}

// --- ships ---------------------------------------------------------------------------------------------------
/** A hull: the rule's rectangle with its bow drawn to a point, in pixels, pointing up before it is turned. */
function hullPath(ship, f) {
  const l = (ship.length * f.scale) / 2;
  const b = (ship.beam * f.scale) / 2;
  const shoulder = -l + Math.min(2 * b, l);
  return `M0,${-l} L${b},${shoulder} L${b},${l} L${-b},${l} L${-b},${shoulder} Z`;
}

function badge(side, x, y, size = 5) {
  return side === 0
    ? el("circle", { cx: x, cy: y, r: size, fill: "white", stroke: "#0f172a", "stroke-width": 1.5, class: "badge" })
    : el("rect", { x: x - size * 0.8, y: y - size * 0.8, width: size * 1.6, height: size * 1.6, fill: "white",
      stroke: "#0f172a", "stroke-width": 1.5, class: "badge", transform: `rotate(45 ${x} ${y})` });
}

function bars(ship, x, y) {
  const width = 34;
  const bar = (value, max, top, colour, what) => [
    el("rect", { x: x - width / 2, y: top, width, height: 4, fill: "#fecaca", class: `bar-${what}` }),
    el("rect", { x: x - width / 2, y: top, width: (width * Math.max(0, value)) / Math.max(1, max), height: 4, fill: colour }),
  ];
  return el("g", { class: "bars", "pointer-events": "none" },
    ...bar(ship.flotation, ship.flotation_max, y, "#15803d", "flotation"),
    ...bar(ship.crew, ship.crew_max, y + 5, "#1e40af", "crew"));
}

function shipGlyph(ctx, f, ship) {
  const state = ctx.state;
  const x = px(f, ship.x);
  const y = py(f, ship.y);
  const selected = ctx.selected === ship.name;
  const side = ship.side;
  const colour = sideColour(state.sides[side], state.sides);
  const hull = el("path", {
    d: hullPath(ship, f), class: "hull", fill: side === 0 ? colour : "url(#naval-side1)",
    stroke: selected ? "#b45309" : side === 0 ? "#0f172a" : colour, "stroke-width": selected ? 3 : 1.5,
    transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) rotate(${ship.heading})`,
    opacity: ship.status === "surrendered" ? 0.6 : 1,
  });
  const label = describeShip(state, ship);
  const group = el("g", {
    class: `piece ship side-${side}${selected ? " selected" : ""}`, "data-piece": ship.name,
    "data-side": state.sides[side], "data-heading": ship.heading, "data-x": ship.x, "data-y": ship.y,
    tabindex: 0, role: "button", "aria-label": label, "aria-pressed": selected ? "true" : "false",
  }, el("title", {}, label));
  // A grip larger than a small hull, so that a click or a drag need not find a 3-pixel beam.
  const grip = Math.max(14, (ship.length * f.scale) / 2);
  group.append(el("circle", { cx: x, cy: y, r: grip, fill: "transparent", class: "grip" }), hull);
  const drop = Math.max(grip, 10) + 4;
  const words = [ship.name, ...shortMarks(ship)].join(" · ");
  const wide = textWidth(words) + 20;
  // The name is a handle too: a click on it chooses her, a drag from it moves her.
  group.append(el("rect", { x: x - wide / 2, y: y + drop, width: wide, height: 26, fill: "transparent", class: "grip" }),
    badge(side, x - textWidth(words) / 2 - 8, y + drop + 8, 4.5),
    el("text", { x, y: y + drop + 12, class: "ship-name" }, words), bars(ship, x, y + drop + 16));
  steering(ctx, group, ship);
  return group;
}

function shortMarks(ship) {
  const marks = [];
  if (ship.status === "surrendered") marks.push("struck");
  if (ship.on_fire) marks.push("fire");
  if (ship.grappled) marks.push("grappled");
  if (ship.irons) marks.push("irons");
  if (ship.adrift) marks.push("adrift");
  if (ship.masts_lost) marks.push(`${ship.masts_lost} mast${ship.masts_lost > 1 ? "s" : ""} down`);
  return marks;
}

const textWidth = (text) => text.length * 7; // 12 px bold DejaVu Sans: about 7 px a letter

/** The last throws' hits on the ships they struck. */
function hitLabels(ctx, f, state, layer) {
  for (const event of burst(ctx).events) {
    if (event.kind !== "hit") continue;
    const ship = state.ships.find((s) => s.name === event.piece);
    if (!ship) continue;
    layer.append(el("text", { x: px(f, ship.x), y: py(f, ship.y) - Math.max(14, (ship.length * f.scale) / 2) - 6,
      class: "hit-label", "data-hit": ship.name }, `−${event.hits}${event.bearing.endsWith("raked") ? " raked" : ""}`));
  }
}

// --- aids: the allowable area, the fans and keel lines, what they bear on ---------------------------------
/** The ship's allowable area: the run's end points on each sampled heading, out to the longest run the
 * server measured there (notes.reach: [first turn, inches]); the least run as a dashed arc. */
function area(f, state, ship, notes) {
  const group = el("g", { class: "area", "data-area": ship.name, "pointer-events": "none" });
  const reach = notes.reach?.[ship.name] || [];
  const lim = ship.limits;
  const origin = [ship.x, ship.y];
  if (lim.mode === "turn") {
    const r = Math.max(ship.length, 0.8);
    const arc = [];
    for (let t = -lim.turn; t <= lim.turn; t += 5) arc.push(advance(origin, ship.heading + t, r));
    arc.push(advance(origin, ship.heading + lim.turn, r));
    group.append(el("polygon", { points: [origin, ...arc].map((p) => pt(f, p)).join(" "), fill: "rgba(22,163,74,0.25)",
      stroke: "#15803d", "stroke-width": 1.5, class: "turn-arc" }));
    group.append(el("title", {}, `${ship.name} may turn up to ${lim.turn} degrees and not run`));
    return group;
  }
  if (!reach.length) return group;
  const step = reach.length > 1 ? Math.min(...reach.slice(1).map((r, i) => r[0] - reach[i][0])) : 1;
  let run = [];
  const runs = [run];
  reach.forEach(([turn, distance], index) => {
    if (index && turn - reach[index - 1][0] > step) runs.push((run = []));
    run.push(advance(origin, ship.heading + turn, distance));
  });
  for (const points of runs) {
    group.append(el("polygon", { points: [origin, ...points, origin].map((p) => pt(f, p)).join(" "),
      fill: "rgba(22,163,74,0.22)", stroke: "#15803d", "stroke-width": 1.5, class: "reach" }));
  }
  if (lim.run_min) {
    const [first, last] = [reach[0][0], reach[reach.length - 1][0]];
    const arc = [];
    for (let t = first; t <= last; t += 2) arc.push(advance(origin, ship.heading + t, lim.run_min));
    group.append(el("polyline", { points: arc.map((p) => pt(f, p)).join(" "), fill: "none", stroke: "#14532d",
      "stroke-width": 1.5, "stroke-dasharray": "3 3", class: "least-run" }));
  }
  if (lim.wind !== null) {
    // The headings closer to the wind than she may run: the wind's eye, a red wedge.
    const eye = [origin];
    for (let t = -lim.wind; t <= lim.wind; t += 5) eye.push(advance(origin, state.wind.from + t, lim.run_max * 0.6));
    group.append(el("polygon", { points: eye.map((p) => pt(f, p)).join(" "), fill: "rgba(185,28,28,0.12)",
      stroke: "#b91c1c", "stroke-width": 1, "stroke-dasharray": "2 3", class: "wind-eye" }));
  }
  group.append(el("title", {}, `${ship.name}'s allowable area: ${limitsText(state, ship)}`));
  return group;
}

/** The broadside fans (15 degrees either side of the beam from anywhere along the side) and the keel
 * lines ahead and astern, out to the longest range, for the mounts that have guns. */
function fans(f, ship, kind, at = null) {
  const place = at || { x: ship.x, y: ship.y, heading: ship.heading };
  const group = el("g", { class: kind, "pointer-events": "none" });
  const fwd = ahead(place.heading);
  const stbd = [fwd[1], -fwd[0]];
  const c = [place.x, place.y];
  const along = (p, v, d) => [p[0] + v[0] * d, p[1] + v[1] * d];
  const mounts = new Set(ship.batteries.map((b) => b.mount));
  for (const [mount, sign] of [["port", -1], ["starboard", 1]]) {
    if (!mounts.has(mount)) continue;
    const out = [stbd[0] * sign, stbd[1] * sign];
    const bow = along(along(c, fwd, ship.length / 2), out, ship.beam / 2);
    const stern = along(along(c, fwd, -ship.length / 2), out, ship.beam / 2);
    const points = [bow, along(along(bow, out, REACH), fwd, REACH * FAN_TAN),
      along(along(stern, out, REACH), fwd, -REACH * FAN_TAN), stern];
    group.append(el("polygon", { points: points.map((p) => pt(f, p)).join(" "), class: `fan fan-${mount}`,
      "data-fan": mount, fill: at ? "none" : "rgba(234,88,12,0.10)", stroke: "#c2410c", "stroke-width": 1.2,
      "stroke-dasharray": "5 4" }));
  }
  for (const [mount, sign] of [["ahead", 1], ["astern", -1]]) {
    if (!mounts.has(mount)) continue;
    const end = along(c, fwd, REACH * sign);
    group.append(el("line", { x1: px(f, c[0]), y1: py(f, c[1]), x2: px(f, end[0]), y2: py(f, end[1]),
      class: `keel keel-${mount}`, "data-fan": mount, stroke: "#c2410c", "stroke-width": 1.5, "stroke-dasharray": "8 4" }));
  }
  return group;
}

function bearingText(b) {
  const band = b.band ? `${b.band} range` : "out of range";
  return `${b.target}, ${inches(b.range)} in, ${band}${b.blocked ? `, blocked by ${b.blocked}` : ""}`;
}

function bearingLines(f, state, ship, notes) {
  const group = el("g", { class: "bearings", "pointer-events": "none" });
  for (const [mount, list] of Object.entries(notes.bearings?.[ship.name] || {})) {
    for (const b of list) {
      const target = state.ships.find((s) => s.name === b.target);
      if (!target) continue;
      const [x1, y1, x2, y2] = [px(f, ship.x), py(f, ship.y), px(f, target.x), py(f, target.y)];
      const length = Math.hypot(x2 - x1, y2 - y1) || 1;
      const [nx, ny] = [(y2 - y1) / length, -(x2 - x1) / length];
      group.append(el("g", { class: "bearing", "data-bearing": `${mount} ${b.target}` },
        el("line", { x1, y1, x2, y2, stroke: b.blocked || !b.band ? "#64748b" : "#c2410c", "stroke-width": 2,
          "stroke-dasharray": b.blocked ? "2 4" : null }),
        el("text", { x: (x1 + x2) / 2 + nx * 12, y: (y1 + y2) / 2 + ny * 12 + 4, class: "bearing-label" },
          `${mount} ${inches(b.range)}"${b.band ? ` ${b.band}` : ""}${b.blocked ? " blocked" : ""}`)));
    }
  }
  return group;
}

// --- the move being built --------------------------------------------------------------------------------------
function shipOf(state, name) {
  return state.ships.find((s) => s.name === name);
}

/** The draft for the ship, if it was built for her where she lies now. */
function draftFor(ctx, ship) {
  if (!draft || !ship || draft.game !== ctx.view.id || draft.ship !== ship.name || ship.moved) return null;
  const [x, y, heading] = draft.from;
  return x === ship.x && y === ship.y && heading === ship.heading ? draft : null;
}

function startDraft(ctx, ship) {
  draft = { game: ctx.view.id, ship: ship.name, from: [ship.x, ship.y, ship.heading], turn1: 0, run: 0, turn2: 0,
    extra: "" };
  return draft;
}

/** Where a draft takes the ship: the run's heading, its end point and the final heading. */
function course(ship, d) {
  const runHeading = mod360(ship.heading + d.turn1);
  const end = advance([ship.x, ship.y], runHeading, d.run);
  return { runHeading, end, final: mod360(runHeading + d.turn2) };
}

/** The book's notation of a draft (games/naval_warfare/actions.py move_text). */
function moveText(ship, d) {
  const body = `move ${ship.name} turn ${signed(d.turn1)} run ${inches(d.run)} turn ${signed(d.turn2)}`;
  return d.extra ? `${body} ${d.extra}` : body;
}

/** The ship's run set to end at a table point (the end turn kept), or her turn towards it in a turn-only move. */
function aimAt(ship, d, point) {
  const bearing = Math.round(bearingTo([ship.x, ship.y], point)) % 360;
  const kept = mod360(ship.heading + d.turn1 + d.turn2);
  d.turn1 = signedTurn(ship.heading, bearing);
  if (ship.limits.mode === "turn") {
    d.run = 0;
    d.turn2 = 0;
    return;
  }
  d.run = Math.round(Math.hypot(point[0] - ship.x, point[1] - ship.y) * 100) / 100;
  d.turn2 = d.run ? signedTurn(bearing, kept) : 0;
  if (!d.run) d.turn1 = 0;
}

/** The ghost of the draft: the run as a dashed line, the hull where it ends on her final heading (with her
 * fans there, unless by eye) and the move's numbers. Drawn again, alone, whenever the draft changes. */
function paintDraft() {
  const { ctx, frame: f, svg, aids } = scene;
  const layer = svg.querySelector(".layer-draft");
  layer.replaceChildren();
  const ship = shipOf(ctx.state, ctx.selected);
  const d = draftFor(ctx, ship);
  if (!d) return;
  const { runHeading, end, final } = course(ship, d);
  const [ex, ey] = [px(f, end[0]), py(f, end[1])];
  const grip = Math.max(16, (ship.length * f.scale) / 2);
  const group = el("g", { class: "draft", "data-draft": ship.name });
  group.append(el("line", { x1: px(f, ship.x), y1: py(f, ship.y), x2: ex, y2: ey, stroke: "#0f172a", "stroke-width": 2,
    "stroke-dasharray": "6 4", "pointer-events": "none" }));
  if (aids) group.append(fans(f, ship, "ghost-fans", { x: end[0], y: end[1], heading: final }));
  const ghost = el("g", { class: "ghost", "data-ghost": ship.name },
    el("circle", { cx: ex, cy: ey, r: grip, fill: "rgba(255,255,255,0.35)", stroke: "#b45309", "stroke-width": 1.5,
      class: "ghost-grip" }),
    el("path", { d: hullPath(ship, f), fill: "none", stroke: "#0f172a", "stroke-width": 2, "stroke-dasharray": "3 2",
      transform: `translate(${ex.toFixed(1)},${ey.toFixed(1)}) rotate(${final})` }),
    el("title", {}, `${ship.name} after the move, heading ${final}: drag round her or turn the wheel over her to ` +
      "set her end heading; double-click to sail"));
  group.append(ghost, el("text", { x: ex, y: ey - grip - 6, class: "draft-label", "data-draft-label": "" },
    `turn ${signed(d.turn1)}° · run ${inches(d.run)}" · turn ${signed(d.turn2)}°`));
  layer.append(group);
  turningTheGhost(ghost, runHeading, end);
}

/** The ghost's end heading: a drag round it points her bow at the pointer; the wheel turns her 5 (shift: 1) degrees. */
function turningTheGhost(ghost, runHeading, end) {
  const aim = (event) => {
    draft.turn2 = signedTurn(runHeading, Math.round(bearingTo(end, tableAt(event))) % 360);
    refresh();
  };
  let turning = false;
  ghost.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    turning = true;
    // The ghost is drawn again at every step: the table, which stays, holds the pointer.
    scene.svg.setPointerCapture?.(event.pointerId);
    const move = (e) => turning && aim(e);
    const up = (e) => {
      turning = false;
      aim(e);
      turnEndsInClick = true;
      scene.svg.removeEventListener("pointermove", move);
      scene.svg.removeEventListener("pointerup", up);
    };
    scene.svg.addEventListener("pointermove", move);
    scene.svg.addEventListener("pointerup", up);
    event.stopPropagation();
  });
  ghost.addEventListener("click", (event) => event.stopPropagation());
  ghost.addEventListener("wheel", (event) => {
    event.preventDefault();
    draft.turn2 = signedTurn(runHeading, runHeading + draft.turn2 + Math.sign(event.deltaY) * (event.shiftKey ? 1 : 5));
    refresh();
  }, { passive: false });
  ghost.addEventListener("dblclick", () => sail());
}

/** After a drag, a click or a typed number: the ghost and the helm's fields follow the draft. */
function refresh() {
  const { ctx, root } = scene;
  paintDraft();
  const ship = shipOf(ctx.state, ctx.selected);
  const form = root.querySelector(".naval-helm form");
  const d = draftFor(ctx, ship);
  if (!form || !ship) return;
  const shown = d || { turn1: 0, run: 0, turn2: 0, extra: "" };
  for (const field of ["turn1", "run", "turn2"]) {
    if (document.activeElement !== form.elements[field]) {
      form.elements[field].value = field === "run" ? inches(shown.run) : String(shown[field]);
    }
  }
  form.querySelector("output").textContent = moveText(ship, shown);
}

/** Plan the draft: the server previews it, or refuses it naming the rule (shown beside the board). */
function sail() {
  const { ctx } = scene;
  const ship = shipOf(ctx.state, ctx.selected);
  const d = draftFor(ctx, ship);
  if (!ship || !d) return;
  if (!ctx.seat) return hint("Only a captain with a decision to make may move a ship.");
  // The keyboard goes on where the page is drawn again: the next ship to choose, or the refused move's fields.
  restoreFocus = ".naval-helm [data-select], .naval-helm input[name=turn1]";
  ctx.plan(moveText(ship, d));
}

function hint(text) {
  const box = scene?.root.querySelector(".naval-hint");
  if (box) box.textContent = text;
}

// --- pointer and keys on the table ---------------------------------------------------------------------------
/** Click a ship to choose her; drag her to a point to set her run there; Enter or space chooses her too. */
function steering(ctx, group, ship) {
  let drag = null;
  let dragged = false;
  group.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, moving: false };
    dragged = false;
    group.setPointerCapture?.(event.pointerId);
  });
  group.addEventListener("pointermove", (event) => {
    if (!drag || (!drag.moving && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8)) return;
    if (!drag.moving && !mayMove(ctx, ship.name)) {
      drag = null;
      return hint(`${ship.name} has no move to make now: ${limitsText(ctx.state, ship)}.`);
    }
    drag.moving = true;
    const d = draftFor(ctx, ship) || startDraft(ctx, ship);
    aimAt(ship, d, tableAt(event));
    if (ctx.selected === ship.name) refresh();
    else paintFloating(ship, d);
  });
  group.addEventListener("pointerup", (event) => {
    const moving = drag?.moving;
    drag = null;
    if (!moving) return;
    dragged = true;
    aimAt(ship, draft, tableAt(event));
    if (ctx.selected !== ship.name) ctx.select(ship.name); // drawn again, with her aids and the ghost
    else refresh();
  });
  group.addEventListener("click", (event) => {
    event.stopPropagation();
    if (dragged) {
      dragged = false;
      return;
    }
    ctx.select(ship.name);
  });
  group.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    restoreFocus = `.ship[data-piece="${CSS.escape(ship.name)}"]`;
    ctx.select(ship.name);
  });
}

/** While a ship not yet chosen is dragged: a line to the pointer with the move's numbers. */
function paintFloating(ship, d) {
  const { frame: f, svg } = scene;
  const layer = svg.querySelector(".layer-draft");
  const { end } = course(ship, d);
  layer.replaceChildren(el("g", { class: "draft", "pointer-events": "none" },
    el("line", { x1: px(f, ship.x), y1: py(f, ship.y), x2: px(f, end[0]), y2: py(f, end[1]), stroke: "#0f172a",
      "stroke-width": 2, "stroke-dasharray": "6 4" }),
    el("text", { x: px(f, end[0]), y: py(f, end[1]) - 18, class: "draft-label" },
      `turn ${signed(d.turn1)}° · run ${inches(d.run)}"`)));
}

/** The sea clicked with a ship chosen that may move: her run is set to end there; otherwise the choice is put down. */
function clickSea(event) {
  const { ctx } = scene;
  if (turnEndsInClick) {
    turnEndsInClick = false;
    return;
  }
  const ship = shipOf(ctx.state, ctx.selected);
  if (!ship || !mayMove(ctx, ship.name)) {
    if (ctx.selected) ctx.select(ctx.selected);
    return;
  }
  aimAt(ship, draftFor(ctx, ship) || startDraft(ctx, ship), tableAt(event));
  refresh();
}

// --- above the table: wind, clock, throws ------------------------------------------------------------------------
/** The entries of the last throws: the chance entries that ended the history (or came before the
 * last decisions), with the decision they followed. */
function burst(ctx) {
  const history = ctx.history || [];
  let end = history.length;
  while (end > 0 && history[end - 1].seat !== "chance") end -= 1;
  let start = end;
  while (start > 0 && history[start - 1].seat === "chance") start -= 1;
  const entries = history.slice(start, end);
  const after = start > 0 ? history[start - 1] : null;
  return { entries, after, events: entries.flatMap((entry) => entry.events) };
}

function bridge(ctx, state) {
  const wind = state.wind;
  const moves = state.moves_left;
  const left = state.outcome ? "the battle is over"
    : `${plural(moves, "move")} left before ${state.clock >= 21 * 60 ? "dawn" : "nightfall"}`; // 9 pm: night rules
  const clock = `Move ${state.move} · ${state.clock_text} · ${left}`;
  const prevailing = wind.prevailing === null ? "no prevailing wind" : `prevailing ${compass(wind.prevailing)}`;
  const windWords = `Wind ${wind.strength_name} from the ${wind.name} (${wind.from}°), ${prevailing}`;
  const score = state.sides.map((side, i) => `${side} ${state.score[i]}`).join(", ");
  const lines = html("div", { class: "naval-clock" },
    html("div", { class: "naval-time", "data-clock": "" }, clock),
    html("div", { "data-wind": `${wind.strength_name} ${wind.name}` }, windWords),
    html("div", { "data-phase": state.phase }, phaseText(state)),
    html("div", { class: "muted" }, `Points (flotation taken): ${score}`));
  return html("section", { class: "naval-bridge", "aria-label": "wind, clock and throws" },
    windPointer(wind), lines, throws(ctx));
}

/** The wind pointer: an arrow blowing from where the wind comes from, its strength under it. */
function windPointer(wind) {
  const words = `wind pointer: ${wind.strength_name} from the ${wind.name}`;
  const svg = el("svg", { viewBox: "0 0 92 92", width: 92, height: 92, class: "board-svg wind-pointer", role: "img",
    "aria-label": words }, el("title", {}, words), el("circle", { cx: 46, cy: 42, r: 34, fill: "white", stroke: "#334155" }));
  ["N", "E", "S", "W"].forEach((name, i) => {
    const t = rad(i * 90);
    svg.append(el("text", { x: 46 + Math.sin(t) * 26, y: 42 - Math.cos(t) * 26 + 4, class: "rose-label" }, name));
  });
  const calm = wind.strength === 0;
  svg.append(el("path", { d: "M0,-20 L7,10 L0,5 L-7,10 Z", fill: calm ? "none" : "#b45309", stroke: "#0f172a",
    "stroke-width": 1.5, class: "wind-arrow", transform: `translate(46,42) rotate(${mod360(wind.from + 180)})` }));
  svg.append(el("text", { x: 46, y: 90, class: "wind-strength" }, wind.strength_name));
  return svg;
}

/** Every throw since the last decision, as it fell, and what it decided. */
function throws(ctx) {
  const { entries, after, events } = burst(ctx);
  // It scrolls when the throws are many: a keyboard reaches it too (tabindex).
  const box = html("div", { class: "naval-throws", "aria-label": "the last throws", role: "log", tabindex: 0 });
  if (!entries.length) return box;
  const heading = after ? `Throws after ${after.seat}: ${after.text}` : "Throws";
  const list = html("ol", {});
  for (const event of events) {
    if (event.kind === "die-rolled") {
      list.append(html("li", { class: "throw", "data-die": String(event.value) },
        html("span", { class: "die", "aria-label": `a ${event.value}` }, String(event.value)), ` ${event.purpose}`));
    } else if (event.kind !== "phase-changed") {
      list.append(html("li", { class: `result ${event.kind}` }, event.text));
    }
  }
  box.append(html("div", { class: "throws-title" }, heading), list);
  return box;
}

function viewControls() {
  const zoom = (by) => () => {
    view.zoom = Math.max(0, Math.min(ZOOMS.length - 1, view.zoom + by));
    const [pressed, other] = by > 0 ? ["zoom-in", "zoom-out"] : ["zoom-out", "zoom-in"];
    const atEnd = view.zoom === 0 || view.zoom === ZOOMS.length - 1; // the button pressed is now disabled
    redraw(`button[data-view="${atEnd ? other : pressed}"]`);
  };
  return html("div", { class: "row naval-view" },
    html("button", { type: "button", "data-view": "whole", "aria-pressed": view.whole ? "true" : "false",
      onclick: () => { view.whole = !view.whole; redraw('button[data-view="whole"]'); } }, "Whole table"),
    html("button", { type: "button", "data-view": "zoom-out", disabled: view.zoom === 0, onclick: zoom(-1) }, "Zoom out"),
    html("button", { type: "button", "data-view": "zoom-in", disabled: view.zoom === ZOOMS.length - 1, onclick: zoom(1) },
      "Zoom in"),
    html("span", { class: "muted" }, `×${ZOOMS[view.zoom]}`));
}

// --- under the table: the helm of the chosen ship -----------------------------------------------------------------
function helmPanel(ctx, state, notes, aids) {
  const box = html("section", { class: "naval-helm", "aria-label": "helm" });
  const ship = shipOf(state, ctx.selected);
  if (!ship) {
    // The ships this seat has a decision for, by the server's list: to move, to fire, or another choice.
    const deciding = legalGroups(ctx).map((g) => g.piece).filter(Boolean);
    const kind = state.agenda[0]?.[1];
    const words = { move: "Choose a ship to move: ", fire: "Choose a ship to fire: " }[kind] || "Ships with a choice to make: ";
    box.append(html("h3", {}, "Helm"), deciding.length
      ? html("p", {}, words, deciding.map((name) =>
        html("button", { type: "button", "data-select": name, onclick: () => ctx.select(name) }, name)))
      : html("p", { class: "muted" }, "Choose a ship on the table (click it, or Tab to it and press Enter)."));
    box.append(html("p", { class: "naval-hint", role: "status" }));
    return box;
  }
  box.append(html("h3", {}, `${ship.name} (${state.sides[ship.side]})`),
    html("p", { "data-helm-of": ship.name }, `At ${inches(ship.x)}, ${inches(ship.y)} heading ${ship.heading}° ` +
      `(${compass(ship.heading)}); ${inPlay(ship) ? limitsText(state, ship) : statusText(ship)}.`));
  if (mayMove(ctx, ship.name)) box.append(moveForm(ctx, state, ship));
  box.append(gunsList(ctx, state, ship, notes, aids));
  box.append(html("p", { class: "naval-hint", role: "status" }));
  return box;
}

function moveForm(ctx, state, ship) {
  const d = draftFor(ctx, ship);
  const number = (name, label, attrs) => html("label", {}, label, " ",
    html("input", { name, type: "number", inputmode: "decimal", ...attrs }));
  // No limits on the fields: a number out of bounds goes to the server, which names the rule it breaks.
  const form = html("form", { class: "move-form", "data-move-of": ship.name, novalidate: true },
    html("p", { class: "muted" }, "Drag her to a point, or click the sea, then drag the ghost's bow round (or turn the " +
      "wheel over it) for her end heading; or type the move. + turns to starboard, − to port."),
    html("div", { class: "row" },
      number("turn1", "Turn at the start (°)", { step: 1, value: d ? d.turn1 : 0 }),
      number("run", "Run (in)", { step: 0.01, value: inches(d ? d.run : 0) }),
      number("turn2", "Turn at the end (°)", { step: 1, value: d ? d.turn2 : 0 }),
      html("label", {}, "Then ", endingSelect(state, ship, d))),
    html("div", { class: "row" },
      html("output", { class: "move-text", "aria-live": "polite" }, moveText(ship, d || { turn1: 0, run: 0, turn2: 0, extra: "" })),
      html("button", { type: "submit", class: "primary", "data-sail": ship.name }, "Sail this move"),
      html("button", { type: "button", "data-clear": ship.name, onclick: () => { draft = null; refresh(); } },
        "Clear")));
  form.addEventListener("input", () => {
    const fresh = draftFor(ctx, ship) || startDraft(ctx, ship);
    fresh.turn1 = Math.trunc(Number(form.elements.turn1.value) || 0);
    fresh.run = Math.round((Number(form.elements.run.value) || 0) * 100) / 100;
    fresh.turn2 = Math.trunc(Number(form.elements.turn2.value) || 0);
    fresh.extra = form.elements.extra.value;
    refresh();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!draftFor(ctx, ship)) form.dispatchEvent(new Event("input"));
    sail();
  });
  return form;
}

/** What she does at the end of her run (actions.py: heave-to, oars, sail, boats; board, tow, secure a ship). */
function endingSelect(state, ship, d) {
  const options = [["", "nothing more"], ["heave-to", "heave to (rule 6)"]];
  const on = state.options || {};
  if (on.oared) options.push(["oars", "ship her oars (optional rule 4)"], ["sail", "raise sail (optional rule 4)"]);
  if (on.boats) options.push(["boats", "be towed by her boats (optional rule 1)"]);
  for (const other of state.ships.filter(inPlay)) {
    if (other.side !== ship.side && other.status === "afloat") options.push([`board ${other.name}`, `board ${other.name} (rule 12)`]);
    if (other.side !== ship.side && other.status === "surrendered" && on.prizes) {
      options.push([`secure ${other.name}`, `secure ${other.name} (optional rule 6)`]);
    }
    if (other.side === ship.side && other !== ship && on.towing) options.push([`tow ${other.name}`, `take ${other.name} in tow (optional rule 3)`]);
  }
  return html("select", { name: "extra" }, options.map(([value, label]) =>
    html("option", { value, selected: (d?.extra || "") === value }, label)));
}

/** Her guns: each mount's batteries, what it bears on (unless by eye) and the fire the server offers. */
function gunsList(ctx, state, ship, notes, aids) {
  const legal = new Set(legalOf(ctx, ship.name));
  const list = html("ul", { class: "guns" });
  for (const mount of MOUNTS) {
    const guns = ship.batteries.filter((b) => b.mount === mount);
    if (!guns.length) continue;
    const kinds = guns.map((b) => `${b.half ? "half " : ""}${b.kind}`).join(", ");
    const fired = ship.fired.includes(mount) ? " (fired this move)" : "";
    const item = html("li", { "data-mount": mount }, html("strong", {}, mount), `: ${kinds}${fired}. `);
    if (aids) {
      const bears = notes.bearings?.[ship.name]?.[mount] || [];
      item.append(bears.length ? `Bears on ${bears.map(bearingText).join("; ")}. ` : "Bears on no enemy within 16 in. ");
    }
    for (const text of [...legal].filter((t) => t.startsWith(`fire ${ship.name} ${mount} at `))) {
      item.append(html("button", { type: "button", "data-order": text, onclick: () => ctx.plan(text) },
        `Fire at ${text.split(" at ").pop()}`));
    }
    list.append(item);
  }
  return html("div", {}, html("h4", {}, "Guns"), list);
}

// --- every ship's damage ------------------------------------------------------------------------------------
function shipTable(state) {
  const head = ["ship", "side", "at", "heading", "flotation", "crew", "batteries", "masts lost", "state"];
  const rows = state.ships.map((ship) => {
    const state_ = [ship.status === "afloat" ? "" : statusText(ship),
      ...markers(state, ship).filter((m) => m !== "surrendered" && !m.startsWith("abandoned")),
      ship.moved ? "moved" : "", ship.fired.length ? `fired ${ship.fired.join(", ")}` : ""].filter(Boolean);
    const damage = ship.damage ? ` (${DAMAGE[ship.damage]})` : "";
    return html("tr", { "data-ship-row": ship.name, class: `side-${ship.side}` },
      html("th", { scope: "row" }, ship.name), html("td", {}, `${state.sides[ship.side]} (${MARKS[ship.side].split(" ")[0]})`),
      html("td", {}, inPlay(ship) ? `${inches(ship.x)}, ${inches(ship.y)}` : "–"),
      html("td", {}, inPlay(ship) ? `${ship.heading}°` : "–"),
      html("td", { "data-flotation": "" }, `${ship.flotation}/${ship.flotation_max}${damage}`),
      html("td", { "data-crew": "" }, `${ship.crew}/${ship.crew_max}`), html("td", {}, batteryText(ship)),
      html("td", {}, String(ship.masts_lost)), html("td", { "data-state": "" }, state_.join("; ") || "afloat"));
  });
  return html("section", { class: "naval-ships", "aria-label": "ships and damage", tabindex: 0 }, // it scrolls sideways on a phone
    html("table", { class: "games-table" }, html("caption", {}, "Ships and damage"),
      html("tr", {}, head.map((h) => html("th", { scope: "col" }, h))), rows));
}

/** The table in words (app.js reads it out and lists it): each ship with her position, heading and
 * state, and the bearing and range of the nearest enemies (bearing from north, and off her bow); the
 * wind, the clock and the phase. */
export function describe(ctx) {
  const state = ctx.state;
  const afloat = state.ships.filter(inPlay);
  const pieces = state.ships.map((ship) => {
    const enemies = inPlay(ship) ? afloat.filter((other) => other.side !== ship.side)
      .map((other) => ({ other, range: Math.hypot(other.x - ship.x, other.y - ship.y) }))
      .sort((a, b) => a.range - b.range).slice(0, 2) : [];
    const bearings = enemies.map(({ other, range }) => {
      const bearing = mod360(Math.round(Math.atan2(other.x - ship.x, other.y - ship.y) * 180 / Math.PI));
      const off = signedTurn(ship.heading, bearing);
      const side = off === 0 ? "dead ahead" : Math.abs(off) === 180 ? "dead astern" : `${Math.abs(off)}° to ${off > 0 ? "starboard" : "port"}`;
      return `${other.name} ${inches(range)} in away, bearing ${bearing}° (${compass(bearing)}), ${side}`;
    });
    return { piece: ship.name, name: ship.name, side: state.sides[ship.side], at: null,
      text: `${describeShip(state, ship)}${bearings.length ? `; nearest enemies: ${bearings.join("; ")}` : ""}` };
  });
  const wind = state.wind;
  return {
    pieces,
    notes: [`Move ${state.move}, ${state.clock_text}, ${phaseText(state)}. Wind ${wind.strength_name} from the ${wind.name} ` +
      `(${wind.from}°). The table is ${state.table.width} by ${state.table.height} inches; x runs east, y north.`],
  };
}
