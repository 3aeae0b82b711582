"""Napoleonic Chess (Peter J Carroll, 2016): every unit may move, then attack, in a single turn.

The rule book's standard scenario and all its advanced ones: Attack at Dawn (secret simultaneous
deployment), Marching Orders, the variant units, hills, redoubts, obstacles, larger boards and
several allied armies. The descriptor the registry loads. Rules reference:
docs/rules/napoleonic-chess.md; where each rule lives: docs/architecture.md, "Adding a rule book".
"""

from __future__ import annotations

from typing import Any

from quarterdeck.core.protocol import Game, ScenarioInfo
from quarterdeck.core.registry import register

from .combat import board_notes
from .evaluate import evaluate, evaluate_all
from .scenario import OPTION_KEYS, OPTION_NOTES, builtin_names, deployments, load_scenario
from .state import NapoleonicState
from .terminal import TerminalView
from .units import directions_phrase, standard_unit_types


@register
class NapoleonicChess(Game):
    name = "napoleonic-chess"
    title = "Napoleonic Chess"
    default_scenario = "standard"

    hook_evaluate = staticmethod(evaluate)
    hook_evaluate_all = staticmethod(evaluate_all)
    # The position key holds all the evaluation reads. An iteration costs about 1.5 ms here, so ai:1,
    # ai:4 and ai:5 search the iterations their move times hold (benchmarks/bench_levels.py, docs/ai.md).
    # Every level learns its evaluation scale while searching: a fixed scale of 2 for ai:5 won from its
    # own first turn but lost to ai:4 and ai:2 from varied openings (docs/ai.md). ai:2 slips on one
    # decision in ten: its 100 iterations otherwise play so close to ai:5 that ai:5 stood only +263
    # over it, short of the ladder's +300, while ai:2 beat the beginner in all of 100 games.
    hook_search_settings = {
        "exact_keys": True,
        "level_iterations": {1: 12, 4: 800, 5: 2800},
        "level_settings": {2: {"slip": 0.1}},
    }
    hook_terminal_view = TerminalView()
    hook_board_notes = staticmethod(board_notes)

    def scenarios(self) -> list[ScenarioInfo]:
        return self.listed_default_first(builtin_names())

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        loaded = load_scenario(scenario)
        settings = {
            "deployment": loaded.deployment,
            "placements_per_turn": loaded.placements_per_turn,
            "allied_attacks": loaded.allied_attacks,
            "quiet_turn_limit": loaded.quiet_turn_limit,
        }
        if loaded.redoubts_enabled:
            settings["redoubt_turns"] = loaded.redoubt_turns
        notes = {key: OPTION_NOTES[key] for key in settings}
        choices = {"deployment": deployments(loaded)}
        sides = {}  # an army's name says who it is, unless armies fight side by side: then each its alliance
        if len({army.alliance for army in loaded.armies}) < len(loaded.armies):
            for army in loaded.armies:
                allies = [a.name for a in loaded.armies if a.alliance == army.alliance and a is not army]
                sides[army.name] = f"the {army.alliance}" + (f", with {' and '.join(allies)}" if allies else "")
        return ScenarioInfo(scenario, loaded.title, loaded.briefing, settings, notes, choices, sides)

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> NapoleonicState:
        """A built-in scenario by name, or a scenario file by path (ending in .toml). No dice: the
        seed changes nothing."""
        return NapoleonicState.start(self, load_scenario(scenario or self.default_scenario, options))

    def state_from_json(self, data: dict[str, Any]) -> NapoleonicState:
        return NapoleonicState.from_json(self, data)

    def rules_summary(self) -> str:
        lines = [
            "# Napoleonic Chess",
            "",
            "Each turn the side to play moves any or all of its units (each once, one at a time), then",
            "declares attacks (each unit once, on one adjacent enemy in its attack directions). The",
            "defender then supports attacked units with units that are not themselves attacked. All",
            "attacks resolve at once: a unit is eliminated when the attack exceeds its defence plus",
            "supports plus terrain, and one of its attackers may advance into the empty square.",
            "Eliminate the enemy Guards to win; threefold repetition or 50 turns without an elimination",
            "draw.",
            "",
            "| unit | moves | attack | support | defence |",
            "|---|---|---|---|---|",
        ]
        for kind in standard_unit_types().values():
            lines.append(
                f"| {kind.title} | {kind.describe_move().removeprefix(kind.title + ' moves ')} "
                f"| {kind.attack}, {directions_phrase(kind.attack_directions)} "
                f"| {kind.support}, {directions_phrase(kind.support_directions)} | {kind.defence} |"
            )
        lines += ["", f"Options: {', '.join(OPTION_KEYS)}.", ""]
        return "\n".join(lines)
