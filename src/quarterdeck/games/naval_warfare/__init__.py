"""Rules for Naval Warfare 1500-1850 (Gary Thomas; seed 003): ships on an open table, a wind pointer,
a ruler and d6, in the Armada and Nelson periods.

Rules reference: docs/rules/naval-warfare.md. Numbers in tables.toml, scenarios in scenarios/,
the table's geometry in core/plane.py.
"""

from __future__ import annotations

from typing import Any

from quarterdeck.core.errors import RecordError
from quarterdeck.core.protocol import Game, ScenarioInfo
from quarterdeck.core.registry import register

from .evaluate import evaluate
from .scenario import OPTIONS, builtin_names, load_scenario
from .state import NavalState
from .terminal import TerminalView

__all__ = ["NavalState", "NavalWarfare"]


@register
class NavalWarfare(Game):
    name = "naval-warfare"
    title = "Rules for Naval Warfare 1500-1850"
    default_scenario = "armada"
    continuous_actions = True
    hook_evaluate = staticmethod(evaluate)
    hook_terminal_view = TerminalView()

    def scenarios(self) -> list[ScenarioInfo]:
        names = sorted(builtin_names(), key=lambda n: (n != self.default_scenario, n))
        infos = []
        for name in names:
            scenario = load_scenario(name)
            infos.append(ScenarioInfo(name, scenario.title, scenario.briefing, dict(scenario.options)))
        return infos

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
