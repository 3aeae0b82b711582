"""Frigate, with the Suggested Rules Modifications (seed 001): single ships and squadrons on a hex
map, four movement segments a game-turn, fire at any moment, raking, running afoul, prizes, SiMove.

The descriptor the registry loads. Rules reference: docs/rules/frigate.md; where each rule lives:
docs/architecture.md, "Adding a rule book".
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from quarterdeck.core.protocol import Game, ScenarioInfo
from quarterdeck.core.registry import register

from .evaluate import candidates, evaluate
from .scenario import builtin_names, load_scenario
from .state import FrigateState
from .terminal import TerminalView

__all__ = ["Frigate", "FrigateState"]


@register
class Frigate(Game):
    name = "frigate"
    title = "Frigate (Suggested Rules Modifications)"
    default_scenario = "frigate-duel"

    hook_evaluate = staticmethod(evaluate)
    hook_candidates = staticmethod(candidates)
    hook_terminal_view = TerminalView()

    def scenarios(self) -> list[ScenarioInfo]:
        names = sorted(builtin_names(), key=lambda name: (name != self.default_scenario, name))
        infos = []
        for name in names:
            scenario = load_scenario(name)
            settings = {key: value for key, value in scenario.options.items() if key != "tables"}
            infos.append(ScenarioInfo(name, scenario.title, scenario.briefing.strip(), settings))
        return infos

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
