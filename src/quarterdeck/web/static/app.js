// The Quarterdeck browser client: the lobby and the game page.
//
// The browser never decides a rule. The server sends, for the seats this browser holds, the legal
// actions in notation (grouped by piece, with the square each ends on) and the state as JSON;
// the client only draws it (with the game's own module from /static/games/<game>.js) and posts
// notation back. A turn being planned is "previewed" by the server, so it can be taken back until
// it is committed; updates arrive over a WebSocket with a version number.
import { eventSquares, parseSquare, resultWords, squareName, turnsOf } from "./board.js";

const app = document.getElementById("app");

// Events that settle something (a volley's hits, a strike, a combat's outcome): shown in bold and
// briefly animated when they arrive; with the fire, defence and attacks behind them they make the
// "last exchange" shown beside the board.
const RESULT_KINDS = new Set(["hit", "struck", "silenced", "sunk", "captured", "eliminated", "survived", "escaped"]);
const EXCHANGE_KINDS = new Set([...RESULT_KINDS, "fired", "defended", "attacked", "supported", "die-rolled"]);
const FRESH_MS = 4000; // how long a newly arrived result stays animated
const PHONE = 640; // pixels wide: a board opens zoomed in (and pans) where its text would read below MIN_TEXT
const MIN_TEXT = 12;
const MAX_ZOOM = 4;
const connection = document.getElementById("connection");
// What a focused control is known by across a redraw, and the parts of the page the focus falls back to.
/** An action's notation without its first word ("move Revenge turn 0 ..." -> "Revenge turn 0 ..."): what
 * the command line takes for the whole action, as the terminal does. */
const withoutFirstWord = (text) => text.split(" ").slice(1).join(" ");
const FOCUS_NAMES = ["data-action", "data-piece-button", "data-shortcut", "data-order", "data-number", "data-piece"];
const FOCUS_ZONES = [".choices", "#legal-actions", ".pending", "#replay", "#moves", ".board", ".side .row"];

// --- small helpers -------------------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

const saved = {
  games() { return JSON.parse(localStorage.getItem("quarterdeck.games") || "{}"); },
  game(id) { return this.games()[id] || null; },
  keep(id, data) {
    const games = this.games();
    games[id] = { ...(games[id] || {}), ...data };
    localStorage.setItem("quarterdeck.games", JSON.stringify(games));
  },
  // Kept apart from the games: a spectator who turns the board holds no seat there.
  flipped(id) { return JSON.parse(localStorage.getItem("quarterdeck.flipped") || "{}")[id]; },
  setFlipped(id, value) {
    localStorage.setItem("quarterdeck.flipped", JSON.stringify({ ...JSON.parse(localStorage.getItem("quarterdeck.flipped") || "{}"), [id]: value }));
  },
  muted() { return localStorage.getItem("quarterdeck.muted") === "1"; },
  setMuted(value) { localStorage.setItem("quarterdeck.muted", value ? "1" : "0"); },
};

/** After a mistyped action: the legal action of the same verb closest to what was typed, word by word
 * ("place Junk": "place Junk a1"), and how many there are. */
function verbExample(typed, legal) {
  const words = typed.toLowerCase().trim().split(/\s+/);
  const same = legal.filter((text) => text.split(" ")[0].toLowerCase() === words[0]);
  if (!same.length) return null;
  const common = (text) => {
    const theirs = text.toLowerCase().split(" ");
    let count = 0;
    while (count < words.length && count < theirs.length && theirs[count] === words[count]) count += 1;
    return count;
  };
  const best = same.reduce((a, b) => (common(b) > common(a) ? b : a));
  return `${words[0]} now: e.g. ${best}${same.length > 1 ? ` (${same.length} in all)` : ""}.`;
}

class ApiError extends Error {
  constructor(status, body) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

let requestsInFlight = 0; // shown as <body data-busy> so tests and styles can tell

async function api(path, options = {}) {
  requestsInFlight += 1;
  document.body.dataset.busy = "true";
  try {
    return await request(path, options);
  } finally {
    requestsInFlight -= 1;
    if (!requestsInFlight) delete document.body.dataset.busy;
  }
}

async function request(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : { detail: text });
  return data;
}

// --- routing ---------------------------------------------------------------------------------------
function route() {
  const match = /^\/game\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  return match ? openGame(match[1]) : showLobby();
}

// --- the lobby -------------------------------------------------------------------------------------
async function showLobby() {
  connection.textContent = "";
  const [catalogue, ongoing, finished] = await Promise.all([
    api("/api/catalogue"),
    // Public games, and this browser's own (never listed to strangers).
    ...["ongoing", "finished"].map((status) => api(`/api/games?status=${status}&ids=${Object.keys(saved.games()).join(",")}`)),
  ]);
  const form = newGameForm(catalogue);
  document.title = "Quarterdeck: the lobby";
  app.replaceChildren(h("h1", { class: "page-title" }, "Quarterdeck: start or open a game"), h("div", { class: "lobby" },
    h("div", {},
      h("section", { class: "card" }, h("h2", {}, "New game"), form),
      h("section", { class: "card", "aria-labelledby": "import-title" },
        h("h2", { id: "import-title" }, "Open a saved game"), importForm(catalogue))),
    h("div", {},
      h("section", { class: "card" }, h("h2", {}, "Ongoing games"), gamesTable(ongoing.games)),
      h("section", { class: "card" }, h("h2", {}, "Finished games"), gamesTable(finished.games)))));
}

function newGameForm(catalogue) {
  const games = catalogue.games;
  const gameSelect = h("select", { name: "game", id: "game-select" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const scenarioSelect = h("select", { name: "scenario", id: "scenario-select" });
  const seatSelect = h("select", { name: "seat", id: "seat-select" });
  const briefing = h("p", { id: "briefing" });
  const optionFields = h("fieldset", { id: "scenario-options", hidden: true });
  // The optional rules stay folded until asked for: a newcomer reaches Start without them.
  const optionsToggle = h("button", { type: "button", id: "scenario-options-toggle",
    "aria-expanded": "false", "aria-controls": "scenario-options" });
  optionsToggle.addEventListener("click", () => {
    optionFields.hidden = !optionFields.hidden;
    optionsToggle.setAttribute("aria-expanded", String(!optionFields.hidden));
  });
  const ladder = levelLadder(catalogue);
  const levelSelect = h("select", { name: "level", id: "level-select", "aria-describedby": "level-about" },
    levelOptions(ladder));
  const levelAbout = h("p", { class: "muted", id: "level-about" });
  const chosenGame = () => games.find((g) => g.name === gameSelect.value);
  // A level's strength and time, and what the chosen game says of it (its own slips, a level that
  // measured no stronger than the one below).
  const describeLevel = () => {
    const level = ladder.find((l) => l.spec === levelSelect.value);
    const note = chosenGame()?.level_notes?.[levelSelect.value];
    levelAbout.textContent = level
      ? [level.strength ? `${capitalised(level.strength)}.` : "", timePerMove(level), note || ""].filter(Boolean).join(" ")
      : "";
  };
  levelSelect.addEventListener("change", describeLevel);
  const error = h("div");
  const chosenScenario = () => chosenGame().scenarios.find((s) => s.name === scenarioSelect.value);
  const fill = () => {
    const game = chosenGame();
    scenarioSelect.replaceChildren(...game.scenarios.map((s) =>
      h("option", { value: s.name, selected: s.name === game.default_scenario }, s.title)));
    describe();
    describeLevel();
  };
  // The briefing in full, and the scenario's options as fields holding their defaults.
  const describe = () => {
    const scenario = chosenScenario();
    briefing.textContent = scenario?.briefing || "";
    // Seats are the scenario's own (Naval Warfare's duel is fought by the British and the French).
    const sides = scenario?.sides || {};
    seatSelect.replaceChildren(...(scenario?.seats || []).map((seat) =>
      h("option", { value: seat }, sides[seat] ? `${seat}: ${sides[seat]}` : seat)));
    const options = Object.entries(scenario?.options || {});
    optionsToggle.hidden = !options.length;
    if (!options.length) optionFields.hidden = true;
    optionsToggle.setAttribute("aria-expanded", String(!optionFields.hidden));
    optionsToggle.textContent = `Scenario options: ${options.length}, the defaults set`;
    optionFields.replaceChildren(h("legend", {}, "Scenario options"),
      ...options.map(([name, value]) => optionField(name, value, scenario.notes?.[name], scenario.choices?.[name])));
  };
  gameSelect.addEventListener("change", fill);
  scenarioSelect.addEventListener("change", describe);
  if (games.length) fill();
  else describeLevel();
  const opponent = (value, text, checked) => h("label", {},
    h("input", { type: "radio", name: "opponent", value, checked }), " ", text);
  const form = h("form", {},
    h("label", {}, "Game ", gameSelect),
    h("label", {}, "Scenario ", scenarioSelect),
    h("section", { class: "briefing", "aria-labelledby": "briefing-title" }, h("h3", { id: "briefing-title" }, "Briefing"), briefing),
    h("fieldset", {}, h("legend", {}, "Opponent"),
      opponent("computer", "The computer", true), h("label", {}, "Its level ", levelSelect), levelAbout,
      opponent("local", "A person at this screen"),
      opponent("invite", "A friend, by invitation link")),
    h("label", {}, "Your seat ", seatSelect),
    optionsToggle, optionFields,
    h("button", { class: "primary", type: "submit", id: "start-game" }, "Start"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.replaceChildren();
    // Only what differs from the scenario's defaults is sent: the record then names what was changed.
    const options = {};
    for (const [name, fallback] of Object.entries(chosenScenario()?.options || {})) {
      const value = optionValue(form.querySelector(`[data-option="${name}"]`), fallback);
      if (value !== fallback) options[name] = value;
    }
    try {
      const created = await api("/api/games", { method: "POST", body: {
        game: gameSelect.value, scenario: scenarioSelect.value, options,
        opponent: form.elements.opponent.value, seat: seatSelect.value, level: levelSelect.value,
      } });
      saved.keep(created.id, { token: created.token, invitations: created.invitations });
      navigate(`/game/${created.id}`);
    } catch (exc) {
      error.replaceChildren(h("p", { class: "message error", role: "alert" }, exc.message));
    }
  });
  return form;
}

/** Each opponent by name, with how strong it is and how long it thinks (the server's own words). */
function levelLadder(catalogue) {
  return catalogue.level_info?.length ? catalogue.level_info
    : catalogue.levels.map((spec) => ({ spec, strength: "", about: spec }));
}

function levelOptions(ladder) {
  return ladder.map((level) => h("option", { value: level.spec, selected: level.spec === "greedy" },
    level.strength ? `${level.spec}: ${level.strength}` : level.spec));
}

/** A saved record (.qdr, as "Download the record" and the terminal's `save` write it), replayed by
 * the server into a new game: a finished one to step through, an unfinished one to play on against
 * the opponent its record names (or the one chosen here). A record the rules refuse makes nothing. */
function importForm(catalogue) {
  const file = h("input", { type: "file", id: "record-file", accept: ".qdr,.txt,text/plain", required: true });
  const levelSelect = h("select", { id: "import-level" }, levelOptions(levelLadder(catalogue)));
  const opponent = (value, text, checked) => h("label", {},
    h("input", { type: "radio", name: "import-opponent", value, checked }), " ", text);
  const error = h("div");
  const form = h("form", { id: "import-form" },
    h("label", {}, "Saved record (.qdr) ", file),
    h("fieldset", {}, h("legend", {}, "Play on against"),
      opponent("", "The opponent the record names", true),
      opponent("computer", "The computer"), h("label", {}, "Its level ", levelSelect),
      opponent("local", "A person at this screen"),
      opponent("invite", "A friend, by invitation link")),
    h("button", { type: "submit", id: "import-game" }, "Open the record"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.replaceChildren();
    const chosen = form.elements["import-opponent"].value;
    try {
      const imported = await api("/api/import", { method: "POST", body: {
        record: await file.files[0].text(), opponent: chosen || null,
        level: chosen === "computer" ? levelSelect.value : null,
      } });
      saved.keep(imported.id, { token: imported.token, invitations: imported.invitations });
      await navigate(`/game/${imported.id}`);
      const against = { computer: `the computer (${imported.level})`, local: "each other at this screen",
        invite: "a friend: send the invitation link" }[imported.opponent];
      if (imported.status === "finished") {
        await page.replayTo(0); // a finished game opens at its start, to be stepped through
        page.say(`The record's ${imported.moves} moves replayed: step through them with the move list.`, "info");
      } else {
        page.say(`The record's ${imported.moves} moves replayed; you play ${imported.seats.join(" and ")} against ${against}.`, "info");
      }
    } catch (exc) {
      error.replaceChildren(h("p", { class: "message error", role: "alert" }, exc.message));
    }
  });
  return form;
}

/** One scenario option: a box to tick, a list of its names, or a field, with what it does beneath
 * (read out with the field by a screen reader). */
function optionField(name, value, note, names) {
  const id = `option-${name}`;
  const about = h("p", { class: "muted option-note", id: `${id}-note` }, note || "");
  const shared = { id, "data-option": name, "aria-describedby": `${id}-note` };
  let field;
  if (typeof value === "boolean") {
    field = h("label", {}, h("input", { ...shared, type: "checkbox", checked: value }), ` ${name}`);
  } else if (names?.length) {
    field = h("label", {}, `${name} `, h("select", shared,
      names.map((choice) => h("option", { value: choice, selected: choice === value }, choice))));
  } else {
    const number = typeof value === "number";
    field = h("label", {}, `${name} `, h("input", { ...shared, type: number ? "number" : "text",
      step: number && Number.isInteger(value) ? 1 : undefined, value: String(value), class: "option-input" }));
  }
  return h("div", { class: "option" }, field, about);
}

function optionValue(field, fallback) {
  if (!field) return fallback;
  if (typeof fallback === "boolean") return field.checked;
  if (typeof fallback === "number") return field.value === "" ? fallback : Number(field.value);
  return field.value;
}

/** A level's time per move, in words. */
function timePerMove(level) {
  if (level.seconds === 0) return "Moves at once.";
  if (level.seconds) return `Thinks up to ${level.seconds} s a move.`;
  return level.about ? `${capitalised(level.about)}.` : "";
}

function gamesTable(games) {
  if (!games.length) return h("p", { class: "muted" }, "None yet.");
  return h("table", { class: "games-table" },
    h("tr", {}, ["Game", "Players", "Moves", "Result", "Open"].map((name) => h("th", { scope: "col" }, name))),
    games.map((g) => h("tr", {},
      h("td", {}, `${g.game} (${g.scenario || "standard"})`),
      h("td", {}, Object.entries(g.players).map(([seat, who]) => `${seat}: ${who}`).join(", ")),
      h("td", {}, g.version),
      h("td", {}, g.status === "finished" ? `${resultWords(g.result)} (${g.termination})` : "in play"),
      h("td", {}, h("a", { href: `/game/${g.id}`, onclick: (e) => { e.preventDefault(); navigate(`/game/${g.id}`); } },
        saved.game(g.id) && g.status === "ongoing" ? "Resume" : g.status === "finished" ? "Replay" : "Watch")))));
}

function navigate(path) {
  history.pushState({}, "", path);
  return route();
}

// --- the game page ---------------------------------------------------------------------------------
let page = null; // the game on screen

async function openGame(id) {
  page?.close();
  const invitation = new URLSearchParams(location.hash.slice(1)).get("invite");
  let welcome = null;
  if (invitation && !saved.game(id)) {
    try {
      const joined = await api(`/api/games/${id}/join`, { method: "POST", body: { invitation } });
      saved.keep(id, { token: joined.token });
      welcome = `Welcome aboard: you play ${joined.seats.join(" and ")}.`;
    } catch (exc) {
      app.replaceChildren(h("p", { class: "message error" }, `Could not join: ${exc.message}`));
      return;
    }
  }
  if (invitation) history.replaceState({}, "", `/game/${id}`);
  page = new GamePage(id, saved.game(id)?.token || null);
  if (welcome) page.message = { text: welcome, kind: "info" };
  await page.start();
}

class GamePage {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.view = null;
    this.history = [];
    this.pending = [];       // actions of a turn being planned, not stored yet
    this.preview = null;     // the server's view after the pending actions
    this.selected = null;    // the piece whose actions are shown
    this.choices = null;     // several actions end on the clicked square: choose one
    this.cursor = null;      // the keyboard's square (or hex)
    this.grid = null;        // a square board's [width, height]
    this.map = null;         // a hex map's cells for the cursor (the game module's, see cells())
    this.message = null;
    this.replayAt = null;    // the game shown after this many moves (null: as it stands)
    this.replayState = null;
    this.drawing = null;
    this.socket = null;
    this.closed = false;
    this.committing = false;
    this.retry = 500;
    this.arrived = new Map(); // entry number -> when it arrived (to animate what is new)
  }

  async start() {
    try {
      const detail = await api(`/api/games/${this.id}`, { token: this.token });
      this.view = detail.view;
      this.history = detail.history;
    } catch (exc) {
      app.replaceChildren(h("p", { class: "message error" }, exc.message));
      return;
    }
    this.drawing = await loadDrawing(this.view.game);
    // The computer's thinking time ticks on without a redraw of the page.
    this.ticker = setInterval(() => {
      const elapsed = document.getElementById("thinking-elapsed");
      if (elapsed && this.thinking) elapsed.textContent = secondsSince(this.thinking.since);
    }, 1000);
    // A board is drawn from its first seat's side; whoever holds only another seat sees it turned.
    const you = this.view.you;
    this.flipped = saved.flipped(this.id) ?? (you.length === 1 && this.view.seats.indexOf(you[0]) > 0);
    this.announced = this.history.length; // the moves before the page opened are in the move list, not read out
    this.keys = (event) => this.shortcut(event);
    document.addEventListener("keydown", this.keys);
    this.connect();
    this.render();
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
    this.socket?.close();
  }

  // --- the socket ---------------------------------------------------------------------------------
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${this.id}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 500;
      connection.textContent = "connected";
      socket.send(JSON.stringify({ type: "hello", token: this.token, since: this.view?.version ?? null }));
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (this.closed) return;
      connection.textContent = "reconnecting…";
      setTimeout(() => !this.closed && this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    });
  }

  receive(message) {
    if (message.type === "sync") {
      this.history = message.history;
      this.adopt(message.view);
    } else if (message.type === "update") {
      this.absorb(message);
    } else if (message.type === "error") {
      this.say(message.detail, "error");
    }
  }

  /** Fold an update (from the socket or an HTTP reply) in, once, in version order. */
  absorb(update) {
    for (const entry of update.entries) {
      if (entry.number === this.history.length + 1) {
        this.history.push(entry);
        this.arrived.set(entry.number, Date.now());
      }
    }
    if (update.version >= (this.view?.version ?? 0)) this.adopt(update.view);
  }

  adopt(view) {
    const before = this.view;
    this.view = view;
    if (before && before.version !== view.version && this.pending.length && !this.committing) {
      this.pending = [];
      this.preview = null;
      this.say("The game moved on; your planned turn was dropped.", "info");
    } else if (view.status === "finished" && this.pending.length) {
      this.forgetPlan(); // over without a move (a draw agreed): nothing planned can be played
    }
    if (before && view.version !== before.version && this.actingSeat() && !this.actingSeat(before)) {
      if (this.drawing.onTurnPassed && !saved.muted()) this.drawing.onTurnPassed(view);
    }
    this.render();
  }

  // --- what this browser may do -------------------------------------------------------------------
  shown() { return this.preview || this.view; }

  actingSeat(view = this.shown()) {
    return view.to_act.find((seat) => view.you.includes(seat) && view.legal[seat]) || null;
  }

  groups() {
    const seat = this.actingSeat();
    return seat && this.replayAt === null ? this.shown().legal[seat] : [];
  }

  actionsOf(piece) {
    return this.groups().find((group) => group.piece === piece)?.actions || [];
  }

  select(piece) {
    this.selected = this.selected === piece ? null : piece;
    this.choices = null;
    this.render();
  }

  clickSquare(square, piece = null) {
    if (this.selected) {
      const here = this.actionsOf(this.selected).filter((a) => a.destination === square);
      if (here.length === 1) return this.plan(here[0].text);
      if (here.length > 1) return this.choose(here);
    }
    if (piece && this.actionsOf(piece).length) return this.select(piece);
    const anyHere = this.groups().flatMap((g) => g.actions).filter((a) => a.destination === square);
    if (anyHere.length === 1) return this.plan(anyHere[0].text);
    if (anyHere.length > 1) return this.choose(anyHere);
    this.selected = null;
    this.choices = null;
    this.render();
  }

  choose(actions) {
    this.choices = actions;
    this.render();
    document.querySelector(".choices button")?.focus();
  }

  /** Add an action to the turn being planned; the server previews it, and the turn is committed
   * as soon as this seat has nothing more to decide. */
  /** Plan one more decision of this turn (sent at once when the turn needs no more). A refusal is said,
   * with what `explain` adds to it. */
  async plan(text, explain = () => "") {
    this.choices = null;
    this.message = null;
    const seat = this.actingSeat();
    const actions = [...this.pending, text];
    try {
      const preview = await api(`/api/games/${this.id}/preview`, { method: "POST", token: this.token,
        body: { version: this.view.version, actions, seat } });
      this.pending = actions;
      this.preview = preview;
      this.selected = preview.legal[seat]?.some((g) => g.piece === this.selected) ? this.selected : null;
      if (!preview.to_act.includes(seat) || preview.status === "finished") return this.commit();
    } catch (exc) {
      this.say(`${exc.message}${explain(exc)}`, "error");
    }
    this.render();
  }

  async commit() {
    if (!this.pending.length) return;
    const seat = this.actingSeat(this.view);
    this.committing = true; // our own move may come back over the socket before the reply
    try {
      const update = await api(`/api/games/${this.id}/moves`, { method: "POST", token: this.token,
        body: { version: this.view.version, actions: this.pending, seat } });
      this.forgetPlan();
      this.absorb(update);
    } catch (exc) {
      if (exc.status === 409) this.forgetPlan();
      this.say(exc.message, "error");
    } finally {
      this.committing = false;
      // The socket may already have brought newer versions than this reply: the plan is gone, so
      // draw the game as it stands now rather than the preview of the plan.
      this.render();
    }
  }

  forgetPlan() {
    this.pending = [];
    this.preview = null;
    this.selected = null;
  }

  async takeBack(index) {
    const keep = this.pending.slice(0, index);
    this.forgetPlan();
    for (const text of keep) await this.plan(text);
    this.render();
  }

  async act(path, body) {
    try {
      this.absorb(await api(`/api/games/${this.id}/${path}`, { method: "POST", token: this.token, body }));
    } catch (exc) {
      this.say(exc.message, "error");
    }
  }

  async downloadRecord() {
    const response = await fetch(`/api/games/${this.id}/record`,
      { headers: this.token ? { Authorization: `Bearer ${this.token}` } : {} });
    // .qdr: the record's name for `quarterdeck replay` and `play --load`
    const link = h("a", { href: URL.createObjectURL(await response.blob()), download: `${this.view.game}-${this.id}.qdr` });
    link.click();
    URL.revokeObjectURL(link.href);
  }

  /** Show the position after `moves` moves, during play or after it; nothing is changed, and a
   * turn being planned is kept. The last move of a game in play is the game as it stands. */
  async replayTo(moves) {
    const count = Math.max(0, Math.min(moves, this.history.length));
    if (count === this.history.length && this.view.status !== "finished") return this.backToGame();
    try {
      const replay = await api(`/api/games/${this.id}/replay?moves=${count}`, { token: this.token });
      this.replayAt = replay.moves;
      this.replayState = replay.state;
    } catch (exc) {
      return this.say(exc.message, "error");
    }
    this.render();
  }

  backToGame() {
    this.replayAt = null;
    this.replayState = null;
    this.render();
  }

  say(text, kind) {
    this.message = { text, kind };
    this.render();
    this.announce(text);
  }

  // --- keyboard -------------------------------------------------------------------------------------
  /** Keys on the board: on a square board or a hex map the arrows move a cursor whose square or hex is
   * read out, Enter acts there as a click would, Escape puts the piece down; on an open table, or from a
   * ship's own button on the hex map, they step from ship to ship (each a button of its own, read out as
   * it takes the focus). */
  key(event) {
    if (event.target !== event.currentTarget && !event.target.closest?.(".ship")) return; // a form inside the board
    const cells = event.target === event.currentTarget ? this.cells() : null;
    if (!cells) return this.shipKey(event);
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }; // as seen
    if (moves[event.key]) {
      const at = cells.has(this.cursor) ? this.cursor : null;
      this.cursor = at ? cells.step(at, ...moves[event.key]) || at : this.startingSquare(cells);
      this.render();
      this.sayCursor();
    } else if ((event.key === "Enter" || event.key === " ") && cells.has(this.cursor)) {
      cells.click(this.cursor);
    } else if (event.key === "Escape") {
      this.selected = null;
      this.choices = null;
      this.render();
    } else {
      return;
    }
    event.preventDefault();
  }

  /** The cells the cursor moves over: a square board's squares (turned with it), or the hexes a game's
   * map lays out for it (ctx.setMap: has, step, click and actionsAt); none on an open table. */
  cells() {
    if (this.map) return this.map;
    if (!this.grid) return null;
    const [width, height] = this.grid;
    const flip = this.flipped ? -1 : 1;
    return {
      has: (square) => {
        const at = parseSquare(square);
        return Boolean(at) && at.x < width && at.y < height;
      },
      step: (square, dx, dy) => { // a step on screen; ranks count upwards, and a turned board runs backwards
        const at = parseSquare(square);
        const within = (value, size) => Math.max(0, Math.min(size - 1, value));
        return squareName(within(at.x + dx * flip, width), within(at.y - dy * flip, height));
      },
      click: (square) => this.clickSquare(square,
        document.querySelector(`.piece[data-square="${square}"][data-piece]`)?.dataset.piece || null),
    };
  }

  /** Arrows on a ship's button, or on a board without cells: on to the next ship, or back to the one before. */
  shipKey(event) {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    const ships = [...event.currentTarget.querySelectorAll(".ship[tabindex]")];
    if (!ships.length) return;
    const at = ships.indexOf(document.activeElement);
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    ships[(at + step + ships.length) % ships.length].focus();
    event.preventDefault();
  }

  /** Where the cursor first appears: on the chosen piece, else on one of the player's own that may act
   * now (at one screen: of the side to act), else on one of the player's own, else on any. */
  startingSquare(cells) {
    const pieces = this.described().pieces.filter((p) => cells.has(p.at));
    const first = pieces.find((p) => p.piece === this.selected) || pieces.find((p) => p.mine && this.actionsOf(p.piece).length)
      || pieces.find((p) => p.mine) || pieces[0];
    return first?.at || (cells.has("a1") ? "a1" : null);
  }

  /** The cursor's square in words (read out at once): what stands there, the ground, and what the
   * chosen piece (or any piece) may do there. */
  sayCursor() {
    const line = document.getElementById("cursor-line");
    const words = this.cursor && this.squareWords(this.cursor);
    if (line && words && line.textContent !== words) line.textContent = words;
  }

  squareWords(square) {
    const described = this.described();
    const here = described.pieces.filter((p) => p.at === square).map((p) => p.text);
    const ground = described.terrain?.(square);
    // A map may say what Enter does on its hex (a step of the helm, a ship chosen); else the actions ending there.
    const actions = this.map?.actionsAt?.(square)
      ?? (this.selected ? this.actionsOf(this.selected) : this.groups().flatMap((g) => g.actions))
        .filter((a) => a.destination === square).map((a) => a.text);
    const can = actions.length ? ` Enter: ${actions.length === 1 ? actions[0] : `choose from ${actions.join("; ")}`}.` : "";
    return `${square}: ${here.length ? here.join("; ") : "empty"}${ground ? `; ${ground}` : ""}.${can}`;
  }

  /** The board in words, from the game module's `describe` (every piece with where it stands and
   * its state, and the ground, wind and clock); `mine` marks the pieces of the seats this browser holds. */
  described() {
    const ctx = this.lastCtx;
    if (this.words?.ctx === ctx) return this.words; // once per redraw
    const words = ctx && this.drawing.describe ? this.drawing.describe(ctx) : { pieces: [], notes: [] };
    words.ctx = ctx;
    this.words = words;
    const you = this.replayAt === null ? this.view.you : [];
    for (const piece of words.pieces) piece.mine = you.includes(piece.side);
    return words;
  }

  /** Keys anywhere on a game page (not while typing): E ends the phase, C sends the planned turn,
   * U takes the last decision back, F turns the board, B, A and T go to the board, the actions and
   * the command line, ? to the keys. */
  shortcut(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || !this.frame?.isConnected) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const focus = (...selectors) => {
      const target = selectors.map((s) => document.querySelector(s)).find(Boolean);
      target?.focus();
      return Boolean(target);
    };
    const keys = {
      e: () => this.endPhase(),
      c: () => this.commit(),
      u: () => this.pending.length && this.takeBack(this.pending.length - 1),
      f: () => this.grid && this.flip(),
      b: () => focus(".board"),
      a: () => focus(".choices button", "#legal-actions button") || this.announce("You have nothing to decide now."),
      t: () => focus("#command"),
      "?": () => focus("#keys-help"),
      escape: () => { // put the piece down, drop a choice, and back to the board
        this.selected = null;
        this.choices = null;
        this.render();
        focus(".board");
      },
    };
    const run = keys[event.key.toLowerCase()];
    if (!run) return;
    event.preventDefault();
    run();
  }

  /** The action that ends the phase (end-move, end-fire ...), planned; or why there is none. */
  endPhase() {
    const end = this.endAction();
    if (end) return this.plan(end);
    if (!this.actingSeat()) {
      this.announce("It is not your decision.");
      return null;
    }
    const names = [...new Set(this.groups().map((g) => g.piece).filter(Boolean))];
    const shown = names.slice(0, 6).join(", ") + (names.length > 6 ? ` and ${names.length - 6} more` : "");
    this.announce(`No action ends this phase: choose one of the actions${names.length ? ` (with an action now: ${shown})` : ""}.`);
    return null;
  }

  endAction() {
    return this.groups().filter((g) => g.piece === null).flatMap((g) => g.actions).map((a) => a.text)
      .find((text) => /^end(-|$)/.test(text)) || null;
  }

  // --- what a screen reader hears -----------------------------------------------------------------------
  /** One line in the game's live log (polite: read once, after what is being read). */
  announce(text) {
    if (!this.said || !text) return;
    this.spoken = (this.spoken || 0) + 1; // lines said so far (the log keeps only the last 60)
    this.said.append(h("p", {}, text));
    while (this.said.children.length > 60) this.said.firstChild.remove();
    this.said.scrollTop = this.said.scrollHeight;
  }

  /** What is new since the last announcement, said once: each other seat's decision and the dice, with
   * what came of them; the results of this browser's own; whose decision it now is; the end. */
  announceNews() {
    const you = this.view.you;
    for (const entry of this.history.slice(this.announced)) {
      const own = you.includes(entry.seat) && you.length < this.view.seats.length;
      const events = entry.events.filter((e) => e.kind !== "phase-changed" && (!own || RESULT_KINDS.has(e.kind)))
        .map((e) => e.text);
      const what = own ? `You (${entry.seat}): ${entry.text}. ` : entry.seat === "chance" ? "Dice: " : `${entry.seat}: ${entry.text}. `;
      if (what || events.length) this.announce(`${what}${events.join(". ")}`.trim());
    }
    this.announced = this.history.length;
    const offer = this.view.draw_offer || null;
    if (offer !== this.lastOffer && offer && this.view.you.some((seat) => seat !== offer)) {
      this.announce(`${offer} offers a draw: accept it, decline it, or play on (which declines it).`);
    }
    this.lastOffer = offer;
    const status = this.statusText(this.view);
    if (status !== this.lastStatus) {
      const seat = this.actingSeat(this.view);
      const help = seat && this.view.phase_help?.[seat];
      this.announce(`${status}.${help ? ` ${capitalised(help)}` : ""}`);
      this.lastStatus = status;
    }
  }

  statusText(view) {
    const seat = this.actingSeat(view);
    if (view.status === "finished") return `Game over: ${verdict(view)} (${view.outcome.reason})`;
    return seat ? `Your decision (${seat})` : `${view.to_act.join(", ")} to decide`;
  }

  /** The focused element, remembered by what it stands for (an action, a piece, an id), so that the
   * redraw puts the focus back on its successor; failing that, on its part of the page. */
  focusKey() {
    const active = document.activeElement;
    if (!active || !this.frame?.contains(active) || active === document.body) return null;
    const named = active.closest(FOCUS_NAMES.map((name) => `[${name}]`).join(", ") + ", [id]");
    let selector = null;
    if (named && this.frame.contains(named)) {
      const name = FOCUS_NAMES.find((n) => named.hasAttribute(n));
      selector = name ? `[${name}="${CSS.escape(named.getAttribute(name))}"]` : `#${CSS.escape(named.id)}`;
      if (named !== active) selector += ` ${active.tagName.toLowerCase()}`;
    } else if (active.classList.contains("board")) {
      selector = ".board";
    }
    const zone = active.closest(FOCUS_ZONES.join(", "));
    return { selector, zone: zone && FOCUS_ZONES.find((z) => zone.matches(z)) };
  }

  restoreFocus(key) {
    if (!key || (document.activeElement && document.activeElement !== document.body && this.frame.contains(document.activeElement))) return;
    const find = (selector) => selector && this.frame.querySelector(selector);
    const target = find(key.selector) || find(key.zone && `${key.zone} button:not([disabled])`) || find(key.zone) || find(".board");
    target?.focus({ preventScroll: true });
  }

  // --- drawing ----------------------------------------------------------------------------------------
  render() {
    if (this.closed || !this.view) return;
    const focus = this.focusKey();
    const view = this.shown();
    const replaying = this.replayAt !== null;
    const state = replaying ? this.replayState : view.state;
    const shownHistory = replaying ? this.history.slice(0, this.replayAt) : this.history;
    const lastEntry = shownHistory[shownHistory.length - 1];
    // The last turn, whole (every move, fire and attack of it), stays marked until the next one starts.
    const turnEvents = (turnsOf(shownHistory).pop()?.entries || []).flatMap((entry) => entry.events);
    const targets = new Set(this.actionsOf(this.selected).map((a) => a.destination).filter(Boolean));
    const ctx = {
      view, state, seat: replaying ? null : this.actingSeat(), selected: this.selected, targets,
      actions: this.actionsOf(this.selected), notes: replaying ? {} : view.notes || {},
      cursor: this.cursor, flipped: this.flipped, lastEvents: lastEntry?.events || [], turnEvents, lastSquares: eventSquares(turnEvents),
      select: (piece) => this.select(piece), clickSquare: (square, piece) => this.clickSquare(square, piece),
      plan: (text) => this.plan(text), history: replaying ? this.history.slice(0, this.replayAt) : this.history,
      setGrid: (width, height) => { this.grid = [width, height]; },
      setMap: (cells) => { this.map = cells; },
    };
    this.lastCtx = ctx;
    const boardBox = h("div", { class: "board", tabindex: 0, role: "group", "aria-roledescription": "board",
      "aria-label": `${view.title}: the board`, "aria-describedby": "keys-help", onkeydown: (event) => this.key(event) });
    this.grid = null;
    this.map = null;
    const drawn = this.drawing.draw(ctx);
    boardBox.append(drawn);
    const before = document.querySelector(".board");
    const scrolled = before ? [before.scrollLeft, before.scrollTop] : [0, 0];
    // A square board drawn as one SVG may be zoomed and panned (the games with maps of their own
    // scroll and zoom them themselves).
    const grid = drawn.matches?.("svg.board-svg") && drawn.querySelector("rect.square");
    if (grid) boardBox.classList.add("zoomable");
    if (!this.frame?.isConnected) this.buildFrame();
    this.showTypingHelp();
    const present = (nodes) => nodes.flat(Infinity).filter((node) => node !== null && node !== undefined && node !== false);
    // A heading for the board (heard, not shown): a screen reader's heading keys jump to it.
    this.boardPart.replaceChildren(...present([h("h2", { class: "sr-only", id: "board-title" }, "The board"),
      grid && this.zoomBar(), boardBox, this.keysHelp(), this.boardWords()]));
    this.side.replaceChildren(...present(this.sidePanel(view)));
    if (grid) this.applyZoom(drawn);
    [boardBox.scrollLeft, boardBox.scrollTop] = scrolled; // a redraw keeps the part of the board in view
    this.restoreFocus(focus);
    // What the cursor's square holds now, after an action there or news, said while the board has the focus.
    if (document.activeElement === boardBox) this.sayCursor();
    document.title = `${view.title}: ${this.statusText(this.view)} · Quarterdeck`;
    this.announceNews();
  }

  /** The parts of the page that stay put between redraws: the board's column with the command line
   * and its live log (a live region must not be replaced, or what it says is lost or read twice). */
  buildFrame() {
    this.boardPart = h("div", { class: "board-part" });
    this.side = h("aside", { class: "side card", "aria-label": "the game" });
    this.frame = h("div", { class: "game-page" },
      h("div", { class: "board-column" }, h("h1", { class: "game-title" }, this.view.title), this.boardPart,
        h("p", { id: "cursor-line", class: "cursor-line", "aria-live": "assertive", "aria-atomic": "true" }),
        this.commandBox()),
      this.side);
    app.replaceChildren(this.frame);
  }

  // --- the command line (text mode) ---------------------------------------------------------------------
  /** Play by typing, as in the terminal: an action in its notation (or a piece and the rest of it), or a
   * question; the answers and everything new in the game are read out, once, from the log below it. */
  commandBox() {
    const input = h("input", { id: "command", type: "text", autocomplete: "off", spellcheck: "false",
      "aria-describedby": "command-help" });
    this.said = h("div", { id: "said", class: "said", role: "log", "aria-live": "polite", "aria-label": "what happened, newest last",
      tabindex: 0 });
    const form = h("form", { class: "command-form row", "aria-label": "play by typing" },
      h("label", { for: "command" }, "Command "), input, h("button", { type: "submit" }, "Do"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      input.value = "";
      if (text) await this.command(text);
    });
    return h("section", { class: "command card", "aria-labelledby": "command-title" },
      h("h2", { id: "command-title" }, "Play by typing"),
      this.commandHelp = h("p", { id: "command-help", class: "muted" }),
      form, this.said);
  }

  /** Examples for the command line from the game as it stands: an action legal now (while it is not this
   * browser's decision, the last one shown), a piece by its name and, on a board of squares or hexes, a place. */
  typingExamples() {
    // An action that says more than which ship acts (a move, not "surrender Shannon"): typed without its
    // first word it is still that action, where a ship's name alone asks what she can do.
    const telling = (g) => g.actions.find((a) => withoutFirstWord(a.text).toLowerCase() !== g.piece.toLowerCase());
    const group = this.groups().find((g) => g.piece && telling(g));
    if (group) this.lastExample = { action: telling(group).text, piece: group.piece };
    const pieces = this.described().pieces.filter((p) => p.piece);
    const piece = pieces.find((p) => p.piece === this.lastExample?.piece) || pieces.find((p) => p.mine) || pieces[0];
    const action = this.lastExample?.action || null;
    return { action, rest: action ? withoutFirstWord(action) || null : null, piece: piece?.name || null,
      place: [piece, ...pieces].find((p) => p?.at)?.at || null };
  }

  showTypingHelp() {
    const { action, rest, piece, place } = this.typingExamples();
    const code = (text) => h("code", {}, text);
    const asks = ["my ships", "enemy ships", place && `what is on ${place}`, piece && `what can ${piece} do`,
      ...this.questionExamples(), "board", "status", "last", "help"].filter(Boolean);
    this.commandHelp.replaceChildren("Type an action as in the terminal",
      ...(action ? [" (", code(action), rest ? [", or without its first word: ", code(rest)] : [], ")"].flat() : []),
      ", ", code("end"), ", ", code("send"), ", ", code("undo"), ", or ask: ",
      ...asks.flatMap((text, i) => [i ? ", " : "", code(text)]), ".");
  }

  /** The game's own questions (the view's `questions`, such as Naval Warfare's `range`), each with
   * one of your ships and an enemy: `range Revenge San Martin`. */
  questionExamples() {
    const pieces = this.described().pieces.filter((p) => p.name);
    const mine = pieces.find((p) => p.mine) || pieces[0];
    const enemy = pieces.find((p) => p.side !== mine?.side);
    return Object.keys(this.view.questions || {}).slice(0, 1).map((word) => [word, mine?.name, enemy?.name].filter(Boolean).join(" "));
  }

  /** Ask one of the game's own questions of the table after the turn being planned (the server
   * measures; nothing is decided) and read the answer out line by line. */
  async ask(text) {
    try {
      const answer = await api(`/api/games/${this.id}/ask`, { method: "POST", token: this.token,
        body: { question: text, version: this.view.version, actions: this.pending, seat: this.actingSeat() } });
      for (const line of answer.lines) this.announce(line);
    } catch (exc) {
      this.say(exc.message, "error");
    }
  }

  async command(text) {
    const lower = text.toLowerCase();
    if (Object.hasOwn(this.view.questions || {}, lower.trim().split(/\s+/)[0])) return this.ask(text.trim());
    const words = this.described();
    const actions = this.groups().flatMap((g) => g.actions.map((a) => ({ ...a, piece: g.piece })));
    const pieceNamed = (name) => {
      const wanted = name.trim().toLowerCase();
      const match = (p) => [p.name, p.piece, p.at].some((n) => n && n.toLowerCase() === wanted);
      return words.pieces.find((p) => match(p) && p.mine) || words.pieces.find(match)
        || (this.groups().find((g) => g.piece?.toLowerCase() === wanted) && { piece: this.groups().find((g) => g.piece?.toLowerCase() === wanted).piece });
    };
    const list = (pieces, none) => (pieces.length ? pieces.map((p) => `${p.at ? `${p.at}: ` : ""}${p.text}`).join(". ") : none);
    const mineOrTheirs = /^(my|our|enemy|their|opponent'?s?|all)\s+(\w+)$/.exec(lower);
    // A place: "what is on d5" (a square, a hex such as 1406), or a square alone ("d5", "d5?").
    const place = /^(?:what is (?:on|at|in)\s+|what'?s (?:on|at|in)\s+|on\s+|at\s+)(\S+?)\??$/.exec(lower)
      || /^([a-z]\d{1,2})\??$/.exec(lower);
    const ability = /^(?:what can\s+(.+?)\s+do\??|(.+?)\?)$/.exec(text.trim());
    if (lower === "help") {
      const { action, piece, place } = this.typingExamples();
      return this.announce(`Type an action in the terminal's notation${action ? ` (${action})` : ""}, or a piece's name and the rest `
        + "of it; end ends the phase; send sends the planned turn; undo takes the last planned decision back; my ships, enemy ships, "
        + `all ships; ${place ? `what is on ${place}; ` : ""}${piece ? `what can ${piece} do; ` : ""}`
        + `${this.questionExamples().map((q) => `${q}; `).join("")}board; status; last; actions.`);
    }
    if (lower === "status") return this.announce(`${this.statusText(this.view)}. ${this.stillToDoText()}`);
    if (lower === "board" || lower === "look") return this.announce([...words.notes, list(words.pieces, "Nothing on the board.")].join(" "));
    if (mineOrTheirs) {
      const which = mineOrTheirs[1];
      const chosen = which === "all" ? words.pieces
        : words.pieces.filter((p) => (["my", "our"].includes(which) ? p.mine : !p.mine));
      return this.announce(list(chosen, `No ${mineOrTheirs[2]}.`));
    }
    if (place) return this.announce(this.squareWords(place[1]));
    if (lower === "last") {
      const turn = turnsOf(this.history).pop();
      return this.announce(turn ? `${turn.seat}: ${turn.entries.map((e) => [e.text, ...e.events.map((v) => v.text)].join(". ")).join(". ")}`
        : "Nothing has been played yet.");
    }
    if (lower === "actions" || lower === "moves") {
      const groups = this.groups();
      return this.announce(groups.length ? groups.map((g) => (g.piece ? `${g.piece}: ${g.actions.length}` : g.actions.map((a) => a.text).join(", "))).join("; ")
        : "You have nothing to decide now.");
    }
    if (["end", "end phase", "end move", "end turn"].includes(lower) && !this.endAction()) return this.endPhase();
    if (["send", "commit"].includes(lower)) return this.pending.length ? this.commit() : this.announce("Nothing is planned.");
    if (["undo", "back", "take back"].includes(lower)) {
      return this.pending.length ? this.takeBack(this.pending.length - 1) : this.announce("Nothing planned to take back.");
    }
    if (ability && !actions.some((a) => a.text.toLowerCase() === lower)) {
      const piece = pieceNamed(ability[1] || ability[2]);
      if (piece) {
        const own = actions.filter((a) => a.piece === piece.piece).map((a) => a.text);
        return this.announce(`${piece.text ? `${piece.text}. ` : ""}${own.length ? `${own.length} actions: ${own.join("; ")}` : "No actions now."}`);
      }
    }
    // An action: its whole notation, or (as in the terminal) without its first word.
    // As the terminal takes them: "d2 d4" for "move d2-d4", "d4 e5" for "attack d4xe5".
    const loose = (notation) => notation.toLowerCase().replace(/\b([a-z]\d+)[-x>]([a-z]\d+)\b/g, "$1 $2");
    // A piece's name alone asks what she can do: it never takes an action ("surrender Shannon", "anchor Junk").
    const bareName = Boolean(pieceNamed(text)?.piece);
    const exact = (["end", "end phase", "end move", "end turn"].includes(lower) && actions.find((a) => a.text === this.endAction()))
      || actions.find((a) => a.text.toLowerCase() === lower)
      || (!bareName && (actions.find((a) => withoutFirstWord(a.text.toLowerCase()) === lower)
        || actions.find((a) => withoutFirstWord(loose(a.text)) === loose(lower))));
    if (!exact) {
      const piece = pieceNamed(text);
      if (piece?.piece && actions.some((a) => a.piece === piece.piece)) {
        const own = actions.filter((a) => a.piece === piece.piece).map((a) => a.text);
        return this.announce(`${own.length} actions of ${piece.piece}: ${own.join("; ")}`);
      }
    }
    if (!this.actingSeat() || this.replayAt !== null) return this.announce(`Not understood, and it is not your decision: ${text}`);
    // As the terminal takes them, a piece's name and the rest of an action not in the list (Naval Warfare's
    // "White Bear turn +0 run 4.00 turn +0"): with the verb every action of that piece begins with.
    const named = !exact && this.groups().find((g) => g.piece && lower.startsWith(`${g.piece.toLowerCase()} `));
    const verbs = new Set(named ? named.actions.map((a) => a.text.split(" ")[0]) : []);
    const typed = exact ? exact.text : verbs.size === 1 ? `${[...verbs][0]} ${text}` : text;
    const before = this.pending.length;
    const spoken = this.spoken;
    // A move on an open table is any legal one: the server judges it. Mistyped (`order blue`, a notation
    // error names its field), the refusal says, as the terminal does, a legal action of that verb.
    const example = verbExample(typed, actions.map((a) => a.text));
    await this.plan(typed, (refused) => (refused.body?.field && example ? ` ${example}` : ""));
    // Once sent, the decision is read out with the game's news ("You (blue): ..."), in its place; a secret
    // one is not in the news until every side has decided.
    if (this.pending.length > before) this.announce(`Planned: ${typed}. ${this.stillToDoText()}`);
    else if (this.spoken === spoken) this.announce(`Sent: ${typed}.`);
  }

  stillToDoText() {
    const seat = this.actingSeat();
    return seat && this.replayAt === null ? this.stillToDo(this.shown(), seat, this.groups()) : "";
  }

  keysHelp() {
    const cell = this.map ? "hex" : "square";
    return h("p", { id: "keys-help", class: "keys-help muted", tabindex: -1 },
      this.grid || this.map ? `On the board: the arrow keys move the cursor (its ${cell} is read out), Enter selects a piece or acts `
        + `on the ${cell}, Escape puts the piece down. `
        : "On the board: the arrow keys go from ship to ship, Enter chooses one. ",
      this.map ? "On a ship's own button (Tab): Enter chooses her; once chosen the arrows steer her (up: ahead, left and "
        + "right: turn), otherwise they go from ship to ship. " : "",
      "Anywhere: E ends the phase, C sends the planned turn, U takes the last decision back, "
      + `${this.grid ? "F turns the board, " : ""}B goes to the board, A to the actions, T to the command line.`);
  }

  /** Every piece with where it stands and its state, and the ground, wind and clock, as a list. */
  boardWords() {
    const words = this.described();
    if (!words.pieces.length && !words.notes.length) return null;
    return h("section", { class: "board-words", "aria-labelledby": "board-words-title" },
      h("h2", { id: "board-words-title" }, "The board in words"),
      words.notes.map((note) => h("p", {}, note)),
      h("ul", { tabindex: 0, "aria-label": "pieces, where they stand" }, words.pieces.map((p) =>
        h("li", { "data-describes": p.name, class: p.mine ? "mine" : null }, `${p.at ? `${p.at}: ` : ""}${p.text}`))),
      this.grid && this.boardTable(words));
  }

  /** A square board as a table, rank by rank as it is seen (turned with the board): each cell names
   * what stands there and its ground. Folded away until opened; it stays open across redraws. */
  boardTable(words) {
    const [width, height] = this.grid;
    const files = [...Array(width).keys()].map((x) => (this.flipped ? width - 1 - x : x));
    const ranks = [...Array(height).keys()].map((y) => (this.flipped ? y : height - 1 - y));
    const cell = (square) => [...words.pieces.filter((p) => p.at === square).map((p) => `${p.name}, ${p.side}`),
      words.terrain?.(square)].filter(Boolean).join("; ");
    const table = h("details", { class: "board-table", open: this.tableOpen,
      ontoggle: (event) => {
        if (this.tableOpen === event.target.open) return;
        this.tableOpen = event.target.open;
        this.render(); // its cells are made only while it is open
      } },
    h("summary", { id: "board-table-summary" }, "The board square by square (a table)"),
    this.tableOpen && h("div", { class: "board-table-scroll", tabindex: 0, role: "region", "aria-label": "the board as a table" },
      h("table", {}, h("caption", {}, `Ranks ${ranks.map((y) => y + 1).join(", ")}, from the top of the board as it is seen`),
        h("tr", {}, h("td", {}), files.map((x) => h("th", { scope: "col" }, squareName(x, 0)[0]))),
        ranks.map((y) => h("tr", {}, h("th", { scope: "row" }, String(y + 1)),
          files.map((x) => h("td", { "data-square": squareName(x, y) }, cell(squareName(x, y)))))))));
    return table;
  }

  // --- zoom and pan -----------------------------------------------------------------------------------
  /** The board's width as a multiple of the space it has (1: the whole board fits); on a screen too
   * narrow for squares a finger can hit, it opens zoomed in, and scrolls (pans) in its frame. */
  applyZoom(svg) {
    if (this.zoom === undefined) {
      // On a phone, at the scale where the board's smallest text reads at 12 px; "Whole board" fits it.
      const scale = svg.getScreenCTM()?.a || 1;
      const smallest = Math.min(...[...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize))
        .filter((size) => size > 0), 12);
      const readable = MIN_TEXT / (smallest * scale);
      this.zoom = window.innerWidth <= PHONE && readable > 1 ? Math.min(MAX_ZOOM, readable) : 1;
    }
    svg.style.width = `${this.zoom * 100}%`;
    svg.classList.toggle("zoomed", this.zoom > 1);
    const zoomedOut = document.getElementById("zoom-out");
    if (zoomedOut) zoomedOut.disabled = this.zoom <= 1;
  }

  zoomBar() {
    const to = (zoom) => () => {
      this.zoom = Math.max(1, Math.min(MAX_ZOOM, zoom));
      this.render();
    };
    return h("div", { class: "row zoom-bar", role: "group", "aria-label": "zoom the board" },
      h("button", { id: "zoom-in", onclick: () => to((this.zoom ?? 1) * 1.5)() }, "Zoom in"),
      h("button", { id: "zoom-out", onclick: () => to((this.zoom ?? 1) / 1.5)() }, "Zoom out"),
      h("button", { id: "zoom-fit", onclick: to(1) }, "Whole board"));
  }

  sidePanel(view) {
    const over = view.status === "finished";
    const seat = this.actingSeat();
    return [
      h("div", { class: "muted" }, `${view.scenario || ""} · version ${this.view.version}`),
      h("p", { class: `status${over ? " over" : ""}${over && verdict(view) === "you lost" ? " lost" : ""}`, id: "status" },
        this.statusText(view)),
      h("p", { id: "your-side" }, yourSide(view)),
      seat && this.replayAt === null && view.phase_help?.[seat] && h("p", { class: "phase-help", id: "phase-help" },
        h("strong", {}, "This phase: "), view.phase_help[seat]),
      this.thinkingBox(),
      this.message && h("p", { class: `message ${this.message.kind}`, id: "message" }, this.message.text), // read out by the log
      over && this.gameOverBox(view),
      this.newsBox(),
      this.inviteBox(view),
      this.choices && h("div", { class: "choices" }, h("h3", {}, "Choose"),
        h("div", { class: "actions-list" }, this.choices.map((a) =>
          h("button", { onclick: () => this.plan(a.text), "data-action": a.text }, a.text)))),
      seat && this.replayAt === null && this.turnBox(view, seat),
      this.controls(view),
      this.history.length > 0 && this.replayBox(view),
      h("h3", {}, "Moves"), this.moveList(),
      h("h3", {}, "Events"), this.eventLog(),
      this.rulesBox()];
  }

  /** The game's rules reference, read from the server when first opened; the same element is kept
   * across redraws, so it stays open and scrolled where the reader left it. */
  rulesBox() {
    if (this.rules) return this.rules;
    const text = h("div", { class: "rules-text", id: "rules-text", tabindex: 0, "aria-label": "the rules" }, "Loading…");
    this.rules = h("details", { class: "rules", id: "rules" }, h("summary", {}, /^rules\b/i.test(this.view.title) ? this.view.title : `The rules of ${this.view.title}`), text);
    this.rules.addEventListener("toggle", async () => {
      if (!this.rules.open || this.rules.dataset.loaded) return;
      try {
        const rules = await api(`/api/rules/${this.view.game}`);
        text.innerHTML = rules.html; // the server's own reference, made from Markdown without raw HTML
        this.rules.dataset.loaded = rules.source;
      } catch (exc) {
        text.replaceChildren(h("p", { class: "message error" }, `The rules could not be read: ${exc.message}`));
      }
    });
    return this.rules;
  }

  inviteBox(view) {
    const invitations = saved.game(this.id)?.invitations || {};
    const open = Object.entries(invitations).filter(([seat]) => view.players[seat] === "invited");
    if (!open.length) return null;
    return h("div", {}, open.map(([seat, secret]) => {
      const link = `${location.origin}/game/${this.id}#invite=${secret}`;
      return h("label", {}, `Invitation link for ${seat} (send it to your friend):`,
        h("input", { class: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }));
    }));
  }

  turnBox(view, seat) {
    const groups = this.groups();
    const shortcuts = Object.entries(view.shortcuts[seat] || {}).filter(([, actions]) => actions.length);
    const many = groups.reduce((count, g) => count + g.actions.length, 0) > 60;
    // With many actions, a piece's own list opens when it is chosen (on the board or here).
    const listed = (group) => (this.selected ? group.piece === this.selected : !many || group.piece === null);
    return h("div", {},
      h("h3", {}, this.selected ? `Actions of ${this.selected}` : "Legal actions"),
      h("div", { class: "actions-list", id: "legal-actions" }, groups.map((group) => [
        group.piece && !(this.selected && group.piece !== this.selected) && h("div", { class: "group-label" },
          h("button", { onclick: () => this.select(group.piece), "data-piece-button": group.piece },
            `${group.piece} (${group.actions.length})`)),
        listed(group) && group.actions.map((a) => h("button", { onclick: () => this.plan(a.text), "data-action": a.text },
          actionLabel(a.text))),
      ])),
      shortcuts.length > 0 && h("div", { class: "row" }, shortcuts.map(([name, actions]) =>
        h("button", { onclick: () => this.planAll(actions), "data-shortcut": name }, `${name} (${actions.join("; ")})`))),
      h("p", { class: "still-to-do", id: "still-to-do" }, this.stillToDo(view, seat, groups)),
      this.pending.length > 0 && h("div", {}, h("h3", {}, "Planned this turn (not sent yet)"),
        h("ol", { class: "pending" }, this.pending.map((text, index) => h("li", {}, text, " ",
          h("button", { onclick: () => this.takeBack(index), "aria-label": `take back ${text}` }, "take back")))),
        h("button", { class: "primary", onclick: () => this.commit(), id: "commit" },
          `Send ${this.pending.length === 1 ? "this decision" : `these ${this.pending.length} decisions`} now`)));
  }

  /** What is still to do before the turn passes: the phase to finish (and the button that ends it);
   * the turn is sent by itself when its last phase ends. */
  stillToDo(view, seat, groups) {
    const ends = groups.filter((g) => g.piece === null).flatMap((g) => g.actions.map((a) => a.text))
      .filter((text) => /^end(-|$)/.test(text));
    const finish = ends.length ? `choose your actions, then “${actionLabel(ends[0])}”` : "choose one of the actions";
    const planned = this.pending.length ? " Until then you may take back anything planned." : "";
    return `Still to do (${seat}): ${finish}. Your turn is sent by itself when its last phase ends.${planned}`;
  }

  /** A shortcut (such as the optimal defence): its actions planned one by one. */
  async planAll(actions) {
    for (const text of actions) {
      const version = this.view.version;
      await this.plan(text);
      if (this.view.version !== version || this.message?.kind === "error") break; // committed, or refused
    }
  }

  controls(view) {
    const over = view.status === "finished";
    const mine = view.you.length > 0;
    const offer = this.view.draw_offer; // as it stands now, not as the preview of a plan saw it
    const me = this.actingSeat() || view.you[0]; // at one screen: the seat whose turn it is
    const answerer = view.you.find((seat) => seat !== offer);
    const sound = this.drawing.hasSound && h("label", {}, h("input", { type: "checkbox", checked: saved.muted(),
      onchange: (e) => saved.setMuted(e.target.checked), id: "mute" }), " mute");
    return h("div", { class: "row" },
      mine && !over && h("button", { class: "danger", onclick: () => confirm("Resign this game?") && this.act("resign", { seat: me }),
        id: "resign" }, "Resign"),
      mine && !over && !offer && h("button", { onclick: () => this.act("draw", { answer: "offer", seat: me }), id: "offer-draw" },
        "Offer a draw"),
      mine && !over && offer && answerer && [
        h("p", { class: "message info", id: "draw-offer" },
          `${offer} offers a draw. Accept it, decline it, or play on (which declines it).`),
        h("button", { onclick: () => this.act("draw", { answer: "accept", seat: answerer }), id: "accept-draw" }, `Accept ${offer}'s draw`),
        h("button", { onclick: () => this.act("draw", { answer: "decline", seat: answerer }) }, "Decline"),
      ],
      mine && !over && offer && !answerer && h("span", { class: "muted" }, "draw offered"),
      !over && h("button", { onclick: () => this.downloadRecord(), id: "download" }, "Download record"),
      this.grid && h("button", { onclick: () => this.flip(), id: "flip-board", "aria-pressed": String(this.flipped) },
        "Turn the board round"),
      sound,
      h("a", { href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } }, "Lobby"));
  }

  /** While a computer seat decides: a sign of life, with its level, the most it may think per
   * decision and how long this decision has taken so far. */
  thinkingBox() {
    const view = this.view; // the game as it stands, not a turn being planned
    const seats = view.status === "finished" ? [] : view.to_act.filter((seat) => view.computers?.[seat]);
    if (!seats.length) {
      this.thinking = null;
      return null;
    }
    if (this.thinking?.version !== view.version) this.thinking = { version: view.version, since: Date.now() };
    return h("p", { class: "thinking", id: "thinking" },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      `The computer (${seats.join(", ")}) is thinking: ${seats.map((seat) => view.computers[seat].about).join("; ")}. `,
      h("span", { id: "thinking-elapsed" }, secondsSince(this.thinking.since)));
  }

  flip() {
    this.flipped = !this.flipped;
    saved.setFlipped(this.id, this.flipped);
    this.render();
  }

  /** The end, said plainly: who won and why, a rematch with the sides swapped, the record. */
  gameOverBox(view) {
    const rematch = view.you.length > 0 && h("button", { class: "primary", id: "rematch", onclick: () => this.rematch(view) },
      "Rematch, sides swapped");
    return h("section", { class: `game-over${verdict(view) === "you lost" ? " lost" : ""}`, id: "game-over" },
      h("h3", {}, capitalised(verdict(view))), h("p", {}, `Why: ${view.outcome.reason}.`),
      h("div", { class: "row" }, rematch,
        h("button", { onclick: () => this.downloadRecord(), id: "download-record" }, "Download the record (.qdr)")));
  }

  /** The same game, scenario and options against the same opponent, each side taking the other's seat. */
  async rematch(view) {
    const others = view.seats.filter((s) => !view.you.includes(s));
    const computer = others.map((s) => view.players[s]).find((who) => who.startsWith("computer:"));
    const mine = view.you.length === view.seats.length ? view.seats[0]
      : view.seats[(view.seats.indexOf(view.you[0]) + 1) % view.seats.length];
    try {
      const created = await api("/api/games", { method: "POST", body: {
        game: view.game, scenario: view.scenario, options: view.options, seat: mine,
        opponent: !others.length ? "local" : computer ? "computer" : "invite",
        level: computer ? computer.slice("computer:".length) : undefined,
      } });
      saved.keep(created.id, { token: created.token, invitations: created.invitations });
      navigate(`/game/${created.id}`);
    } catch (exc) {
      this.say(`No rematch: ${exc.message}`, "error");
    }
  }

  /** Step through the game, during play or after it. Words, not media glyphs: the fonts at hand
   * lack ⏮ and ⏭. */
  replayBox(view) {
    const at = this.replayAt ?? this.history.length;
    const total = this.history.length;
    const step = (n) => () => this.replayTo(n);
    const playing = view.status !== "finished";
    return h("div", { class: "replay", id: "replay" },
      h("div", { class: "row", role: "group", "aria-label": "step through the game" },
        h("button", { onclick: step(0), disabled: at === 0, id: "replay-start", "aria-label": "Start: to the start" }, "Start"),
        h("button", { onclick: step(at - 1), disabled: at === 0, id: "replay-back", "aria-label": "Back: one move back" }, "◀ Back"),
        h("span", { id: "replay-at" }, `move ${at} of ${total}`),
        h("button", { onclick: step(at + 1), disabled: at >= total, id: "replay-forward", "aria-label": "Next: one move on" }, "Next ▶"),
        h("button", { onclick: step(total), disabled: at >= total, id: "replay-end", "aria-label": playing ? "Now: to the game as it stands" : "End: to the end" }, playing ? "Now" : "End")),
      playing && this.replayAt !== null && h("p", { class: "message info", id: "looking-back", role: "status" },
        `You are looking at the game after move ${at} of ${total}; nothing is changed. `,
        h("button", { onclick: () => this.backToGame(), id: "back-to-game" }, "Back to the game")));
  }

  /** The moves by turn (each run of one side's decisions, the dice with them), every move a button
   * that shows the position after it. */
  moveList() {
    const last = this.replayAt ?? this.history.length;
    const list = h("div", { class: "moves", id: "moves", tabindex: 0, role: "region", "aria-label": "moves, by turn" },
      turnsOf(this.history).map((turn) => h("div", { class: "turn" },
        h("h4", { class: "turn-head" }, `Turn ${turn.number}: ${turn.seat}`),
        h("ol", { class: "turn-moves" }, turn.entries.map((entry) =>
          h("li", { class: entry.number === last ? "last" : "", value: entry.number, "data-number": entry.number },
            h("button", { class: "link", onclick: () => this.replayTo(entry.number),
              "aria-label": `move ${entry.number}: ${entry.seat} ${entry.text}; show the position after it` },
            `${entry.seat} ${entry.text}`)))))));
    queueMicrotask(() => { // the move shown stays in sight
      const mark = list.querySelector("li.last");
      if (mark) list.scrollTop = mark.offsetTop - list.clientHeight / 2;
    });
    return list;
  }

  /** The last exchange, from the events of the last two turns: what was fired, defended, attacked
   * and what came of it (or, with no fighting, the last turn's moves); results in bold, the newly
   * arrived ones animated. The event log below keeps every line. */
  newsBox() {
    const history = this.replayAt === null ? this.history : this.history.slice(0, this.replayAt);
    const turns = turnsOf(history).slice(-2);
    const linesOf = (entries, keep) => entries.flatMap((entry) =>
      entry.events.filter((event) => keep(event.kind)).map((event) => ({ entry, event })));
    let title = "Last exchange";
    let lines = linesOf(turns.flatMap((turn) => turn.entries), (kind) => EXCHANGE_KINDS.has(kind));
    if (!lines.length && turns.length) {
      const last = turns[turns.length - 1];
      title = `Last turn (${last.seat})`;
      lines = linesOf(last.entries, (kind) => kind !== "phase-changed");
    }
    if (!lines.length) return null;
    const now = Date.now();
    return h("section", { class: "news", id: "news", "aria-label": title }, // news is read out once by the live log
      h("h3", {}, title),
      h("ul", { tabindex: 0, "aria-label": title }, lines.map(({ entry, event }) => h("li", {
        class: [RESULT_KINDS.has(event.kind) && "result", now - (this.arrived.get(entry.number) ?? 0) < FRESH_MS && "fresh"]
          .filter(Boolean).join(" "),
        "data-kind": event.kind,
      }, RESULT_KINDS.has(event.kind) ? h("strong", {}, event.text) : event.text))));
  }

  eventLog() {
    const lines = this.history.flatMap((entry) => entry.events.map((event) => ({ entry, event })));
    const log = h("ul", { class: "log", id: "events", tabindex: 0, "aria-label": "events, newest last" }, lines.slice(-200).map(({ entry, event }) =>
      h("li", { class: RESULT_KINDS.has(event.kind) ? "result" : null, "data-kind": event.kind },
        `${entry.number}. ${event.text}`)));
    queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
    return log;
  }
}

/** An action's button text: the notation, and for the actions that end a phase what they do. */
function actionLabel(text) {
  const end = /^end(?:-(\w+))?$/.exec(text);
  if (!end) return text;
  return end[1] ? `End the ${end[1]} phase (${text})` : `End the turn (${text})`;
}

/** Which side this browser plays, in words (and its colour is never the only sign of it). */
function yourSide(view) {
  if (!view.you.length) return "You are watching.";
  if (view.you.length === view.seats.length) return `You play every side at this screen (${view.seats.join(", ")}).`;
  return h("span", {}, "You play ", h("strong", {}, view.you.join(" and ")), ".");
}

/** "you won", "you lost", "a draw", or, for a spectator or players at one screen, who won. */
function verdict(view) {
  const returns = view.outcome.returns;
  const best = Math.max(...returns);
  if (returns.every((r) => r === best)) return "a draw";
  const winners = view.seats.filter((_, index) => returns[index] === best);
  if (view.you.length && view.you.length < view.seats.length) {
    return view.you.some((seat) => winners.includes(seat)) ? "you won" : "you lost";
  }
  return `${winners.join(" and ")} won`;
}

function secondsSince(time) {
  return `${Math.floor((Date.now() - time) / 1000)} s so far`;
}

function capitalised(text) {
  return text[0].toUpperCase() + text.slice(1);
}

async function loadDrawing(game) {
  try {
    return await import(`/static/games/${game}.js`);
  } catch {
    return await import("/static/games/generic.js");
  }
}

window.addEventListener("popstate", route);
// A drawing may lay itself out for the width (Square Rigger's panel goes below the board on a phone).
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => page?.render(), 150);
});
route();
