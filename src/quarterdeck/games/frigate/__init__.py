"""Frigate, with the Suggested Rules Modifications (seed 001): single ships and squadrons on a hex
map, four movement segments a game-turn, fire at any moment, raking, running afoul, prizes, SiMove.

The descriptor the registry loads. Rules reference: docs/rules/frigate.md; where each rule lives:
docs/architecture.md, "Adding a rule book".
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from quarterdeck.core.hexes import distance
from quarterdeck.core.protocol import Game, ScenarioInfo, ships_phrase
from quarterdeck.core.registry import register

from . import combat, movement, simove
from .evaluate import SEARCH_SETTINGS, candidates, evaluate, evaluate_all, rollout_policy
from .scenario import OPTION_CHOICES, OPTION_NOTES, SIDES, builtin_names, load_scenario
from .state import FrigateState
from .terminal import TerminalView

__all__ = ["Frigate", "FrigateState"]


def board_notes(state: FrigateState) -> dict[str, Any]:
    """For the browser, worked out by the rules: in a fire window every attack the ship may make
    (range, Gunnery Strength against Defence Strength, raking, second side at half, CRT column;
    seed 001, Combat 1-4), for every ship that may still move this segment where she stands
    (after her SiMove plot so far) with the points left and each hexside turn's cost (Movement 3),
    and for every ship afloat that has nothing to do in the segment's step why, with its rule, as her
    side's captain would be told on naming her ("Essex is afoul of Guerriere: ... [rule: running-afoul]")."""
    fire: dict[str, dict[str, Any]] = {}
    if state.windows:
        ship = state.ships[state.windows[0]]
        for action in combat.fire_options(state, ship):
            target = state.ships[action.target]
            entry: dict[str, Any] = {"battery": action.battery, "target": action.target, "aim": action.aim,
                                     "range": distance(ship.hex, target.hex)}
            if action.battery in combat.BROADSIDES:
                attack = combat.describe_attack(state, ship, action.battery, target)
                entry.update(range=attack.range, gunnery=attack.gunnery, defence=attack.defence, rake=attack.rake,
                             half=attack.half, column=attack.column)
            fire[state.action_to_text(action)] = entry
    helm: dict[str, dict[str, Any]] = {}
    for ship in state.ship_list if state.segment else ():
        ghost = simove.shadow(state, ship)[0] if state.stage == "plot" else ship
        if ghost.afloat and not ghost.afoul and ghost.left > 0:
            helm[ship.name] = {
                "hex": state.grid.name(ghost.hex), "facing": ghost.facing.name, "left": ghost.left,
                "to_come": movement.points_to_come(state, ghost),
                "turns": {way: {"cost": movement.turn_cost(state, ghost, turn),
                                "into_wind": movement.into_wind(ghost.facing, turn, state.wind_from)}
                          for way, turn in movement.WAYS.items()},
            }
    idle: dict[str, str] = {}
    for ship in state.ship_list if state.segment and not state.windows else ():
        reason = state.idle_reason(ship.name, ship.owner) if ship.afloat else None
        if reason is not None:
            idle[ship.name] = str(reason)
    return {"fire": fire, "helm": helm, "idle": idle}


@register
class Frigate(Game):
    name = "frigate"
    title = "Frigate (Suggested Rules Modifications)"
    default_scenario = "frigate-duel"
    file_options = frozenset({"tables"})  # a user's own tables file (rulings: the lost tables)

    hook_evaluate = staticmethod(evaluate)
    hook_evaluate_all = staticmethod(evaluate_all)
    hook_candidates = staticmethod(candidates)
    hook_rollout_policy = staticmethod(rollout_policy)
    hook_search_settings = SEARCH_SETTINGS
    hook_terminal_view = TerminalView()
    hook_board_notes = staticmethod(board_notes)

    def scenarios(self) -> list[ScenarioInfo]:
        return self.listed_default_first(builtin_names())

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        loaded = load_scenario(scenario)
        # a user's tables file is the terminal's alone; the length shown is the scenario's own
        settings = {key: value for key, value in loaded.options.items() if key != "tables"}
        settings["turns"] = loaded.turns
        notes = {key: OPTION_NOTES[key] for key in settings}
        sides = {seat: f"{force.name}: {ships_phrase([s.name for s in loaded.ships if s.side == side])}"
                 for side, (seat, force) in enumerate(zip(SIDES, loaded.forces, strict=True))}
        return ScenarioInfo(scenario, loaded.title, loaded.briefing.strip(), settings, notes, OPTION_CHOICES, sides)

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> FrigateState:
        """A built-in scenario by name or a scenario file (.toml); options are the book's optional
        rules (simove, no_wind, wind_table, sagging, nearest_target, flagship_fired_on,
        preservation), `tables` (a user's tables file) and `turns`; the seed seeds the dice."""
        return FrigateState.start(self, load_scenario(scenario or self.default_scenario, options), seed)

    def state_from_json(self, data: dict[str, Any]) -> FrigateState:
        return FrigateState.from_json(self, data)

    def rules_summary(self) -> str:
        return resources.files(__package__).joinpath("summary.md").read_text(encoding="utf-8")

