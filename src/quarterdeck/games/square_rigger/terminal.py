"""The terminal view of Square Rigger Chess (Rich): board, wind, ships, fire and defence panels."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.protocol import Action
from . import fire
from .actions import AssignFire, MoveShip, bearing_label
from .evaluate import optimal_defence, projected_hits
from .scenario import HARBOUR, LAND
from .state import SquareRiggerState
from .turn import DEFENCE, FIRE

ARROWS = "↑↗→↘↓↙←↖"
CLASS_MARK = {"first": "1", "second": "2", "third": "3", "frigate": "F"}
ROLE_MARK = {"merchant": "M", "transport": "T"}
SIDE_STYLE = ["bold bright_blue", "bold bright_red", "bold green", "bold yellow"]


class SquareRiggerView:
    def _side_style(self, state: SquareRiggerState, side: str) -> str:
        return SIDE_STYLE[state.setup.sides.index(side) % len(SIDE_STYLE)]

    def board(
        self, state: SquareRiggerState, selected: str | None = None, targets: Iterable[Action] = ()
    ) -> RenderableType:
        setup = state.setup
        grid = setup.grid
        marked = {self._target_square(state, a) for a in targets} - {None}
        headings: dict = {}
        for action in targets:
            if isinstance(action, MoveShip):
                headings.setdefault(action.square, []).append(ARROWS[action.heading])
        text = Text()
        text.append("    " + "".join(f" {chr(97 + x)} " for x in range(grid.width)) + "\n", style="dim")
        for y in range(grid.height - 1, -1, -1):
            text.append(f"{y + 1:>3} ", style="dim")
            for x in range(grid.width):
                text.append(*self._cell(state, (x, y), selected, marked, headings))
            text.append(f" {y + 1}\n", style="dim")
        text.append("    " + "".join(f" {chr(97 + x)} " for x in range(grid.width)), style="dim")
        return text

    def _cell(self, state: SquareRiggerState, square, selected, marked, headings) -> tuple[str, str]:
        terrain = state.setup.terrain_at(square)
        background = {LAND: "on dark_green", HARBOUR: "on dark_cyan"}.get(terrain, "on navy_blue")
        occupant = state.occupant.get(square)
        if occupant is not None:
            style = self._side_style(state, state.side_of(occupant))
            if state.is_battery(occupant):
                glyph = " ▣ " if state.is_active(occupant) else " ▢ "
            else:
                info = state.setup.ships[occupant]
                mark = ROLE_MARK.get(info.role, CLASS_MARK.get(info.ship_class, "?"))
                glyph = f"{mark}{ARROWS[state.heading[occupant]]} "
                if state.is_struck(occupant):
                    glyph, style = f"{mark}✕ ", "dim white"
            if occupant == selected:
                style += " reverse"
            return glyph, f"{style} {background}"
        if square in marked:
            arrows = "".join(sorted(set(headings.get(square, []))))[:2] or "◦"
            return f"{arrows:^3}", "bold black on yellow"
        filler = {LAND: " ░ ", HARBOUR: " ≈ "}.get(terrain, " · ")
        return filler, f"grey50 {background}"

    def _target_square(self, state: SquareRiggerState, action: Action):
        if isinstance(action, MoveShip):
            return action.square
        if isinstance(action, AssignFire):
            target, _ = fire.fire_target(state, action.piece, action.bearing)
            return state.location(target) if target else None
        return None

    def destination(self, state: SquareRiggerState, action: Action) -> str | None:
        square = self._target_square(state, action)
        return state.setup.grid.name(square) if square is not None else None

    def shortcuts(self, state: SquareRiggerState, player: int) -> dict[str, list[Action]]:
        if state.phase == DEFENCE and state.current_player() == player:
            return {"optimal": optimal_defence(state)}
        return {}

    def status(self, state: SquareRiggerState) -> RenderableType:
        parts: list[RenderableType] = []
        wind = f"{state.wind_strength} from the {state.wind_from.name} (blowing {ARROWS[state.wind_from.opposite()]})"
        seat = state.players[state.seat] if state.outcome is None else "-"
        parts.append(Text.from_markup(
            f"[bold]{state.setup.title}[/bold]  turn {state.turn}"
            f"{'/' + str(state.setup.turn_limit) if state.setup.turn_limit else ''}  "
            f"to play: [bold]{seat}[/bold]  phase: [bold]{state.phase}[/bold]\nwind: {wind}"
        ))
        parts.append(self._pieces_table(state))
        if state.phase == FIRE and state.outcome is None:
            parts.append(self._fire_table(state))
        if state.fire:
            parts.append(self._assigned_table(state))
        return Group(*parts)

    def _pieces_table(self, state: SquareRiggerState) -> Table:
        table = Table(title="Ships and batteries", title_justify="left", pad_edge=False, box=None)
        for column in ("name", "side", "class", "square", "head", "F S T", "state"):
            table.add_column(column)
        for name in state.hits:
            style = self._side_style(state, state.side_of(name))
            f, s, t = state.factors(name)
            if state.is_battery(name):
                info = state.setup.batteries[name]
                fields = " ".join(sorted(d.name for d in info.field))
                status = "silenced" if state.is_struck(name) else f"fires {fields}"
                table.add_row(Text(name, style=style), info.side, "battery", state.setup.grid.name(info.square),
                              "", f"{f}", status)
                continue
            info = state.setup.ships[name]
            where = "-" if name in state.escaped else state.setup.grid.name(state.square[name])
            status = ("escaped" if name in state.escaped else "struck" if state.is_struck(name)
                      else "moved" if name in state.moved else "")
            title = state.setup.class_titles.get(info.ship_class, info.ship_class)
            if info.role != "warship":
                title = f"{info.role} ({title})"
            table.add_row(Text(name, style=style), info.side, title, where, state.heading[name].name,
                          f"{f} {s} {t}", status)
        return table

    def _fire_table(self, state: SquareRiggerState) -> Table:
        """For each piece of the firing seat: every bearing's cap, target, distance and effect range."""
        table = Table(title="Fire: bearings with a target", title_justify="left", box=None, pad_edge=False)
        for column in ("piece", "bearing", "cap", "target", "distance", "effect (amount: effect)"):
            table.add_column(column)
        side, squadron = state.setup.seats[state.seat]
        for name in state.pieces(side, squadron):
            if not fire.can_fire(state, name):
                continue
            for bearing in range(8):
                cap = fire.cap(state, name, bearing)
                target, distance = fire.fire_target(state, name, bearing)
                if cap <= 0 or target is None:
                    continue
                effects = ", ".join(f"{a}:{a - distance + 1}" for a in range(distance, cap + 1)) or "out of reach"
                table.add_row(name, bearing_label(state, name, bearing), str(cap), target, str(distance), effects)
        return table

    def _assigned_table(self, state: SquareRiggerState) -> Table:
        table = Table(title=f"Fire assigned (hits against the best defence: {projected_hits(state)})",
                      title_justify="left", box=None, pad_edge=False)
        for column in ("piece", "bearing", "amount", "target", "arrives on", "effect", "defence", "cap"):
            table.add_column(column)
        for line in state.fire:
            defended = state.defence.get((line.target, line.target_bearing))
            table.add_row(line.piece, bearing_label(state, line.piece, line.bearing), str(line.amount), line.target,
                          bearing_label(state, line.target, line.target_bearing), str(line.effect),
                          "-" if defended is None else str(defended),
                          str(fire.cap(state, line.target, line.target_bearing)))
        return table

