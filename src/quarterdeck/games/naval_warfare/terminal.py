"""The terminal view of Naval Warfare (`hook_terminal_view`): the table scaled to characters, ships
as arrows pointing their heading, land and shoals, the wind, the clock, and each ship's state.

One character is an inch across and two inches down. A selected ship is highlighted and, unless
the `by-eye` option hides such aids, the range and bearing to every enemy and which of its
broadsides bear are listed under the table (the seed's ruler, fans and keel lines).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from quarterdeck.core import plane

from . import fire, victory
from .actions import Move
from .state import NavalState
from .wind import STRENGTHS, wind_name

ARROWS = "↑↗→↘↓↙←↖"
COLOURS = ("bold blue", "bold red")


def arrow(heading: int) -> str:
    return ARROWS[round(heading / 45) % 8]


def battery_text(ship) -> str:
    """Batteries by mount, e.g. 'port 2M 3L, starboard 2M 3L, ahead 1L' (h: half battery)."""
    parts = []
    for mount in ("port", "starboard", "ahead", "astern"):
        counts: dict[str, int] = {}
        for m, b in ship.batteries:
            if m == mount:
                key = ("h" if b.half else "") + b.kind[0].upper()
                counts[key] = counts.get(key, 0) + 1
        if counts:
            parts.append(f"{mount} " + " ".join(f"{n}{k}" for k, n in counts.items()))
    return ", ".join(parts)


class TerminalView:
    def board(self, state: NavalState, selected: Any = None, targets: Iterable[Any] = ()) -> RenderableType:
        width = max(1, state.scenario.width // 100)
        height = max(1, state.scenario.height // 200)
        cells = [[(".", "dim") for _ in range(width + 1)] for _ in range(height + 1)]
        for land in state.scenario.land:
            mark = ("#", "green") if land.kind == "land" else ("~", "cyan")
            for row in range(height + 1):
                for col in range(width + 1):
                    if plane.point_in_polygon((col * 100 + 50, row * 200 + 100), land.polygon):
                        cells[row][col] = mark
        for action in targets:
            if isinstance(action, Move):
                ship = state.ships[action.ship]
                heading = (ship.heading + action.turn1) % 360
                x, y = plane.advance(ship.point, heading, action.run)
                col, row = int(x // 100), int(y // 200)
                if 0 <= row <= height and 0 <= col <= width:
                    cells[row][col] = ("+", "magenta")
        for ship in state.ships.values():
            if not ship.in_play:
                continue
            col, row = int(ship.x // 100), int(ship.y // 200)
            if 0 <= row <= height and 0 <= col <= width:
                style = COLOURS[ship.side] + (" reverse" if ship.name == selected else "")
                cells[row][col] = (arrow(ship.heading), style)
        lines = []
        for row in reversed(range(height + 1)):
            text = Text(f"{row * 2:>3} ")
            for char, style in cells[row]:
                text.append(char, style=style)
            lines.append(text)
        lines.append(Text("    " + "".join(str((c // 10) % 10) if c % 10 == 0 else " " for c in range(width + 1))))
        if selected in state.ships and not state.scenario.option("by-eye"):
            lines += self._ruler(state, state.ships[selected])
        return Group(*lines)

    def _ruler(self, state: NavalState, ship) -> list[Text]:
        out = [Text(f"from {ship.name}: range and bearing (the ruler)", style="italic")]
        for enemy in state.ships.values():
            if enemy.side == ship.side or not enemy.in_play:
                continue
            distance = plane.distance(ship.point, enemy.point) / 100
            bearing = plane.bearing(ship.point, enemy.point)
            mounts = [m for m in ("port", "starboard", "ahead", "astern")
                      if ship.mount_batteries(m) and fire.bears(ship, m, enemy)]
            bear = f"; {', '.join(mounts)} bear" if mounts else ""
            out.append(Text(f"  {enemy.name}: {distance:.2f} in, bearing {bearing:.0f}{bear}"))
        return out

    def status(self, state: NavalState) -> RenderableType:
        lines = [
            Text(state.scenario.title, style="bold"),
            Text(f"move {state.move_number}, {victory.clock_text(state.clock)}, {state.moves_left()} moves left; "
                 f"wind {STRENGTHS[state.strength]} from the {wind_name(state.wind)} "
                 f"(prevailing {wind_name(state.prevailing) if state.prevailing is not None else 'none'}); "
                 f"score {state.players[0]} {victory.scores(state)[0]}, {state.players[1]} {victory.scores(state)[1]}"),
            Text(state.describe() + f" ({state.phase})"),
        ]
        for ship in state.ships.values():
            marks = [m for m, on in (("in irons", ship.irons), ("adrift", ship.adrift), ("on fire", ship.on_fire),
                                     ("hove to", ship.heave_to), ("under oars", ship.oars),
                                     (f"grappled to {ship.grappled}", ship.grappled),
                                     (f"towing {ship.tow}" if ship.towing else f"towed by {ship.tow}", ship.tow),
                                     ("moved", ship.moved)) if on]
            if ship.status == "waiting":  # a reinforcement (rulings): when and where she comes on
                placement = next(p for p in state.scenario.ships if p.name == ship.name)
                marks.append(f"arrives on move {placement.arrives} at the {placement.edge} edge")
            batteries = battery_text(ship)
            lines.append(Text(
                f"{arrow(ship.heading)} {ship.name:<14} {ship.status:<11} ({ship.x / 100:5.2f},{ship.y / 100:5.2f}) "
                f"hdg {ship.heading:>3}  flot {ship.flotation}/{ship.spec.flotation} crew {ship.crew}/{ship.spec.crew} "
                f"masts lost {ship.masts_lost}  {', '.join(marks)}; {batteries or 'no batteries'}",
                style=COLOURS[ship.side] if ship.in_play else "dim"))
        return Group(*lines)

    def destination(self, state: NavalState, action: Any) -> str | None:
        return None  # moves are measured, not squares: type them, or choose one by number

    def shortcuts(self, state: NavalState, player: int) -> dict[str, list]:
        return {}
