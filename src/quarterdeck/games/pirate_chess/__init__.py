"""Pirate Chess (rule book seed 004): eight ships a side on a board whose edges join.

The descriptor the registry loads. Rules reference: docs/rules/pirate-chess.md; where each rule
lives: docs/architecture.md, "Adding a rule book".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import RecordError
from ...core.protocol import Game, ScenarioInfo
from ...core.registry import register
from .evaluate import evaluate
from .scenario import (
    DEFAULT_SCENARIO,
    OPENING_TURNS,
    SHIP_TYPES,
    UPGRADE_LIMIT,
    initial_state,
    scenario_info,
    scenario_options,
    shipped_scenarios,
)
from .scenario import layout as build_layout
from .state import PirateChessState
from .terminal import TerminalView


@register
class PirateChess(Game):
    name = "pirate-chess"
    title = "Pirate Chess"
    default_scenario = DEFAULT_SCENARIO
    hook_terminal_view = TerminalView()
    # open information and no chance: alpha-beta with iterative deepening plays it best (the levels
    # use it); the evaluation rewards Pirates, which alone can strike anchored ships
    hook_search = "alphabeta"
    hook_search_settings = {"exact_keys": True}  # the position key holds all the evaluation reads

    def scenarios(self) -> list[ScenarioInfo]:
        return shipped_scenarios()

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        return scenario_info(scenario)

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> PirateChessState:
        """Both fleets complete in reserve, Blue to place. The game has no chance, so `seed` is unused."""
        return initial_state(self, scenario_options(scenario or self.default_scenario, options))

    def layout(self, ships: Mapping[str, str], **position: Any) -> PirateChessState:
        """A position after the opening, for studies, tests and benchmarks: see `scenario.layout`."""
        return build_layout(self, ships, **position)

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
