"""Square Rigger Chess (seed 000): Napoleonic-era sailing ships on squares, no chance."""

from __future__ import annotations

from importlib import resources
from typing import Any

from ...core.files import is_file_name
from ...core.protocol import Game, ScenarioInfo
from ...core.registry import register
from . import evaluate
from .scenario import build_setup, load_scenario_data, scenario_names, shipped_setup
from .state import SquareRiggerState, state_from_json


@register
class SquareRiggerChess(Game):
    name = "square-rigger"
    title = "Square Rigger Chess"
    default_scenario = "duel"

    def scenarios(self) -> list[ScenarioInfo]:
        return [self.scenario_info(name) for name in scenario_names()]

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        # a player's file is read afresh and checked whole, as play would check it
        setup = build_setup(load_scenario_data(scenario)) if is_file_name(scenario) else shipped_setup(scenario)
        return ScenarioInfo(scenario, setup.title, " ".join(setup.briefing.split()))

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> SquareRiggerState:
        data = load_scenario_data(scenario or self.default_scenario)
        return SquareRiggerState(self, build_setup(data, options), seed)

    def state_from_setup(self, data: dict[str, Any], options: dict[str, Any] | None = None) -> SquareRiggerState:
        """A game from scenario data given directly (a user's own scenario file)."""
        return SquareRiggerState(self, build_setup(data, options))

    def state_from_json(self, data: dict[str, Any]) -> SquareRiggerState:
        return state_from_json(self, data)

    def rules_summary(self) -> str:
        return resources.files(__package__).joinpath("summary.md").read_text()

    hook_evaluate = staticmethod(evaluate.evaluate)
    hook_candidates = staticmethod(evaluate.candidates)
    hook_search = "alphabeta"  # no dice and nothing hidden: alpha-beta outplays MCTS here (docs/ai.md)
    hook_search_settings = evaluate.SEARCH_SETTINGS

    @property
    def hook_terminal_view(self):
        from .terminal import SquareRiggerView

        return SquareRiggerView()
