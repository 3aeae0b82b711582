"""The terminal view of Pirate Chess (Rich): the torus board and a status panel.

Follows the `hook_terminal_view` contract of docs/architecture.md. Selecting a ship and choosing
its own square again anchors or weighs it, as clicking a ship twice does in the book.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ...core.protocol import Action
from .actions import END, Anchor, Move, Place
from .scenario import OPENING_TURNS, SHIP_TYPES
from .state import PirateChessState

FLEET_STYLE = ("bold bright_blue", "bold bright_red")
ANCHOR = "⚓"  # two cells wide, matched by two spaces on ships under way
WHEEL = "☸"  # the book's steering wheel: whose turn it is
SEA, HARBOUR, TARGET, SELECTED = "on grey15", "on dark_cyan", "on green", "on dark_green"


def fleet_symbol(kind: str, fleet: int) -> str:
    """A ship's two letters, in capitals for the first fleet and small for the second, so the fleets
    differ without colour."""
    symbol = SHIP_TYPES[kind].symbol
    return symbol.upper() if fleet == 0 else symbol.lower()


class TerminalView:
    def board(
        self, state: PirateChessState, selected: str | None = None, targets: Iterable[Action | str] = ()
    ) -> RenderableType:
        """The board, north up; `selected` is a ship id of the fleet to move, `targets` actions or squares."""
        geometry = state.geometry
        size = geometry.size
        selected_square = self._selected_square(state, selected)
        targets = list(targets)
        if selected is not None and not targets:
            targets = state.legal_actions(piece=selected)
        marked = {t if isinstance(t, str) else self.destination(state, t) for t in targets}
        files = "    " + "".join(f"  {chr(97 + x)}  " for x in range(size)) + "\n"
        text = Text(files, style="dim")
        for y in range(size - 1, -1, -1):
            text.append(f"{y + 1:>3} ", style="dim")
            for x in range(size):
                square = y * size + x
                background = SEA
                if square in geometry.harbour:
                    background = HARBOUR
                if square == selected_square:
                    background = SELECTED
                if geometry.names[square] in marked:
                    background = TARGET
                text.append(*self._cell(state, square, background))
            text.append(f" {y + 1}\n", style="dim")
        text.append(files.rstrip("\n"), style="dim")
        return text

    def _cell(self, state: PirateChessState, square: int, background: str) -> tuple[str, str]:
        occupant = state.ship_at(square)
        if occupant is None:
            return "  ·  ", f"dim {background}"
        fleet, _, ship = occupant
        symbol = fleet_symbol(ship.kind, fleet)
        return f" {symbol}{ANCHOR if ship.anchored else '  '}", f"{FLEET_STYLE[fleet]} {background}"

    def _selected_square(self, state: PirateChessState, selected: str | None) -> int | None:
        if selected is None:
            return None
        if selected.lower() in state.geometry.index:
            return state.geometry.index[selected.lower()]
        player = state.to_move
        ship = state.ships[player].get(selected)
        return ship.square if ship is not None and ship.square >= 0 else None

    def status(self, state: PirateChessState) -> RenderableType:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        if state.outcome is not None:
            table.add_row("Result", f"{state.outcome.result} ({state.outcome.reason})")
        else:
            player = state.players[state.to_move]
            table.add_row(WHEEL, Text(f"{player} to act: {self._step(state)}", style=FLEET_STYLE[state.to_move]))
        for fleet, player in enumerate(state.players):
            reserve = ", ".join(state.reserve(fleet)) or "none"
            left = ", ".join(f"{kind} {n}" for kind, n in state.upgrades_left(fleet).items())
            opening = ""
            if state.in_opening(fleet):
                opening = f"; opening placement {state.turns_played[fleet] + 1} of {OPENING_TURNS}"
            table.add_row(
                Text(f"{player} ({fleet_symbol('Pirate', fleet)})", style=FLEET_STYLE[fleet]),
                f"reserve: {reserve}; upgrades left: {left}{opening}",
            )
        table.add_row("Quiet turns", f"{state.quiet_turns} of {state.options.quiet_turn_limit}")
        return table

    def _step(self, state: PirateChessState) -> str:
        """What the player to act may do now, in words."""
        if state.in_opening(state.to_move):
            return "place a ship (it anchors at once unless it is a Pirate)"
        actions = state.legal_actions()
        choices = []
        if any(isinstance(a, (Place, Move)) for a in actions):
            choices.append("place or move a ship")
        if any(isinstance(a, Anchor) for a in actions):
            choices.append("anchor or weigh a ship")
        if END in actions:
            choices.append("end the turn")
        return "; ".join(choices)

    def destination(self, state: PirateChessState, action: Action) -> str | None:
        """The square an action ends on; an anchor action ends on its ship's own square."""
        names = state.geometry.names
        if isinstance(action, Place):
            return names[action.square]
        if isinstance(action, Move):
            return names[action.destination]
        if isinstance(action, Anchor):
            ship = state.ships[state.to_move].get(action.ship)
            return names[ship.square] if ship is not None and ship.square >= 0 else None
        return None

    def shortcuts(self, state: PirateChessState, player: int) -> dict[str, list[Action]]:
        return {}

    def help(self, state: PirateChessState, player: int) -> list[tuple[str, str]]:
        """This game's ways of typing (seed 004: a ship is named by its type, one of each a fleet)."""
        kinds = ", ".join(f"{SHIP_TYPES[kind].symbol} {kind}" for kind in SHIP_TYPES)
        return [
            ("<ship> <square>", "place a ship from your reserve or sail one there, e.g. `Junk a3` (a ship is named "
             "by its type: " + kinds + ")"),
            ("<ship> <own square>", "choose a ship's own square to anchor or weigh it, as clicking it twice does"),
            ("end", "end the turn once the fleet action is made (the anchor action is optional)"),
            ("the board", f"capitals are the first fleet, small letters the second; {ANCHOR} an anchored ship; the "
             "board wraps round at every edge; the harbour is the centre four squares"),
        ]

    def phase_help(self, state: PirateChessState, player: int) -> str | None:
        return self._step(state) if state.outcome is None else None
