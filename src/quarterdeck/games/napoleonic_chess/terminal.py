"""The terminal view (`hook_terminal_view`): the board with terrain, units by side and type, and the
odds of every declared attack.

Each square is three characters: a unit's two-letter symbol coloured by its army, or a dot. Hills
and redoubts colour the square; an obstacle is a heavy line on the edge it marks; the selected unit
and its legal target squares are highlighted (`selected` is a unit id or a square, `targets` legal
actions or squares). Given an observation (`state.observe(p)`) during Attack at Dawn, the viewer's own
secret placements show in lower case; a full state shows nobody's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.color import Color, ColorParseError
from rich.console import Group, RenderableType
from rich.text import Text

from quarterdeck.core.errors import NotationError
from quarterdeck.core.geometry import Square

from .actions import Advance, Attack, EndPhase, Move, Place, Support
from .evaluate import best_defence
from .state import NapoleonicState
from .units import UnitType

LIGHT, DARK = "on grey82", "on grey70"
HILL, REDOUBT = "on dark_khaki", "on tan"
SELECTED, TARGET = "on sky_blue1", "on plum2"
SPARE_COLOURS = ("dark_green", "magenta", "dark_orange3", "purple")
OBSTACLE = "bold blue"
PHASE_HELP = {  # seed 002: "Movement and Combat", "Eliminating pieces", "Advanced Scenarios" a) and b)
    "deployment": "place your units one at a time on your own ranks, taking turns",
    "secret-deployment": "place all your units on your own two ranks; nobody sees them until every army has placed",
    "move": "move any of your units, each once, then `end`",
    "attack": "declare attacks on adjacent enemies (`<square> <square>`), then `end`; the defender supports next",
    "support": "support your attacked units from beside them (a unit under attack cannot), then `end`",
    "advance": "one attacker may move into a square its attack emptied, then `end`",
}


class TerminalView:
    def board(self, state: NapoleonicState, selected: Any = None, targets: Iterable[Any] = ()) -> RenderableType:
        grid = state.scenario.grid
        chosen = _square_of(state, selected)
        marked = {square for item in targets if (square := _square_of(state, item)) is not None}
        colours = _army_colours(state)
        obstacles = state.scenario.obstacles
        header = Text("    " + "".join(f" {grid.name((x, 0))[0]}  " for x in range(grid.width)))
        lines = [header]
        for y in reversed(range(grid.height)):
            line = Text(f"{y + 1:>3} ")
            for x in range(grid.width):
                square = (x, y)
                line.append(_cell(state, square, chosen, marked, colours))
                edge = frozenset((square, (x + 1, y)))
                line.append("┃" if edge in obstacles else " ", style=OBSTACLE)
            lines.append(line)
            edges_below = [frozenset(((x, y), (x, y - 1))) in obstacles for x in range(grid.width)]
            if any(edges_below):
                lines.append(Text("    " + "".join("━━━ " if edge else "    " for edge in edges_below), style=OBSTACLE))
        legend = Text("  ")
        for army, name in enumerate(state.players):
            legend.append(f"{name}", style=f"bold {colours[army]}")
            legend.append("  ")
        legend.append(" hill ", style=HILL)
        legend.append(" ")
        legend.append(" redoubt ", style=REDOUBT)
        lines.append(legend)
        return Group(*lines)

    def status(self, state: NapoleonicState) -> RenderableType:
        lines = [Text(state.scenario.title, style="bold"), Text(state.describe())]
        for engagement in state.engagements():
            verdict = "falls" if engagement.falls else "holds"
            detail = f"{engagement.base_defence}"
            if engagement.support:
                detail += f" + support {engagement.support}"
            if engagement.terrain:
                detail += f" + terrain {engagement.terrain}"
            lines.append(
                Text(
                    f"  {state.scenario.square_name(engagement.target)} {engagement.defender.id}: "
                    f"attack {engagement.attack} against defence {engagement.defence} ({detail}): {verdict}",
                    style="red" if engagement.falls else "green",
                )
            )
        if state.redoubts:
            names = ", ".join(sorted(state.scenario.square_name(s) for s in state.redoubts))
            lines.append(Text(f"  redoubts: {names}"))
        return Group(*lines)

    def destination(self, state: NapoleonicState, action: Any) -> str | None:
        square = _action_square(action)
        return None if square is None else state.scenario.square_name(square)

    def shortcuts(self, state: NapoleonicState, player: int) -> dict[str, list[Any]]:
        if state.phase == "support" and player in state.acting_players():
            return {"best-defence": best_defence(state, player)}
        return {}

    def help(self, state: NapoleonicState, player: int) -> list[tuple[str, str]]:
        """This game's ways of typing (the phases: seed 002, "Sequence of Play")."""
        return [
            ("<square>", "select the unit standing there (or type its id, e.g. red-infantry-1)"),
            (
                "<square> <square>",
                "the unit on the first square moves, attacks, supports or advances to the second, e.g. `d2 d4`",
            ),
            ("<unit type> <square>", "while deploying: place a unit, e.g. `guards e2`" + _left_to_place(state, player)),
            ("best-defence", "in the support phase: the supports that save the most units"),
            (
                "the board",
                "a unit is two letters in its army's colour (In infantry, Ca cavalry, Ar artillery, "
                "Gd guards ...); small italic letters are your own secret placements",
            ),
        ]

    def phase_help(self, state: NapoleonicState, player: int) -> str | None:
        return PHASE_HELP.get(state.phase) if state.outcome is None else None


def _left_to_place(state: NapoleonicState, player: int) -> str:
    left = {kind: n for kind, n in state.to_place.get(player, {}).items() if n} if state.to_place else {}
    return " (to place: " + ", ".join(f"{n} {kind}" for kind, n in left.items()) + ")" if left else ""


def _cell(
    state: NapoleonicState, square: Square, chosen: Square | None, marked: set[Square], colours: list[str]
) -> Text:
    if square == chosen:
        background = SELECTED
    elif square in marked:
        background = TARGET
    elif square in state.redoubts:
        background = REDOUBT
    elif square in state.scenario.hills:
        background = HILL
    else:
        background = LIGHT if (square[0] + square[1]) % 2 else DARK
    unit = state.board.get(square)
    if unit is not None:
        return Text(f"{unit.kind.symbol:^3}", style=f"bold {colours[unit.army]} {background}")
    planned = _own_secret_plan(state).get(square)
    if planned is not None:
        return Text(f"{planned.symbol.lower():^3}", style=f"italic {colours[state.viewer]} {background}")
    return Text(" · ", style=f"grey50 {background}")


def _own_secret_plan(state: NapoleonicState) -> dict[Square, UnitType]:
    """The viewer's own secret placements, on an observation (`state.observe(p)`) only: a full state
    holds every army's plan and must not show any of them."""
    if state.viewer is None:
        return {}
    return {square: state.scenario.unit_types[kind] for square, kind in state.hidden.get(state.viewer, ())}


def _army_colours(state: NapoleonicState) -> list[str]:
    """An army named after a colour is drawn in it; the others take spare colours in turn."""
    spare = iter(SPARE_COLOURS * len(state.players))
    colours = []
    for name in state.players:
        try:
            Color.parse(name)
            colours.append(name)
        except ColorParseError:
            colours.append(next(spare))
    return colours


def _action_square(action: Any) -> Square | None:
    """The square an action ends on or acts upon."""
    if isinstance(action, Move | Advance):
        return action.destination
    if isinstance(action, Attack | Support):
        return action.target
    if isinstance(action, Place):
        return action.square
    return None


def _square_of(state: NapoleonicState, item: Any) -> Square | None:
    """A square given as a square, an action (its target), a square name or a unit id."""
    if item is None:
        return None
    if isinstance(item, tuple):
        return item
    if isinstance(item, Move | Advance | Attack | Support | Place | EndPhase):
        return _action_square(item)
    text = str(item)
    for square, unit in state.board.items():
        if unit.id == text:
            return square
    try:
        return state.scenario.grid.parse(text)
    except NotationError:  # not a square name either: nothing to highlight
        return None
