"""Rules for Naval Warfare 1500-1850 (Gary Thomas; seed 003): ships on an open table, a wind pointer,
a ruler and d6, in the Armada and Nelson periods.

Rules reference: docs/rules/naval-warfare.md. Numbers in tables.toml, scenarios in scenarios/,
the table's geometry in core/plane.py.
"""

from __future__ import annotations

from typing import Any

from quarterdeck.core import plane
from quarterdeck.core.errors import RecordError
from quarterdeck.core.protocol import Game, ScenarioInfo, ships_phrase
from quarterdeck.core.registry import register

from . import evaluate as knowledge
from . import fire, movement
from .scenario import MOUNTS, OPTIONS, builtin_names, load_scenario
from .ship import Ship
from .state import NavalState
from .terminal import TerminalView

__all__ = ["NavalState", "NavalWarfare"]

REACH_SAMPLES = 9  # run headings sampled each side of the keel line for the allowable area


def board_notes(state: NavalState) -> dict[str, Any]:
    """For the browser, measured by the rules unless the `by-eye` option leaves people to judge:
    `reach`, for each ship of the side moving now that may run, [first turn, longest run in inches]
    on run headings sampled across her turn (rule 4) that her wind limit allows (rule 2), the run
    stopped short of hulls, land and shoals (rulings, "Movement"); `bearings`, for every ship in
    the fight, the enemies within 16 inches that each broadside's fan or keel line covers now
    (rule 10) with the range, the best band her guns there reach (rule 9) and what blocks the shot."""
    if state.scenario.option("by-eye") or state.outcome is not None:  # after the battle there is nothing to measure
        return {"aids": state.outcome is not None and not state.scenario.option("by-eye"), "reach": {}, "bearings": {}}
    movers = [s for s in state.ordered_ships() if s.side == state.moving and s.fighting and not s.moved]
    fighting = [s for s in state.ordered_ships() if s.fighting]
    return {"aids": True, "reach": {s.name: _reach(state, s) for s in movers},
            "bearings": {s.name: _bearings(state, s, fighting) for s in fighting}}


def _reach(state: NavalState, ship: Ship) -> list[list[float]]:
    lim = movement.limits(state, ship)
    if lim.mode not in ("sail", "oars") or lim.run_max <= 0:
        return []
    scan = movement.scan_for(state, ship, lim)
    step = max(1, -(-lim.turn // REACH_SAMPLES))
    found = []
    for turn in sorted({*range(-lim.turn, lim.turn, step), lim.turn}):
        heading = (ship.heading + turn) % 360
        if lim.wind is None or plane.angle_off(heading, state.wind) >= lim.wind:
            found.append([turn, scan.free_run(heading, lim.run_max) / 100])
    return found


def _bearings(state: NavalState, ship: Ship, fighting: list[Ship]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for mount in MOUNTS:
        guns = ship.mount_batteries(mount)
        for enemy in fighting if guns else ():
            distance = plane.distance(ship.point, enemy.point)
            if enemy.side == ship.side or distance > fire.MAX_RANGE or not fire.bears(ship, mount, enemy):
                continue
            bands = {fire.band(battery, distance) for battery in guns}
            found.setdefault(mount, []).append({
                "target": enemy.name, "range": round(distance / 100, 2),
                "band": next((b for b in ("short", "long") if b in bands), ""),
                "blocked": fire.blocked(state, ship, enemy)})
    return found


@register
class NavalWarfare(Game):
    name = "naval-warfare"
    title = "Rules for Naval Warfare 1500-1850"
    default_scenario = "armada"
    continuous_actions = True
    hook_evaluate = staticmethod(knowledge.evaluate)
    hook_evaluate_all = staticmethod(knowledge.evaluate_all)
    hook_candidates = staticmethod(knowledge.candidates)
    hook_rollout_policy = staticmethod(knowledge.rollout_policy)
    hook_search_settings = knowledge.SEARCH_SETTINGS
    hook_terminal_view = TerminalView()
    hook_board_notes = staticmethod(board_notes)

    def scenarios(self) -> list[ScenarioInfo]:
        return self.listed_default_first(builtin_names())

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        loaded = load_scenario(scenario)
        sides = {seat: ships_phrase([s.name for s in loaded.ships if s.side == side])
                 for side, seat in enumerate(loaded.sides)}
        return ScenarioInfo(scenario, loaded.title, loaded.briefing, dict(loaded.options), OPTIONS, sides=sides)

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> NavalState:
        """A built-in scenario by name or a scenario file (ending .toml); `options` switch the book's
        optional rules (see scenario.OPTIONS). The seed drives every die."""
        return NavalState.start(self, load_scenario(scenario or self.default_scenario, options), seed)

    def state_from_json(self, data: dict[str, Any]) -> NavalState:
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise RecordError("not a Naval Warfare state")
        return NavalState.from_json(self, data)

    def rules_summary(self) -> str:
        from importlib import resources

        text = resources.files(__package__).joinpath("summary.md").read_text()
        options = "\n".join(f"* `{key}`: {text}" for key, text in OPTIONS.items())
        return f"{text}\n## Options (scenario switches)\n\n{options}\n"
