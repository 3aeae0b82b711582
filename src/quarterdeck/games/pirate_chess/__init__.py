"""Pirate Chess (rule book seed 004): eight ships a side on a board whose edges join.

Rules reference: docs/rules/pirate-chess.md. The tables (ship moves, ranks, scenarios) are in
data.toml; positions, actions and notation in state.py; the terminal drawing in terminal.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.errors import RecordError, ScenarioError
from ...core.protocol import Game, ScenarioInfo
from ...core.registry import register
from .evaluation import evaluate
from .perft import perft, turns
from .rules import (
    DEFAULT_SIZE,
    FLEET,
    OPENING_TURNS,
    SCENARIOS,
    SHIP_TYPES,
    UPGRADE_KINDS,
    UPGRADE_LIMIT,
    Options,
    ship_kind,
)
from .state import CAPTURE, END, PLAYERS, RESERVE, SINK, Anchor, End, Move, PirateChessState, Place, Ship
from .terminal import TerminalView

__all__ = [
    "CAPTURE",
    "END",
    "PLAYERS",
    "SINK",
    "Anchor",
    "End",
    "Move",
    "PirateChess",
    "PirateChessState",
    "Place",
    "Ship",
    "perft",
    "turns",
]


@register
class PirateChess(Game):
    name = "pirate-chess"
    title = "Pirate Chess"
    default_scenario = "standard"
    hook_terminal_view = TerminalView()
    # open information and no chance: alpha-beta with iterative deepening plays it best (the levels
    # use it); the evaluation rewards Pirates, which alone can strike anchored ships
    hook_search = "alphabeta"

    def scenarios(self) -> list[ScenarioInfo]:
        return [
            ScenarioInfo(name, entry["title"], entry["briefing"], {"size": entry["size"]})
            for name, entry in SCENARIOS.items()
        ]

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> PirateChessState:
        """Both fleets complete in reserve, Blue to place. The game has no chance, so `seed` is unused."""
        scenario = scenario or self.default_scenario
        if scenario not in SCENARIOS:
            raise ScenarioError("scenario", f"unknown scenario {scenario!r}; scenarios are {', '.join(SCENARIOS)}")
        state = PirateChessState(self, Options.parse({"size": SCENARIOS[scenario]["size"], **(options or {})}))
        for fleet in range(len(PLAYERS)):
            for ship_id in FLEET:
                state.add_ship(fleet, ship_id, RESERVE)
        state.history = [state.repetition_key()]
        return state

    def layout(
        self,
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
        state = PirateChessState(self, Options.parse({"size": DEFAULT_SIZE, **(options or {})}))
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

    def state_from_json(self, data: dict[str, Any]) -> PirateChessState:
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise RecordError("not a Pirate Chess state")
        return PirateChessState.from_json(self, data)

    def rules_summary(self) -> str:
        ships = "\n".join(
            f"| {t.name} | {t.rank} | {t.moves} | {'yes' if t.anchors else 'never'} |" for t in SHIP_TYPES.values()
        )
        return f"""# Pirate Chess

Two fleets (Blue first, then Red) of one ship of each type start in reserve. The board is a torus:
every edge joins the opposite one. A turn is at most one fleet action (place a reserve ship on an
empty square, or move a ship) and at most one anchor action (anchor or weigh one ship), in either
order; the fleet action is required while one is legal. Each player's first {OPENING_TURNS} turns place
a ship, anchored unless it is a Pirate; no attack comes before that.

| Ship | Rank | Moves | Anchors |
|---|---|---|---|
{ships}

Ships slide and stop at the first ship in the way; the Pirate leaps. A move onto an enemy ship
attacks it: the enemy is sunk, or, when it outranks the attacker, may be captured instead (it
changes sides, unanchored, and the attacker leaves the game). Anchored ships cannot move and only a
Pirate can attack them. Join a second ship to one anchored in the harbour (centre four squares) to
upgrade both into a Frigate (anchored) or a Pirate ({UPGRADE_LIMIT} of each per player). A fleet with no
ship on the board after the opening loses. Threefold repetition and 100 quiet turns are draws.
"""

    def hook_evaluate(self, state: PirateChessState, player: int) -> float:
        return evaluate(state, player)


def _layout_ship(text: str) -> tuple[int, str, bool]:
    """'blue Frigate' or 'red Junk anchored' -> (fleet, type, anchored)."""
    words = text.split()
    anchored = words[-1:] == ["anchored"]
    if anchored:
        words = words[:-1]
    if len(words) != 2 or words[0] not in PLAYERS or words[1] not in SHIP_TYPES:
        raise ScenarioError("ships", f"write a ship as 'blue Frigate' or 'red Junk anchored', not {text!r}")
    return PLAYERS.index(words[0]), words[1], anchored
