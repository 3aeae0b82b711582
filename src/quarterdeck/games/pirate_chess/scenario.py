"""Pirate Chess setup: the ship tables, the options, the scenarios and the positions they start from.

Rule book seed 004: "There are different types of ships in each fleet of 8 ships" and "Each player
has 1 of each type of ship" (the fleets), "How different ships MOVE" (the ship types, as numbers in
`tables.toml`), "The Blue fleet STARTS the game" (the start). Board sizes and the draw options are
rulings of shared/design/rules-decisions.md ("Pirate Chess").

`tables.toml` is read once into `SHIP_TYPES` and the rule constants; each file of `scenarios/` is a
title, a briefing and options. `Options` is the immutable setup every state of one game shares;
`initial_state` and `layout` build positions from it. Every mistake is a ScenarioError naming the
option or field at fault.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import RecordError, ScenarioError, unknown_field, unknown_option, unknown_scenario
from ...core.files import is_file_name, parse_toml, read_text
from ...core.geometry import Compass
from ...core.protocol import Game, ScenarioInfo

if TYPE_CHECKING:
    from .state import PirateChessState

_TABLES: dict[str, Any] = tomllib.loads(resources.files(__package__).joinpath("tables.toml").read_text("utf-8"))
_RULES = _TABLES["rules"]

DEFAULT_SIZE: int = _RULES["default_size"]
MIN_SIZE: int = _RULES["min_size"]
MAX_SIZE = 26  # algebraic square names run out of file letters after z
OPENING_TURNS: int = _RULES["opening_turns"]
QUIET_TURN_LIMIT: int = _RULES["quiet_turn_limit"]
UPGRADE_KINDS: tuple[str, ...] = tuple(_RULES["upgrade_into"])
UPGRADE_LIMIT: int = _RULES["upgrade_limit"]

PLAYERS = ("blue", "red")  # the two fleets, in the order they take turns
RESERVE = -1  # the square of a ship still waiting in its fleet's reserve


@dataclass(frozen=True)
class ShipType:
    name: str
    rank: int
    symbol: str  # two letters for boards and position keys
    steps: tuple[tuple[int, int], ...]  # (east, north) offset of one step along each line
    reach: int  # how many steps a line may take (1 for a leap)
    anchors: bool
    strikes_anchored: bool  # may attack an anchored ship (only the Pirate)
    moves: str  # the move in words, for messages and help


def _ship_type(name: str, entry: dict[str, Any]) -> ShipType:
    if "leaps" in entry:
        steps = tuple((int(dx), int(dy)) for dx, dy in entry["leaps"])
        reach = 1
    else:
        steps = tuple(Compass[d].delta for d in entry["directions"])
        reach = int(entry["reach"])
    return ShipType(
        name=name,
        rank=int(entry["rank"]),
        symbol=entry["symbol"],
        steps=steps,
        reach=reach,
        anchors=bool(entry.get("anchors", True)),
        strikes_anchored=bool(entry.get("strikes_anchored", False)),
        moves=entry["moves"],
    )


SHIP_TYPES: dict[str, ShipType] = {name: _ship_type(name, entry) for name, entry in _TABLES["ships"].items()}
FLEET: tuple[str, ...] = tuple(SHIP_TYPES)  # one of each type, in reserve at the start
RANK: dict[str, int] = {name: t.rank for name, t in SHIP_TYPES.items()}


def ship_kind(ship_id: str) -> str:
    """The type of a ship from its id: `Frigate2` is a Frigate."""
    return ship_id.rstrip("0123456789")


def ship_number(ship_id: str) -> int:
    """1 for an original ship (`Frigate`), n for the n-th of its type in a fleet (`Frigate2`)."""
    digits = ship_id[len(ship_kind(ship_id)) :]
    return int(digits) if digits else 1


# What each option does, in a line (the lobby and `quarterdeck scenarios` show them).
OPTION_NOTES: dict[str, str] = {
    "size": f"the board's side in squares, an even number from {MIN_SIZE} to {MAX_SIZE} (the book's board is 8)",
    "repetition_draw": "a position repeated three times is a draw",
    "quiet_turn_draw": "turns without an attack, placement or upgrade end the game drawn",
    "quiet_turn_limit": "how many turns in a row without an attack, placement or upgrade draw the game",
}


@dataclass(frozen=True)
class Options:
    size: int = DEFAULT_SIZE
    repetition_draw: bool = True
    quiet_turn_draw: bool = True
    quiet_turn_limit: int = QUIET_TURN_LIMIT

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "repetition_draw": self.repetition_draw,
            "quiet_turn_draw": self.quiet_turn_draw,
            "quiet_turn_limit": self.quiet_turn_limit,
        }

    @classmethod
    def parse(cls, values: dict[str, Any]) -> Options:
        """Checked options; ScenarioError names the option at fault."""
        known = set(cls.__dataclass_fields__)
        for key in values:
            if key not in known:
                raise unknown_option(key, sorted(known))
        size = values.get("size", DEFAULT_SIZE)
        if type(size) is not int or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
            raise ScenarioError("options.size", f"the board size is an even number from {MIN_SIZE} to {MAX_SIZE}")
        for flag in ("repetition_draw", "quiet_turn_draw"):
            if type(values.get(flag, True)) is not bool:
                raise ScenarioError(f"options.{flag}", "must be true or false")
        limit = values.get("quiet_turn_limit", QUIET_TURN_LIMIT)
        if type(limit) is not int or limit < 1:
            raise ScenarioError("options.quiet_turn_limit", "must be a whole number of turns, at least 1")
        return cls(
            size=size,
            repetition_draw=values.get("repetition_draw", True),
            quiet_turn_draw=values.get("quiet_turn_draw", True),
            quiet_turn_limit=limit,
        )


# --- the scenario files ------------------------------------------------------------------------
_SCENARIO_KEYS = ("title", "briefing", "options")
DEFAULT_SCENARIO = "standard"


@cache
def _shipped() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """(title, briefing, options) of each file in scenarios/, the rule book's standard game first."""
    folder = resources.files(__package__).joinpath("scenarios")
    names = sorted(
        (entry.name.removesuffix(".toml") for entry in folder.iterdir() if entry.name.endswith(".toml")),
        key=lambda name: (name != DEFAULT_SCENARIO, name),
    )
    return {name: read_scenario(name, folder.joinpath(f"{name}.toml").read_text("utf-8")) for name in names}


def read_scenario(name: str, text: str) -> tuple[str, str, dict[str, Any]]:
    """(title, briefing on one line, options) of the scenario file `name` whose text is `text`."""
    data = parse_toml(text, f"{name}.toml")
    for key in data:
        if key not in _SCENARIO_KEYS:
            raise unknown_field(key, _SCENARIO_KEYS)
    for key in ("title", "briefing"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ScenarioError(key, f"scenario {name} needs a {key}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError("options", f"the options of scenario {name} are a table")
    try:
        Options.parse(options)  # a shipped scenario must start a game
    except ScenarioError as exc:
        raise ScenarioError(exc.field, f"scenario {name}: {exc.message}") from None
    return data["title"], " ".join(data["briefing"].split()), options


def shipped_scenarios() -> list[ScenarioInfo]:
    """The shipped scenarios (fresh objects: a caller may change their options)."""
    return [scenario_info(name) for name in _shipped()]


def scenario_info(name: str) -> ScenarioInfo:
    """A shipped scenario by name, or a player's scenario file by its path (ending in .toml)."""
    if is_file_name(name):
        title, briefing, options = read_scenario(Path(name).stem, read_text(name))
    else:
        shipped = _shipped()
        if name not in shipped:
            raise unknown_scenario(name, shipped)
        title, briefing, options = shipped[name]
    return ScenarioInfo(name, title, briefing, dict(options), {key: OPTION_NOTES[key] for key in options})


def scenario_options(name: str, overrides: dict[str, Any] | None = None) -> Options:
    """The options of a shipped scenario, or of a player's scenario file by its path (ending in
    .toml), with the player's `overrides` on top."""
    return Options.parse({**scenario_info(name).options, **(overrides or {})})


# --- positions ---------------------------------------------------------------------------------
# state.py reads the tables above, so the State class is imported where a position is built.
def initial_state(game: Game, options: Options) -> PirateChessState:
    """The book's start: both fleets complete in reserve, Blue to place."""
    from .state import PirateChessState

    state = PirateChessState(game, options)
    for fleet in range(len(PLAYERS)):
        for ship_id in FLEET:
            state.add_ship(fleet, ship_id, RESERVE)
    state.history = [state.repetition_key()]
    return state


def layout(
    game: Game,
    ships: Mapping[str, str],
    *,
    to_move: str = "blue",
    reserves: Mapping[str, Iterable[str]] | None = None,
    upgrades_used: Mapping[str, Mapping[str, int]] | None = None,
    options: dict[str, Any] | None = None,
) -> PirateChessState:
    """A position after the opening, for studies, tests and benchmarks.

    `ships` maps square names to "blue Frigate" or "red Junk anchored"; `reserves` lists the
    types each fleet still holds in reserve. Original ships neither on the board nor in reserve
    have left the game; a second ship of one type is a prize or an upgrade (`Frigate2`).
    """
    from .state import PirateChessState

    state = PirateChessState(game, Options.parse({"size": DEFAULT_SIZE, **(options or {})}))
    if to_move not in PLAYERS:
        raise ScenarioError("to_move", f"one of {', '.join(PLAYERS)}")
    state.to_move = PLAYERS.index(to_move)
    state.turns_played = (OPENING_TURNS, OPENING_TURNS)
    placed: list[list[tuple[str, int, bool]]] = [[] for _ in PLAYERS]
    for square_name, text in ships.items():
        square = state.geometry.index.get(square_name)
        if square is None:
            raise ScenarioError("ships", f"no square {square_name!r} on this board")
        fleet, kind, anchored = _layout_ship(text)
        placed[fleet].append((kind, square, anchored))
    try:
        for fleet, player in enumerate(PLAYERS):
            for kind in (reserves or {}).get(player, ()):
                if kind not in FLEET:
                    raise ScenarioError("reserves", f"a reserve holds ship types, not {kind!r}")
                state.add_ship(fleet, kind, RESERVE)
            for kind, square, anchored in placed[fleet]:
                number = 1 + sum(ship_kind(i) == kind for i in state.ships[fleet])
                state.add_ship(fleet, kind if number == 1 else f"{kind}{number}", square, anchored)
            if not state.on_board(fleet):
                raise ScenarioError("ships", f"the {player} fleet needs a ship on the board after the opening")
        state.lost = tuple(tuple(i for i in FLEET if i not in state.ships[f]) for f in range(len(PLAYERS)))
    except RecordError as exc:
        raise ScenarioError("ships", exc.message) from None
    used = upgrades_used or {}
    state.upgrades = tuple(
        {kind: int(used.get(player, {}).get(kind, 0)) for kind in UPGRADE_KINDS} for player in PLAYERS
    )
    if any(not 0 <= n <= UPGRADE_LIMIT for u in state.upgrades for n in u.values()):
        raise ScenarioError("upgrades_used", f"each upgrade kind is used 0 to {UPGRADE_LIMIT} times")
    state.history = [state.repetition_key()]
    return state


def _layout_ship(text: str) -> tuple[int, str, bool]:
    """'blue Frigate' or 'red Junk anchored' -> (fleet, type, anchored)."""
    words = text.split()
    anchored = words[-1:] == ["anchored"]
    if anchored:
        words = words[:-1]
    if len(words) != 2 or words[0] not in PLAYERS or words[1] not in SHIP_TYPES:
        raise ScenarioError("ships", f"write a ship as 'blue Frigate' or 'red Junk anchored', not {text!r}")
    return PLAYERS.index(words[0]), words[1], anchored
