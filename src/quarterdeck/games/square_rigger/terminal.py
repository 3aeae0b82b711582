"""The terminal view of Square Rigger Chess (Rich): board, wind, ships, victory, fire and defence panels.

Each ship is drawn as a letter of her name and an arrow for her heading (``V→``): capitals for the
first side, small letters for the second, so the sides differ without colour; a struck ship shows
``✕`` for the arrow, a battery ``▣`` (``▢`` once silenced). Where the board and the list of ships do
not fit the terminal below each other (a fleet battle in 80x24), the board is drawn compact (two
characters a square) with the key of letters beside it: name, F S T and a mark (``✓`` moved this
turn, ``✕`` struck, ``⇥`` escaped). The status gives each side's victory conditions with how far it
has come (seed 000, "General notes on scenarios and tactics"; rules-decisions.md, "Victory").
"""

from __future__ import annotations

import string
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ...core.protocol import Action
from . import fire
from .actions import AssignFire, EndDefence, MoveShip, bearing_label
from .evaluate import optimal_defence, projected_hits
from .scenario import HARBOUR, LAND
from .state import SquareRiggerState
from .turn import DEFENCE, FIRE, MOVE
from .victory import Victory, points

ARROWS = "↑↗→↘↓↙←↖"
ROLE_PLURAL = {"warship": "warships", "merchant": "merchantmen", "transport": "transports"}
SIDE_STYLE = ["bold bright_blue", "bold bright_red", "bold green", "bold yellow"]
MOVED, STRUCK, ESCAPED, TARGET = "✓", "✕", "⇥", "◦"
STATUS_LINES = 4  # the lines of the status above its tables, and the prompt
PHASE_HELP = {
    MOVE: "move any of your ships (each once), then `end`: no two may end on touching squares",
    FIRE: "give firepower to bearings with a target (`<ship> <bearing> <amount>`), then `end`",
    DEFENCE: "give defence to the bearings fired on (`optimal` gives the best), then `end`",
}


def labels(state: SquareRiggerState) -> dict[str, str]:
    """One letter per piece, from its name where free: capitals for the first side (and every second
    one after it), small letters for the others, so no two pieces of a case share a letter."""
    taken: dict[bool, set[str]] = {True: set(), False: set()}
    found: dict[str, str] = {}
    for name in state.pieces():
        upper = state.setup.sides.index(state.side_of(name)) % 2 == 0
        alphabet = string.ascii_uppercase if upper else string.ascii_lowercase
        wanted = [c.upper() if upper else c.lower() for c in name if c.isalpha()]
        letter = next((c for c in [*wanted, *alphabet, *string.digits] if c not in taken[upper]), "?")
        taken[upper].add(letter)
        found[name] = letter
    return found


class SquareRiggerView:
    automatic_names = ("defence",)

    def board(
        self, state: SquareRiggerState, selected: str | None = None, targets: Iterable[Action] = ()
    ) -> RenderableType:
        return _Board(self, state, selected, list(targets))

    def status(self, state: SquareRiggerState) -> RenderableType:
        return _Status(self, state)

    def compact(self, console: Console, state: SquareRiggerState) -> bool:
        """Whether the board and the ships' table do not fit the terminal below each other."""
        grid = state.setup.grid
        height = grid.height + 2 + len(state.hits) + 2 + STATUS_LINES
        return console.width < 8 + 3 * grid.width or console.height < height

    # --- the board ---------------------------------------------------------------------------------
    def draw(self, state: SquareRiggerState, selected: str | None, targets: list[Action], cell: int) -> list[Text]:
        """The board's lines, `cell` characters a square (3 wide, 2 compact), north up."""
        grid = state.setup.grid
        marked = {self._target_square(state, a) for a in targets} - {None}
        headings: dict = {}
        for action in targets:
            if isinstance(action, MoveShip):
                headings.setdefault(action.square, []).append(ARROWS[action.heading])
        letters = labels(state)
        files = "   " + "".join(f"{chr(97 + x):^{cell}}" for x in range(grid.width))
        lines = [Text(files, style="dim")]
        for y in range(grid.height - 1, -1, -1):
            line = Text(f"{y + 1:>2} ", style="dim")
            for x in range(grid.width):
                line.append(*self._cell(state, (x, y), selected, marked, headings, letters, cell))
            if cell == 3:
                line.append(f" {y + 1}", style="dim")
            lines.append(line)
        if cell == 3:
            lines.append(Text(files, style="dim"))
        return lines

    def _cell(self, state: SquareRiggerState, square, selected, marked, headings, letters, cell) -> tuple[str, str]:
        terrain = state.setup.terrain_at(square)
        background = {LAND: "on dark_green", HARBOUR: "on dark_cyan"}.get(terrain, "on navy_blue")
        occupant = state.occupant.get(square)
        if occupant is not None:
            style = self._side_style(state, state.side_of(occupant))
            if state.is_battery(occupant):
                mark = "▣" if state.is_active(occupant) else "▢"
            else:
                mark = STRUCK if state.is_struck(occupant) else ARROWS[state.heading[occupant]]
            if state.is_struck(occupant):
                style = "dim white"
            if occupant == selected:
                style += " reverse"
            glyph = f"{letters[occupant]}{mark}"
            if square in marked:  # fired on: marked over the ship, underlined where a third character lacks
                glyph, background = glyph + TARGET, "underline on yellow"
            return glyph.ljust(cell)[:cell], f"{style} {background}"
        if square in marked:
            arrows = sorted(set(headings.get(square, [])))
            if cell == 2:
                text = TARGET + (arrows[0] if len(arrows) == 1 else str(len(arrows)) if arrows else TARGET)
            else:
                text = ("".join(arrows) if len(arrows) <= cell else f"{len(arrows)}{TARGET}") or TARGET
            return f"{text:^{cell}}", "bold black on yellow"
        filler = {LAND: "░", HARBOUR: "≈"}.get(terrain, "·")
        return f"{filler:^{cell}}", f"grey50 {background}"

    def legend(self, state: SquareRiggerState, rows: int, width: int) -> list[Text] | None:
        """The key of letters in columns of `rows` lines within `width` characters, each side in
        columns of its own under a heading; None where it cannot fit."""
        letters = labels(state)
        per_side = [[name for name in state.pieces(side)] for side in state.setup.sides]
        chunks = [names[i : i + rows - 1] for names in per_side for i in range(0, len(names), rows - 1)]
        name_width = min(width // len(chunks) - 9, max(map(len, letters)))
        if name_width < 5:
            return None
        columns = []
        for names in chunks:
            case = "A-Z" if letters[names[0]].isupper() else "a-z"
            heading = f"{state.side_of(names[0])} ({case})"[: name_width + 2]
            entries = [Text(f"{heading:<{name_width + 2}} F S T ", style="bold")]
            for name in names:
                f, s, t = state.factors(name)
                entries.append(Text(f"{letters[name]}{self._mark(state, name)}{name[:name_width]:<{name_width}} "
                                    f"{f} {s} {t} ", style=self._side_style(state, state.side_of(name))))
            columns.append(entries)
        blank = Text(" " * (name_width + 9))
        return [Text(" ").join(c[row] if row < len(c) else blank for c in columns) for row in range(rows)]

    def _mark(self, state: SquareRiggerState, name: str) -> str:
        if name in state.escaped:
            return ESCAPED
        if state.is_struck(name):
            return STRUCK
        return MOVED if name in state.moved else " "

    def _side_style(self, state: SquareRiggerState, side: str) -> str:
        return SIDE_STYLE[state.setup.sides.index(side) % len(SIDE_STYLE)]

    def _target_square(self, state: SquareRiggerState, action: Action):
        if isinstance(action, MoveShip):
            return action.square
        if isinstance(action, AssignFire):
            target, _ = fire.fire_target(state, action.piece, action.bearing)
            return state.location(target) if target else None
        return None

    # --- what the terminal loop asks -------------------------------------------------------------------
    def destination(self, state: SquareRiggerState, action: Action) -> str | None:
        square = self._target_square(state, action)
        return state.setup.grid.name(square) if square is not None else None

    def shortcuts(self, state: SquareRiggerState, player: int) -> dict[str, list[Action]]:
        if state.phase == DEFENCE and state.current_player() == player:
            return {"optimal": optimal_defence(state)}
        return {}

    def automatic(self, state: SquareRiggerState, player: int) -> dict[str, list[Action]]:
        """The defence a person is spared unless they switch it off: the optimal one, then `end-defence`
        (the hits cannot be fewer, so nothing is lost by it)."""
        if state.phase == DEFENCE and state.current_player() == player and state.outcome is None:
            return {"defence": [*optimal_defence(state), EndDefence()]}
        return {}

    def help(self, state: SquareRiggerState, player: int) -> list[tuple[str, str]]:
        return [
            ("Victory d5 NE", "move a ship in one command (`Victory d5` asks the heading if several)"),
            ("Victory port-beam 3", "fire, or defend, on a bearing: fore, stbd-bow, stbd-beam, stbd-quarter, aft, "
             "port-quarter, port-beam, port-bow"),
            ("escape <ship> <edge>", "sail off an edge the scenario opens to her"),
            ("optimal", "in the defence phase: the defence that leaves the fewest hits"),
            ("auto defence off", "choose your own defence (the optimal one is made for you at first)"),
            ("the board", "capitals are the first side, small letters the second; the arrow is the heading"),
        ]

    def phase_help(self, state: SquareRiggerState, player: int) -> str | None:
        return PHASE_HELP[state.phase] if state.outcome is None else None

    # --- the status ----------------------------------------------------------------------------------
    def headline(self, state: SquareRiggerState, compact: bool) -> Text:
        wind = f"{state.wind_strength} from the {state.wind_from.name} (blowing {ARROWS[state.wind_from.opposite()]})"
        seat = state.players[state.seat] if state.outcome is None else "-"
        last = state.setup.turn_limit
        turn = min(state.turn, last) if last else state.turn  # the game ends as the turn after the last begins
        limit = f"/{last}" if last else ""
        key = f"   {MOVED} moved {STRUCK} struck {ESCAPED} escaped" if compact else ""
        return Text.from_markup(
            f"[bold]{state.setup.title}[/bold]  turn {turn}{limit}  to play: [bold]{seat}[/bold]  "
            f"phase: [bold]{state.phase}[/bold]\nwind: {wind}{key}"
        )

    def victory(self, state: SquareRiggerState) -> Text:
        """Each side's conditions with how far it has come, and what the turn limit decides."""
        parts = [_condition_text(state, c) for c in state.setup.victory]
        if state.setup.turn_limit:
            rule = state.setup.at_limit
            if rule == "points":
                scores = ", ".join(f"{side} {points(state, side)}" for side in state.setup.sides)
                parts.append(f"at turn {state.setup.turn_limit}: most points ({scores})")
            else:
                parts.append(f"at turn {state.setup.turn_limit}: {'a draw' if rule == 'draw' else rule + ' wins'}")
        return Text("victory: " + "; ".join(parts))

    def pieces_table(self, state: SquareRiggerState) -> Table:
        table = Table(title="Ships and batteries", title_justify="left", pad_edge=False, box=None)
        for column in ("", "name", "side", "class", "square", "head", "F S T", "state"):
            table.add_column(column)
        letters = labels(state)
        for name in state.hits:
            style = self._side_style(state, state.side_of(name))
            f, s, t = state.factors(name)
            if state.is_battery(name):
                info = state.setup.batteries[name]
                fields = " ".join(sorted(d.name for d in info.field))
                status = "silenced" if state.is_struck(name) else f"fires {fields}"
                table.add_row(letters[name], Text(name, style=style), info.side, "battery",
                              state.setup.grid.name(info.square), "", f"{f}", status)
                continue
            info = state.setup.ships[name]
            where = "-" if name in state.escaped else state.setup.grid.name(state.square[name])
            status = ("escaped" if name in state.escaped else "struck" if state.is_struck(name)
                      else "moved" if name in state.moved else "")
            title = state.setup.class_titles.get(info.ship_class, info.ship_class)
            if info.role != "warship":
                title = f"{info.role} ({title})"
            table.add_row(letters[name], Text(name, style=style), info.side, title, where,
                          state.heading[name].name, f"{f} {s} {t}", status)
        return table

    def fire_table(self, state: SquareRiggerState) -> Table:
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

    def assigned_table(self, state: SquareRiggerState) -> Table:
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


def _condition_text(state: SquareRiggerState, condition: Victory) -> str:
    ships = state.setup.ships.values()
    if condition.type == "annihilation":
        warships = [s for s in ships if s.side != condition.side and s.armed]
        struck = sum(1 for s in warships if state.is_struck(s.name))
        what = "the enemy warship" if len(warships) == 1 else f"all {len(warships)} enemy warships"
        return f"{condition.side} strikes {what} ({struck} so far)"
    if condition.type == "strike":
        done = sum(1 for s in ships if s.side != condition.side and condition.matches(s) and state.is_struck(s.name))
        verb, where = "strikes", ""
    else:
        own = [s for s in ships if s.side == condition.side and condition.matches(s)]
        done = sum(1 for s in own if s.name in state.escaped)
        edges = sorted({edge for s in own for edge in s.exits})
        verb, where = "escapes with", f" off the {'/'.join(edges)} edge"
    return f"{condition.side} {verb} {_kinds(state, condition)}{where} ({done} so far)"


def _kinds(state: SquareRiggerState, condition: Victory) -> str:
    """The ships a condition counts, in words: named ships, roles or classes (plural unless one)."""
    if condition.ships:
        named = ", ".join(sorted(condition.ships))
        return named if condition.count == len(condition.ships) else f"{condition.count} of {named}"
    one = condition.count == 1
    words = [role if one else ROLE_PLURAL[role] for role in sorted(condition.roles)]
    for ship_class in sorted(condition.classes):
        title = state.setup.class_titles.get(ship_class, ship_class)
        words.append(title if one else f"{title}s")
    return f"{condition.count} " + (" or ".join(words) or ("ship" if one else "ships"))


class _Board:
    """The board, wide or compact with its key beside it, as the terminal's size allows."""

    def __init__(self, view: SquareRiggerView, state: SquareRiggerState, selected: str | None,
                 targets: list[Action]):
        self.view, self.state, self.selected, self.targets = view, state, selected, targets

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.view.compact(console, self.state):
            yield Group(*self.view.draw(self.state, self.selected, self.targets, 3))
            return
        lines = self.view.draw(self.state, self.selected, self.targets, 2)
        width = options.max_width - len(lines[0].plain) - 1
        key = self.view.legend(self.state, len(lines), width)
        if key is not None:
            for line, entry in zip(lines, key, strict=True):
                yield Text.assemble(line, " ", entry, no_wrap=True, overflow="crop")
            return
        for line in lines:  # too narrow for the key beside the board: below it, and the board cut, not wrapped
            line.no_wrap, line.overflow = True, "crop"
        yield Group(*lines)
        rows = 1 + max(sum(1 for _ in self.state.pieces(side)) for side in self.state.setup.sides)
        yield Group(*(self.view.legend(self.state, rows, options.max_width) or [self.view.pieces_table(self.state)]))


class _Status:
    def __init__(self, view: SquareRiggerView, state: SquareRiggerState):
        self.view, self.state = view, state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        state, view = self.state, self.view
        compact = view.compact(console, state)
        yield view.headline(state, compact)
        yield view.victory(state)
        if not compact:
            yield view.pieces_table(state)
        if state.phase == FIRE and state.outcome is None:
            yield view.fire_table(state)
        if state.fire:
            yield view.assigned_table(state)

