// Frigate (seed 001, with the Suggested Rules Modifications): the hex map around the ships, each
// ship a hull pointing her facing (blue solid with a round badge, red striped with a diamond, so
// colour is never the only mark), her name and hit markers; the wind rose; the clock (turn, segment,
// phase); under the map the orders of the moment: each ship's allowed Movement Allowance and why at
// the Movement Declaration, the selected ship's moves and turns with their cost, the fire window's
// attacks with range, GS against DS, raking and CRT column, "hold fire" and "pass to segment end";
// and a table of every ship's hits.
//
// Everything legal comes from the server: the actions it lists for this seat, the state's JSON and
// the board notes the rules work out (games/frigate/__init__.py, board_notes). The hex geometry is
// core/hexes.py's (flat-topped hexes named CCRR, odd 0-based columns half a hex lower). A ship is
// steered by clicking or dragging her onto the hex ahead (move or plot ahead) or the hex off either
// bow (turn that way), or with the arrow keys once selected; the page's cursor also goes hex by hex
// (arrows, Enter as a click on the hex: cursorCells); what the server refuses is shown with the rule it
// names. Under SiMove the other side's plots never reach this page before the reveal:
// the server leaves them out of this seat's (or a spectator's) view.
import { clickOrDrag, el, gameOverText, html, sideColour, withSelection } from "../board.js";

const R = 38; // hex radius, in pixels: the map is drawn at its natural size and scrolls
const SQRT3 = Math.sqrt(3);
const DIRS = ["N", "NE", "SE", "S", "SW", "NW"];
const AXIAL = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]]; // core/hexes.py _DELTAS
const MARGIN = 3; // hexes shown around the ships
const BAND = 110; // the clock, the wind and the phase, above the map
const DICE_LINE = 18; // the band grows by this for each die roll after the first
const MIN_WIDTH = 336; // the clock and wind fit a 390 px screen
const SIDES = ["blue", "red"];
const STEP_WORDS = { ahead: "ahead", port: "turn to port", starboard: "turn to starboard", stand: "stand" };
const ARROW_KEYS = { ArrowUp: "ahead", ArrowLeft: "port", ArrowRight: "starboard" };

let restoreFocus = null; // the ship whose keyboard focus a redraw must give back
let kept = null; // the map point at the scrolled map's top left corner, kept from one redraw to the next
let fitted = null; // the game whose map is shrunk to fit its frame (every ship in sight, no scrolling)

// --- hex geometry (core/hexes.py) ---------------------------------------------------------------------
function parseHex(name) {
  const match = /^(\d\d)(\d\d)$/.exec(name || "");
  return match ? { col: Number(match[1]) - 1, row: Number(match[2]) - 1 } : null;
}

function hexName(col, row) {
  return String(col + 1).padStart(2, "0") + String(row + 1).padStart(2, "0");
}

function centre(name) {
  const at = parseHex(name);
  return { x: 1.5 * R * at.col, y: SQRT3 * R * (at.row + (at.col & 1) / 2) };
}

function neighbour(name, facing, turn = 0) {
  const at = parseHex(name);
  const [dq, dr] = AXIAL[(DIRS.indexOf(facing) + turn + 6) % 6];
  const q = at.col + dq;
  const r = at.row - (at.col - (at.col & 1)) / 2 + dr;
  return { col: q, row: r + (q - (q & 1)) / 2 };
}

function onMap(state, at) {
  const { columns, rows } = state.tables.map;
  return at.col >= 0 && at.row >= 0 && at.col < columns && at.row < rows;
}

/** The hex under a point of the map (cube rounding, as core/hexes.py `_round_hex`). */
function hexAt(x, y) {
  const q = x / (1.5 * R);
  const r = y / (SQRT3 * R) - q / 2;
  const s = -q - r;
  let [rq, rr, rs] = [Math.round(q), Math.round(r), Math.round(s)];
  const [dq, dr, ds] = [Math.abs(rq - q), Math.abs(rr - r), Math.abs(rs - s)];
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return { col: rq, row: rr + (rq - (rq & 1)) / 2 };
}

function corners(x, y, radius = R) {
  return [0, 60, 120, 180, 240, 300].map((a) => {
    const t = (a * Math.PI) / 180;
    return `${(x + radius * Math.cos(t)).toFixed(1)},${(y + radius * Math.sin(t)).toFixed(1)}`;
  }).join(" ");
}

// --- small helpers -------------------------------------------------------------------------------------
const pretty = (name) => String(name).replaceAll("_", " ");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const sideName = (ship) => SIDES[ship.owner];
const afloat = (ship) => ship.status === "active";

function legalOf(ctx, piece) {
  const groups = ctx.seat ? ctx.view.legal?.[ctx.seat] || [] : [];
  return groups.find((group) => group.piece === piece)?.actions.map((a) => a.text) || [];
}

function damage(ship) {
  return `hits: hull ${ship.hull} of ${ship.hull_boxes}, crew ${ship.crew}, guns ${ship.guns}, masts ${ship.masts}`;
}

function describeShip(state, ship) {
  const where = afloat(ship) ? `at ${ship.hex} facing ${ship.facing}` : ship.status;
  const bits = [`${pretty(ship.name)}, ${sideName(ship)}`, `${ship.rating}-gun ${ship.class}`, where, damage(ship)];
  if (ship.owner !== ship.side) bits.push(`a prize taken from ${SIDES[ship.side]}`);
  if (ship.afoul) bits.push(`afoul of ${pretty(ship.afoul)} on her ${ship.afoul_side} side`);
  if (ship.declared) bits.push(`MA ${ship.ma}${state.segment ? `, ${plural(ship.left, "point")} left this segment` : ""}`);
  if (ship.fighting_sail) bits.push("fighting sail");
  const due = state.pending.filter(([target]) => target === ship.name).map(([, kind]) => kind);
  if (due.length) bits.push(`hits landing at the segment's end: ${due.join(", ")}`);
  return bits.join("; ");
}

// --- the drawing -------------------------------------------------------------------------------------
export function draw(ctx) {
  const state = ctx.state;
  const notes = ctx.notes || {};
  const view = crop(state, notes);
  const svg = el("svg", {
    viewBox: `${view.x0} ${view.y0} ${view.width} ${view.height}`, class: "board-svg hex-map",
    style: mapWidth(ctx, view), role: "group",
    "aria-label": `hex map, columns ${view.c0 + 1} to ${view.c1 + 1}, rows ${view.r0 + 1} to ${view.r1 + 1}`,
  });
  svg.append(patterns());
  const layers = {};
  for (const name of ["sea", "marks", "lines", "ships", "overlay"]) {
    layers[name] = el("g", { class: `layer-${name}` });
    svg.append(layers[name]);
  }
  const last = lastTouched(ctx.lastEvents);
  for (let col = view.c0; col <= view.c1; col++) {
    for (let row = view.r0; row <= view.r1; row++) {
      const name = hexName(col, row);
      const { x, y } = centre(name);
      const hex = el("polygon", { points: corners(x, y), class: "hex", "data-hex": name,
        fill: last.has(name) ? "#fde68a" : "#d6ecfa", stroke: last.has(name) ? "#78350f" : "#8db6d4", // the frame, not the tint, marks it
        "stroke-width": last.has(name) ? 2.5 : 1 });
      hex.addEventListener("click", () => clickHex(ctx, name));
      // The hex's name is drawn for the eye; the keyboard's cursor reads it out (cursorCells).
      layers.sea.append(hex, el("text", { x, y: y - R * 0.5, class: "hex-label", "aria-hidden": "true" }, name));
    }
  }
  const helm = helmTargets(ctx, state, notes);
  for (const target of helm) layers.marks.append(helmMark(ctx, target));
  fireLines(ctx, state, notes, layers.overlay);
  ghosts(state, layers.lines);
  const byHex = new Map();
  for (const ship of state.ships.filter(afloat)) byHex.set(ship.hex, [...(byHex.get(ship.hex) || []), ship]);
  for (const ships of byHex.values()) {
    ships.forEach((ship, index) => layers.ships.append(shipGlyph(ctx, svg, ship, index, ships.length)));
  }
  hitLabels(ctx, state, layers.overlay);
  if (drawn(view, ctx.cursor)) layers.overlay.append(...cursorMark(ctx.cursor));
  ctx.setMap?.(cursorCells(ctx, view));
  const scroller = html("div", { class: "frigate-scroll" }, svg);
  scroller.addEventListener("scroll", () => {
    kept = { id: ctx.view.id, x: view.x0 + scroller.scrollLeft, y: view.y0 + scroller.scrollTop };
  });
  queueMicrotask(() => placeView(ctx, scroller, svg, view));
  const root = html("div", { class: "frigate" }, bridge(ctx, state, view), fitButton(ctx, svg, view), scroller,
    orders(ctx, state, notes), shipTable(state));
  if (restoreFocus) {
    const wanted = restoreFocus;
    queueMicrotask(() => {
      const again = svg.querySelector(`.ship[data-piece="${wanted}"]`);
      if (again && svg.isConnected && (!document.activeElement || document.activeElement === document.body)) {
        again.focus();
        restoreFocus = null;
      }
    });
  }
  return root;
}

/** At its natural size the map's text reads at 12 px and the map scrolls; fitted, every ship is in sight at once. */
function mapWidth(ctx, view) {
  return fitted === ctx.view.id ? "width: 100%" : `width: ${view.width}px`;
}

function fitButton(ctx, svg, view) {
  const button = html("button", { type: "button", "data-view": "fit", "aria-pressed": String(fitted === ctx.view.id),
    onclick: () => {
      fitted = fitted === ctx.view.id ? null : ctx.view.id;
      svg.setAttribute("style", mapWidth(ctx, view)); // the same map, resized: the focus stays on this button
      button.setAttribute("aria-pressed", String(fitted === ctx.view.id));
      kept = null; // back at the natural size, the map opens on this side's ships again
      placeView(ctx, svg.parentElement, svg, view);
    } }, "Fit the map to the screen");
  return html("div", { class: "row frigate-view" }, button);
}

/** The board's room beside the side panel (style.css: side by side above 900 px); the map scrolls in 70% of
 * the window's height. */
function roomForTheMap() {
  const wide = window.innerWidth > 900;
  return { width: window.innerWidth - (wide ? 430 : 50), height: window.innerHeight * 0.7 };
}

/** Every update redraws the page: the map keeps its place, and the ship that is chosen or has the fire
 * window is scrolled into sight; a game opens on the ships of the side to act. */
function placeView(ctx, scroller, svg, view) {
  if (!scroller.isConnected) return;
  if (kept && kept.id === ctx.view.id) {
    scroller.scrollLeft = kept.x - view.x0;
    scroller.scrollTop = kept.y - view.y0;
  } else {
    const ships = ctx.state.ships.filter(afloat);
    const own = ships.filter((s) => sideName(s) === ctx.seat);
    const points = (own.length ? own : ships).map((s) => centre(s.hex));
    if (points.length) {
      const mean = (key) => points.reduce((sum, p) => sum + p[key], 0) / points.length;
      scroller.scrollLeft = mean("x") - view.x0 - scroller.clientWidth / 2;
      scroller.scrollTop = mean("y") - view.y0 - scroller.clientHeight / 2;
    }
  }
  // The keyboard's hex while the map has the focus, else the chosen ship or the one with the fire window.
  const cursorShown = document.activeElement === scroller.closest(".board");
  const focus = ctx.selected || ctx.state.windows[0];
  const ship = cursorShown && ctx.cursor ? svg.querySelector(`.hex[data-hex="${ctx.cursor}"]`)
    : focus && svg.querySelector(`.ship[data-piece="${focus}"] .hull`);
  if (!ship) return;
  const box = ship.getBoundingClientRect();
  const frame = scroller.getBoundingClientRect();
  if (box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom) {
    scroller.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
    scroller.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
  }
}

/** The part of the map around the ships (and where their plots take them), widened to fill the
 * room the page leaves the board at the natural size. */
function crop(state, notes) {
  const { columns, rows } = state.tables.map;
  const room = roomForTheMap();
  const leastColumns = Math.max(7, Math.floor((room.width - 2 * R - 16) / (1.5 * R)) + 1);
  const leastRows = Math.max(5, Math.floor((room.height - 40) / (SQRT3 * R)) - 1);
  const seen = state.ships.filter(afloat).map((s) => parseHex(s.hex));
  for (const place of Object.values(notes.helm || {})) seen.push(parseHex(place.hex));
  if (!seen.length) seen.push({ col: Math.floor(columns / 2), row: Math.floor(rows / 2) });
  const span = (low, high, least, size) => {
    let [a, b] = [low - MARGIN, high + MARGIN];
    while (b - a + 1 < Math.min(least, size)) { a -= 1; b += 1; }
    const shift = Math.max(0, -a) - Math.max(0, b - (size - 1));
    return [Math.max(0, a + shift), Math.min(size - 1, b + shift)];
  };
  const [c0, c1] = span(Math.min(...seen.map((h) => h.col)), Math.max(...seen.map((h) => h.col)), leastColumns, columns);
  const [r0, r1] = span(Math.min(...seen.map((h) => h.row)), Math.max(...seen.map((h) => h.row)), leastRows, rows);
  let x0 = 1.5 * R * c0 - R - 8;
  let width = 1.5 * R * (c1 - c0) + 2 * R + 16;
  if (width < MIN_WIDTH) { x0 -= (MIN_WIDTH - width) / 2; width = MIN_WIDTH; }
  const y0 = SQRT3 * R * r0 - (SQRT3 / 2) * R - 8;
  const height = SQRT3 * R * (r1 - r0 + 1.5) + 30;
  return { c0, c1, r0, r1, x0, y0, width: Math.ceil(width), height: Math.ceil(height) }; // whole pixels: scale 1
}

function patterns() {
  return el("defs", {}, el("pattern", { id: "frigate-red-stripes", width: 6, height: 6, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" },
  el("rect", { width: 6, height: 6, fill: "#fee2e2" }), el("rect", { width: 3.2, height: 6, fill: sideColour("red") })));
}

function lastTouched(events) {
  const hexes = new Set();
  for (const event of events || []) {
    for (const key of ["origin", "destination", "square"]) if (parseHex(event[key])) hexes.add(event[key]);
  }
  return hexes;
}

// --- ships -----------------------------------------------------------------------------------------------
function shipGlyph(ctx, svg, ship, index, count) {
  const state = ctx.state;
  const base = centre(ship.hex);
  const scale = count > 1 ? 0.72 : 1;
  const x = base.x + (index - (count - 1) / 2) * R * 0.62;
  const y = base.y;
  const selected = ctx.selected === ship.name;
  const side = sideName(ship);
  const hull = el("path", {
    d: `M0,${-0.82 * R} C${0.36 * R},${-0.36 * R} ${0.33 * R},${0.42 * R} ${0.24 * R},${0.7 * R} ` +
       `L${-0.24 * R},${0.7 * R} C${-0.33 * R},${0.42 * R} ${-0.36 * R},${-0.36 * R} 0,${-0.82 * R} Z`,
    class: "hull", fill: side === "blue" ? sideColour("blue") : "url(#frigate-red-stripes)", stroke: "#0f172a", "stroke-width": 1.6,
    transform: `translate(${x},${y}) rotate(${DIRS.indexOf(ship.facing) * 60}) scale(${scale})`,
  });
  // The side's badge: a round one for blue, a diamond for red (the shape tells the sides apart too).
  const badge = side === "blue"
    ? el("circle", { cx: x, cy: y, r: 5.5 * scale, fill: "white", stroke: "#0f172a", class: "badge" })
    : el("rect", { x: x - 5 * scale, y: y - 5 * scale, width: 10 * scale, height: 10 * scale, fill: "white", class: "badge",
      stroke: "#0f172a", transform: `rotate(45 ${x} ${y})` });
  const label = describeShip(state, ship);
  const group = el("g", {
    class: `piece ship side-${side}${selected ? " selected" : ""}`, "data-piece": ship.name, "data-hex": ship.hex,
    "data-facing": ship.facing, "data-side": side, tabindex: 0, role: "button", "aria-label": label,
    "aria-pressed": selected ? "true" : "false",
  }, el("title", {}, label), ...withSelection(hull, selected), badge);
  // A grip the size of the hex's middle, so a click or drag need not find the narrow hull.
  group.prepend(el("circle", { cx: x, cy: y, r: R * 0.6 * scale, fill: "transparent", class: "grip" }));
  const nameY = base.y + (SQRT3 / 2) * R + 12 + (count > 1 ? index * 13 : 0);
  const tag = pretty(ship.name) + (ship.owner !== ship.side ? " (prize)" : "") + (ship.afoul ? " · afoul" : "");
  group.append(el("text", { x: base.x, y: nameY, class: "ship-name" }, tag));
  const marks = ["hull", "crew", "guns", "masts"].filter((k) => ship[k]).map((k) => `${k[0].toUpperCase()}${ship[k]}`);
  const due = state.pending.filter(([target]) => target === ship.name).length;
  if (marks.length || due) {
    group.append(el("text", {
      x, y: base.y - (SQRT3 / 2) * R - 3 - (count > 1 ? index * 13 : 0), class: "hit-marks",
      "data-hits": `hull ${ship.hull} crew ${ship.crew} guns ${ship.guns} masts ${ship.masts}`,
    }, [...marks, due ? `+${due} due` : ""].filter(Boolean).join(" ")));
  }
  steering(ctx, svg, group, ship);
  return group;
}

/** Click to select; drag onto the hex ahead or off a bow to steer; keyboard: Enter selects, arrows steer. */
function steering(ctx, svg, group, ship) {
  let ghost = null;
  clickOrDrag(group, {
    click: () => {
      // A ship on a hex the chosen ship may sail or turn to stands for that hex (running afoul).
      const step = ctx.selected && ctx.selected !== ship.name && helmStep(ctx, ctx.selected, ship.hex);
      if (step && offered(ctx, ctx.selected, step)) planStep(ctx, ctx.selected, step);
      else ctx.select(ship.name);
    },
    start: () => {
      ghost = el("circle", { r: R * 0.45, class: "drag-ghost", fill: "none", stroke: "#b45309", "stroke-width": 3,
        "stroke-dasharray": "5 3", "pointer-events": "none" });
      svg.querySelector(".layer-overlay").append(ghost);
    },
    move: (event) => {
      const at = svgPoint(svg, event);
      ghost.setAttribute("cx", at.x);
      ghost.setAttribute("cy", at.y);
    },
    drop: (event) => {
      ghost.remove();
      const at = svgPoint(svg, event);
      const hex = hexAt(at.x, at.y);
      steer(ctx, ship.name, onMap(ctx.state, hex) ? hexName(hex.col, hex.row) : null);
    },
  });
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      restoreFocus = ship.name;
      ctx.select(ship.name);
    } else if (ARROW_KEYS[event.key] && ctx.selected === ship.name) {
      restoreFocus = ship.name;
      planStep(ctx, ship.name, ARROW_KEYS[event.key]);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });
}

function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// --- the keyboard's cursor ----------------------------------------------------------------------------------
function drawn(view, name) {
  const at = parseHex(name);
  return Boolean(at) && at.col >= view.c0 && at.col <= view.c1 && at.row >= view.r0 && at.row <= view.r1;
}

/** The hexes the page's cursor moves over (app.js, cells()): those drawn; left and right along the row,
 * up and down to the hex above or below (the map is never turned); Enter is a click on the hex. */
function cursorCells(ctx, view) {
  return {
    has: (name) => drawn(view, name),
    step: (name, dx, dy) => {
      const at = parseHex(name);
      const next = hexName(at.col + dx, at.row + dy);
      return drawn(view, next) ? next : null;
    },
    click: (name) => {
      const enter = cursorEnter(ctx, name);
      if (enter.step) return planStep(ctx, ctx.selected, enter.step);
      if (enter.ship) return ctx.select(enter.ship);
      return ctx.clickSquare(name, null);
    },
    actionsAt: (name) => {
      const enter = cursorEnter(ctx, name);
      if (enter.step) return [stepText(ctx.state, ctx.selected, enter.step)];
      if (enter.ship) return [`${enter.ship === ctx.selected ? "put down" : "choose"} ${pretty(enter.ship)}`];
      return null; // as on a square: the actions that end there
    },
  };
}

/** What a click on the hex does, as frigate's own clicks decide it: the chosen ship's step of the helm
 * onto it (the hex ahead or off either bow, where the server offers that step), else the ship there (one
 * not chosen yet first, where two lie afoul in it), else nothing of the map's own. */
function cursorEnter(ctx, name) {
  const step = ctx.selected && helmStep(ctx, ctx.selected, name);
  if (step && offered(ctx, ctx.selected, step)) return { step };
  const ships = ctx.state.ships.filter((s) => afloat(s) && s.hex === name);
  const ship = ships.find((s) => s.name !== ctx.selected && legalOf(ctx, s.name).length)
    || ships.find((s) => s.name !== ctx.selected) || ships[0];
  return { ship: ship?.name };
}

/** The cursor: a black frame with a white line inside, as on the square boards. */
function cursorMark(name) {
  const { x, y } = centre(name);
  return [el("polygon", { points: corners(x, y, R - 3), fill: "none", stroke: "#0f172a", "stroke-width": 4,
    "pointer-events": "none", class: "cursor", "data-cursor": name }),
  el("polygon", { points: corners(x, y, R - 6.5), fill: "none", stroke: "white", "stroke-width": 2, "pointer-events": "none" })];
}

// --- steering: a hex next to the bow means a step of the helm ---------------------------------------------
/** Where the ship stands for her next point: after her plot so far under SiMove (the server's notes). */
function stationOf(ctx, name) {
  const ship = ctx.state.ships.find((s) => s.name === name);
  const place = ctx.notes?.helm?.[name];
  return place ? { hex: place.hex, facing: place.facing } : { hex: ship.hex, facing: ship.facing };
}

/** ahead / port / starboard when `hex` is the hex ahead of the ship or off her port or starboard bow. */
function helmStep(ctx, name, hex) {
  const { hex: from, facing } = stationOf(ctx, name);
  for (const [step, turn] of [["ahead", 0], ["port", -1], ["starboard", 1]]) {
    const at = neighbour(from, facing, turn);
    if (hexName(at.col, at.row) === hex) return step;
  }
  return null;
}

/** Whether the server offers the step (a click takes only those; a drag or a key sends what it means). */
function offered(ctx, name, step) {
  return (ctx.actions || []).some((a) => a.text === stepText(ctx.state, name, step));
}

function stepText(state, name, step) {
  if (state.stage === "plot") return `plot ${name} ${step}`;
  if (step === "ahead") return `move ${name}`;
  return step === "stand" ? `stand ${name}` : `turn ${name} ${step}`;
}

/** Plan the step; one this seat may not take goes to the server all the same, which names the rule. */
function planStep(ctx, name, step) {
  const text = stepText(ctx.state, name, step);
  if (!ctx.seat) return hint("Only a captain with a decision to make may steer.");
  ctx.plan(text);
}

/** A ship dropped on a hex: the step that hex means, or a word on how to steer. */
function steer(ctx, name, hex) {
  const step = hex && helmStep(ctx, name, hex);
  if (step) return planStep(ctx, name, step);
  return hint(`${pretty(name)} moves one hex at a time: drop her on the hex ahead to sail on, or on the hex off ` +
    "either bow to turn that way.");
}

function hint(text) {
  const box = document.querySelector(".frigate-hint");
  if (box) box.textContent = text;
}

function clickHex(ctx, hex) {
  const step = ctx.selected && helmStep(ctx, ctx.selected, hex);
  if (step && offered(ctx, ctx.selected, step)) return planStep(ctx, ctx.selected, step);
  return ctx.clickSquare(hex, null);
}

/** The selected ship's legal steps this point, each on its hex with its cost. */
function helmTargets(ctx, state, notes) {
  const name = ctx.selected;
  if (!name || !ctx.actions?.length) return [];
  const texts = new Set(ctx.actions.map((a) => a.text));
  const { hex, facing } = stationOf(ctx, name);
  const targets = [];
  for (const [step, turn] of [["ahead", 0], ["port", -1], ["starboard", 1]]) {
    if (!texts.has(stepText(state, name, step))) continue;
    const at = neighbour(hex, facing, turn);
    if (!onMap(state, at)) continue;
    targets.push({ step, hex: hexName(at.col, at.row), cost: stepCost(notes, name, step).short });
  }
  return targets;
}

function stepCost(notes, name, step) {
  const turn = notes.helm?.[name]?.turns?.[step];
  if (!turn) return { points: 1, short: "1 pt", long: "1 point" };
  const why = turn.into_wind ? ` (${turn.cost - 1} + 1 into the wind)` : "";
  return { points: turn.cost, short: `${turn.cost} pt${turn.cost === 1 ? "" : "s"}`, long: `${plural(turn.cost, "point")}${why}` };
}

function helmMark(ctx, target) {
  const { x, y } = centre(target.hex);
  const mark = el("g", { class: "helm-target", "data-target": target.hex, "data-helm": target.step },
    el("polygon", { points: corners(x, y, R * 0.86), fill: "rgba(22, 163, 74, 0.28)", stroke: "#15803d",
      "stroke-width": 2.5, "stroke-dasharray": target.step === "ahead" ? null : "5 3" }),
    el("text", { x, y: y + R * 0.62, class: "helm-label" }, `${target.step === "ahead" ? "ahead" : target.step} ${target.cost}`));
  mark.addEventListener("click", () => planStep(ctx, ctx.selected, target.step));
  return mark;
}

/** Under SiMove, where each ship's plot (own side's, or everyone's once revealed) takes her. */
function ghosts(state, layer) {
  if (!["plot", "execute"].includes(state.stage)) return;
  for (const ship of state.ships.filter((s) => afloat(s) && s.plot.length)) {
    let hex = ship.hex;
    let facing = DIRS.indexOf(ship.facing);
    const path = [centre(hex)];
    for (const step of ship.plot) {
      if (step === "ahead") {
        const at = neighbour(hex, DIRS[facing]);
        if (!onMap(state, at)) break;
        hex = hexName(at.col, at.row);
        path.push(centre(hex));
      } else if (step !== "stand") {
        facing = (facing + (step === "port" ? 5 : 1)) % 6;
      }
    }
    const end = path[path.length - 1];
    layer.append(el("g", { class: "ghost", "data-ghost": ship.name, "pointer-events": "none" },
      el("polyline", { points: path.map((p) => `${p.x},${p.y}`).join(" "), fill: "none", stroke: "#334155",
        "stroke-width": 2, "stroke-dasharray": "4 4" }),
      el("path", { d: `M0,${-0.7 * R} L${0.25 * R},${0.55 * R} L${-0.25 * R},${0.55 * R} Z`, fill: "none", stroke: "#334155",
        "stroke-width": 2, "stroke-dasharray": "3 2", transform: `translate(${end.x},${end.y}) rotate(${facing * 60})` }),
      el("title", {}, `${pretty(ship.name)}'s plot: ${ship.plot.join(", ")}`)));
  }
}

// --- fire --------------------------------------------------------------------------------------------------
/** One entry per battery and target of the fire window's ship (hull and rigging aims share it). */
function fireChoices(ctx, notes) {
  const choices = new Map();
  for (const [text, attack] of Object.entries(notes.fire || {})) {
    const key = `${attack.battery} ${attack.target}`;
    const entry = choices.get(key) || { ...attack, actions: [] };
    entry.actions.push({ text, aim: attack.aim });
    choices.set(key, entry);
  }
  return [...choices.values()];
}

function describeAttack(attack) {
  if (!("gunnery" in attack)) {
    return `${attack.battery} chasers at ${pretty(attack.target)}: range ${attack.range}; the die is rolled twice and two 1s make a mast hit (seed, Combat 3c)`;
  }
  const bits = [`${attack.battery} broadside at ${pretty(attack.target)}: range ${attack.range}`,
    `GS ${attack.gunnery} against DS ${attack.defence}`];
  if (attack.rake) bits.push(`raking from the ${attack.rake}`);
  if (attack.half) bits.push("second side at half strength");
  bits.push(`CRT column ${attack.column}`);
  return bits.join(", ");
}

function fireLines(ctx, state, notes, layer) {
  const firer = state.windows[0] && state.ships.find((s) => s.name === state.windows[0]);
  if (!firer) return;
  const from = centre(firer.hex);
  for (const attack of fireChoices(ctx, notes)) {
    const target = state.ships.find((s) => s.name === attack.target);
    const to = centre(target.hex);
    const label = "gunnery" in attack ? `${attack.battery} ${attack.column}${attack.rake ? " rake" : ""}` : `${attack.battery} chase`;
    // The label stands off the line's middle, clear of both hulls; alongside in one hex (afoul), over it.
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    const [mx, my] = length
      ? [(from.x + to.x) / 2 + ((to.y - from.y) / length) * 18, (from.y + to.y) / 2 - ((to.x - from.x) / length) * 18]
      : [to.x, to.y - R * 0.55];
    layer.append(el("g", { class: "fire-option", "data-fire": `${firer.name}>${attack.target} ${attack.battery}`,
      "pointer-events": "none" },
    el("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#c2410c", "stroke-width": 2.5, "stroke-dasharray": "7 4" }),
    el("text", { x: mx, y: my + 4, class: "fire-label" }, label)));
  }
}

/** The last decision's hits, misses and dice, on the ships they concern. */
function hitLabels(ctx, state, layer) {
  for (const event of ctx.lastEvents || []) {
    const ship = state.ships.find((s) => s.name === (event.kind === "fired" ? event.target : event.piece));
    if (!ship || !afloat(ship) || !["hit", "fired"].includes(event.kind)) continue;
    const { x, y } = centre(ship.hex);
    const text = event.kind === "hit"
      ? (event.hits < 0 ? "crew hit repaired" : `−${event.hits} (${event.bearing.replace(/^to her /, "")})`)
      : `${pretty(event.piece)}: ${plural(event.effect, "hit")}`;
    layer.append(el("text", { x, y: y + R * 0.2, class: "hit-label", "data-hit": ship.name }, text));
  }
}

// --- the bridge: clock and wind ---------------------------------------------------------------------------
function phaseText(state) {
  if (state.outcome) return gameOverText(state.outcome);
  if (state.windows.length) {
    return `${state.end_round ? "End of segment: last fire and melee" : "Fire window"}: ${pretty(state.windows[0])}`;
  }
  if (state.rolls.length) return `Rolling for ${state.rolls[0][0]}${state.rolls[0][1] ? ` (${pretty(state.rolls[0][1])})` : ""}`;
  switch (state.phase) {
    case "sail": return "Before play: fighting sail or full sail";
    case "declare": return state.options.simove ? "Movement Declaration, in secret (SiMove)"
      : `Movement Declaration: ${state.declarer} declares`;
    case "order": return `${state.initiative} won the initiative: who moves first in each segment`;
    case "segment": return {
      start: "Segment start: fire windows", move: `Movement: ${state.mover} moves`,
      plot: "SiMove: each side plots in secret", execute: "SiMove: plots executed point by point",
      end: "End of segment: last fire and melee", close: "End of segment: damage lands",
    }[state.stage] || "Segment";
    case "end-of-turn": return "End of turn: drift, damage control, preservation";
    default: return `${state.phase[0].toUpperCase()}${state.phase.slice(1)} phase`;
  }
}

/** The clock, the wind and the phase, above the map so that they never scroll away with it. */
function bridge(ctx, state, view) {
  const width = Math.max(MIN_WIDTH, Math.min(view.width, roomForTheMap().width));
  const dice = (ctx.lastEvents || []).filter((e) => e.kind === "die-rolled");
  const height = BAND + DICE_LINE * Math.max(0, dice.length - 1); // one line for each roll
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg bridge", style: `width: ${width}px`,
    role: "group", "aria-label": "the clock and the wind" });
  const line = (x, y, text, attrs = {}) => svg.append(el("text", { x, y, class: "band-line", ...attrs }, text));
  svg.append(el("rect", { x: 0, y: 0, width, height, rx: 6, fill: "#f1f5f9" }));
  const segment = state.segment ? ` · segment ${state.segment} of 4` : "";
  line(84, 22, `Turn ${state.turn} of ${state.turns}${segment}`, { class: "clock", "data-clock": "" });
  const wind = state.wind;
  line(84, 42, `Wind from ${wind.from} (${wind.number}), ${wind.velocity}`, { "data-wind": wind.from });
  line(84, 62, `Points: blue ${state.score[0]}, red ${state.score[1]}`);
  const first = state.phase === "segment" && state.stage === "move" ? ` · first to move: ${state.order.join(" ")}` : "";
  line(10, 84, phaseText(state) + first, { "data-phase": state.phase });
  if (dice.length) {
    // Each die apart (a two-die roll is not just its sum) and what the roll decided, a line a roll.
    const faces = (d) => (d.dice && d.dice.length > 1 ? d.dice.join(" and ") : String(d.value));
    svg.append(el("text", { x: 10, y: 103, class: "band-line", "data-dice": dice.map(faces).join(" ") },
      ...dice.map((d, i) => el("tspan", { x: 10, dy: i ? DICE_LINE : 0 },
        `${i ? "" : "Dice: "}${faces(d)} for ${d.purpose}${d.decided ? `: ${d.decided}` : ""}`))));
  }
  windRose(wind, 40, 37, svg);
  return svg;
}

function windRose(wind, cx, cy, layer) {
  const words = `wind from ${wind.from} (${wind.number}), ${wind.velocity}`;
  const rose = el("g", { class: "wind-rose", role: "img", "aria-label": words }, el("title", {}, words),
    el("circle", { cx, cy, r: 31, fill: "white", stroke: "#334155" }));
  DIRS.forEach((dir, index) => {
    const t = ((index * 60 - 90) * Math.PI) / 180;
    rose.append(el("text", { x: cx + Math.cos(t) * 21, y: cy + Math.sin(t) * 21 + 4, class: "rose-label" }, dir));
  });
  // The arrow blows from the wind's hexside towards the opposite one.
  rose.append(el("path", { d: "M0,-17 L6,9 L0,4 L-6,9 Z", fill: "#b45309", stroke: "#0f172a", class: "wind-arrow",
    transform: `translate(${cx},${cy}) rotate(${DIRS.indexOf(wind.from) * 60 + 180})` }));
  layer.append(rose);
}

// --- orders under the map ---------------------------------------------------------------------------------
function orderButton(ctx, text, label, legal) {
  return html("button", { type: "button", "data-order": text, disabled: !legal, onclick: () => ctx.plan(text) }, label);
}

function orders(ctx, state, notes) {
  const box = html("section", { class: "frigate-orders", "aria-label": "orders" });
  if (state.windows.length) box.append(...fireWindow(ctx, state, notes));
  else if (state.phase === "sail") box.append(...sailing(ctx, state));
  else if (state.phase === "declare") box.append(...declaration(ctx, state));
  else if (state.phase === "order") box.append(...firstMovers(ctx, state));
  else if (["move", "plot"].includes(state.stage)) box.append(...helmPanel(ctx, state, notes));
  if (state.pending.length) {
    box.append(html("p", { class: "pending-hits" }, "Hits landing at the segment's end: ",
      state.pending.map(([target, kind, firer]) => `${kind} on ${pretty(target)} (from ${pretty(firer)})`).join("; ")));
  }
  box.append(html("p", { class: "frigate-hint", role: "status" }));
  return box;
}

function fireWindow(ctx, state, notes) {
  const name = state.windows[0];
  const ship = state.ships.find((s) => s.name === name);
  const legal = new Set(legalOf(ctx, name));
  const mine = legal.size > 0;
  const parts = [html("h3", {}, `${state.end_round ? "Last fire of the segment" : "Fire window"}: ${pretty(name)} (${sideName(ship)})`)];
  if (!mine) parts.push(html("p", { class: "muted" }, `${sideName(ship)} decides whether ${pretty(name)} fires.`));
  const list = html("ul", { class: "fire-options" });
  for (const attack of fireChoices(ctx, notes)) {
    const buttons = attack.actions.map((a) => orderButton(ctx, a.text, a.aim ? `fire at the ${a.aim}` : "fire", legal.has(a.text)));
    list.append(html("li", { "data-attack": `${attack.battery} ${attack.target}` }, describeAttack(attack), " ", buttons));
  }
  parts.push(list);
  const row = html("div", { class: "row" });
  if (legal.has(`melee ${name}`)) row.append(orderButton(ctx, `melee ${name}`, `Melee with ${pretty(ship.afoul)}`, true));
  if (mine) row.append(orderButton(ctx, `hold ${name}`, "Hold fire", legal.has(`hold ${name}`)));
  if (legal.has(`pass ${name}`)) row.append(orderButton(ctx, `pass ${name}`, "Pass to segment end", true));
  parts.push(row);
  return parts;
}

function sailing(ctx, state) {
  const parts = [html("h3", {}, "Before play: full or fighting sail"),
    html("p", { class: "muted" }, "Fighting sail (seed, Movement 5) halves a ship's maximum Movement Allowance, " +
      "fractions lost; in return 1 or 2 mast hits no longer slow her and an enemy aiming at her rigging rolls 1 less. " +
      "The choice holds for the whole game and is kept secret until both sides have made it.")];
  const list = html("ul", {});
  for (const ship of state.ships.filter(afloat)) {
    const legal = legalOf(ctx, ship.name).filter((text) => text.startsWith("sail "));
    if (legal.length) {
      list.append(html("li", {}, html("strong", {}, pretty(ship.name)), " ",
        legal.map((text) => orderButton(ctx, text, `${text.split(" ")[2]} sail`, true))));
    }
  }
  parts.push(list);
  return parts;
}

function declaration(ctx, state) {
  const parts = [html("h3", {}, "Movement Declaration")];
  const list = html("ul", { class: "declarations" });
  for (const ship of state.ships.filter(afloat)) {
    const legal = legalOf(ctx, ship.name).filter((t) => /^(declare|cut) /.test(t));
    const [low, high, why] = ship.allowed || [0, 0, ""];
    const status = ship.declared ? `Declared MA ${ship.ma}${ship.cut ? " (cutting loose)" : ""}` : "Not declared yet";
    const buttons = legal.map((text) => orderButton(ctx, text, declareLabel(text), true));
    const range = low === high ? `MA ${low} only` : `MA ${low} to ${high}`;
    list.append(html("li", { "data-allowed": ship.name },
      html("strong", {}, pretty(ship.name)), ` (${sideName(ship)}): ${range}, ${why}. ${status}. `, buttons));
  }
  parts.push(list);
  // The announcements of the phase (seed, Sequence of Play 1): strike, destroy a prize, change formation.
  const others = (ctx.seat ? ctx.view.legal?.[ctx.seat] || [] : []).flatMap((g) => g.actions.map((a) => a.text))
    .filter((text) => !/^(declare|cut) /.test(text));
  if (others.length) {
    parts.push(html("div", { class: "row" }, others.map((text) => orderButton(ctx, text, ANNOUNCEMENTS[text.split(" ")[0]]
      ?.(text.split(" ")) || text, true))));
  }
  return parts;
}

const ANNOUNCEMENTS = {
  strike: ([, ship]) => `${pretty(ship)} strikes her colours`,
  destroy: ([, ship]) => `destroy the prize ${pretty(ship)}`,
  form: ([, squadron, shape]) => `${squadron}: form ${shape.replace("-", " ")}`,
  "end-declare": () => "Declarations complete",
};

/** The initiative winner chooses the side that moves first in each of the four segments. */
function firstMovers(ctx, state) {
  const choices = legalOf(ctx, null);
  const parts = [html("h3", {}, `Initiative: ${state.initiative} chooses who moves first in each segment`)];
  if (choices.length) {
    parts.push(html("ul", { class: "first-movers" }, choices.map((text) => html("li", {},
      orderButton(ctx, text, text.split(" ").slice(1).map((side, i) => `${i + 1}: ${side}`).join(", "), true)))));
  }
  return parts;
}

function declareLabel(text) {
  const [verb, , ma, way] = text.split(" ");
  if (verb === "cut") return `cut loose, MA ${ma}`;
  return way ? `MA 0, free turn to ${way}` : `MA ${ma}`;
}

function helmPanel(ctx, state, notes) {
  const parts = [html("h3", {}, state.stage === "plot" ? "SiMove plot" : `Movement: ${state.mover}`)];
  const name = ctx.selected;
  const ship = name && state.ships.find((s) => s.name === name);
  const movers = (ctx.seat ? ctx.view.legal?.[ctx.seat] || [] : []).map((g) => g.piece).filter(Boolean);
  if (!ship) {
    if (movers.length) {
      parts.push(html("p", {}, "Choose a ship to steer: ",
        movers.map((piece) => html("button", { type: "button", "data-select": piece, onclick: () => ctx.select(piece) }, pretty(piece)))));
    }
    return parts;
  }
  const place = notes.helm?.[name];
  const legal = new Set(legalOf(ctx, name));
  const station = stationOf(ctx, name);
  const points = place
    ? `${plural(place.left, "point")} left this segment, ${place.to_come} in all to the end of the turn`
    : `${plural(ship.left, "point")} left`;
  parts.push(html("p", { "data-helm-of": name }, `${pretty(name)} at ${station.hex} facing ${station.facing}: ${points}.`));
  if (state.stage === "plot" && ship.plot.length) parts.push(html("p", {}, `Plotted so far: ${ship.plot.join(", ")}.`));
  const list = html("ul", { class: "helm-options" });
  for (const step of ["ahead", "port", "starboard", "stand"]) {
    const text = stepText(state, name, step);
    if (!legal.has(text)) continue;
    const cost = stepCost(notes, name, step);
    const at = step === "ahead" ? neighbour(station.hex, station.facing) : null;
    const where = at ? ` to ${hexName(at.col, at.row)}` : step === "stand" ? "" : ` (to ${DIRS[(DIRS.indexOf(station.facing) + (step === "port" ? 5 : 1)) % 6]})`;
    const borrow = place && cost.points > place.left ? `, borrowing ${cost.points - place.left} from later segments` : "";
    list.append(html("li", {}, orderButton(ctx, text, `${STEP_WORDS[step]}${where}`, true), ` ${cost.long}${borrow}`));
  }
  // A ship with nothing to do in this step says why, as the rules would refuse her (afoul, not her side's move),
  // in place of a list a screen reader would announce as empty.
  const idle = notes.idle?.[name];
  if (list.children.length) parts.push(list);
  else if (idle) parts.push(html("p", { "data-idle-of": name }, idle));
  return parts;
}

// --- every ship's state and hits ------------------------------------------------------------------------------
function shipTable(state) {
  const head = ["ship", "side", "hex", "facing", "MA", "hull", "crew", "guns", "masts", "notes"];
  const rows = state.ships.map((ship) => {
    const notes = [];
    if (!afloat(ship)) notes.push(ship.status);
    if (ship.owner !== ship.side) notes.push(`prize of ${sideName(ship)}`);
    if (ship.afoul) notes.push(`afoul of ${pretty(ship.afoul)}`);
    if (ship.fighting_sail) notes.push("fighting sail");
    if (ship.fired.length) notes.push(`fired ${ship.fired.join(", ")}`);
    if (ship.course) notes.push(`must sail ${ship.course}`);
    if (ship.striking) notes.push("striking");
    const ma = ship.declared ? `${ship.ma}${state.segment ? ` (${ship.left} left)` : ""}` : "–";
    return html("tr", { "data-ship-row": ship.name, class: `side-${SIDES[ship.side]}` },
      html("th", { scope: "row" }, `${pretty(ship.name)} (${ship.rating})`), html("td", {}, sideName(ship)),
      html("td", {}, afloat(ship) ? ship.hex : "–"), html("td", {}, afloat(ship) ? ship.facing : "–"), html("td", {}, ma),
      html("td", {}, `${ship.hull}/${ship.hull_boxes}`), html("td", {}, String(ship.crew)), html("td", {}, String(ship.guns)),
      html("td", {}, String(ship.masts)), html("td", {}, notes.join("; ")));
  });
  return html("section", { class: "frigate-ships", "aria-label": "ships", tabindex: 0 }, // it scrolls sideways on a phone
    html("table", {}, html("caption", {}, "Ships and hits (hull hits of hull boxes)"),
      html("tr", {}, head.map((h) => html("th", { scope: "col" }, h))), rows));
}

/** The map in words (app.js reads it out and lists it): each ship with her hex, facing and damage; the
 * wind, turn and phase. */
export function describe(ctx) {
  const state = ctx.state;
  return {
    pieces: state.ships.map((ship) => ({ piece: ship.name, name: pretty(ship.name), side: sideName(ship),
      at: afloat(ship) ? ship.hex : null, text: describeShip(state, ship) })),
    // the step as the bridge names it: the side that acts is named only where one side acts alone
    notes: [`Turn ${state.turn} of ${state.turns}${state.segment ? `, segment ${state.segment} of 4` : ""}: ${phaseText(state)}. ` +
      `Wind from the ${state.wind.from}, ${state.wind.velocity}. Hexes are named column then row (1406: column 14, row 6).`],
  };
}
