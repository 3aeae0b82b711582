"""The terminal view (`hook_terminal_view`): the hex map with each ship's facing, the wind, the
segment and phase, each ship's points and hit markers, the declaration ranges and why, and in a
fire window every attack with its Gunnery Strength, raking and CRT column before it is fired.

The map is drawn column by column in the staggered SPI layout (column 01 half a hex higher than
column 02), cropped to the ships; a ship is her initial and an arrow for her facing, coloured by
who sails her, lower case when afoul. Given an observation (`state.observe(p)`) during a SiMove
plot only p's own plots are known and shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from quarterdeck.core.hexes import HexDir, neighbour

from . import combat, movement
from .actions import Fire, Hold, Move, Pass
from .state import DECLARE, FrigateState

PHASE_HELP = {
    "sail": "choose fighting or full sail for each ship, both sides at once (Movement 5)",
    "declare": "Movement Declaration: each ship's MA for the turn (momentum +2 / -4, the schedule's maximum)",
    "order": "you won the initiative: say who moves first in each of the four segments",
    "move": "spend this segment's Movement Points, as the Quarterly Movement Chart divides the MA",
    "plot": "SiMove: plot this segment's points in secret; both plots are revealed together",
}
ARROWS = {HexDir.N: "↑", HexDir.NE: "↗", HexDir.SE: "↘", HexDir.S: "↓", HexDir.SW: "↙", HexDir.NW: "↖"}
COLOURS = ("bold blue", "bold red")
MARGIN = 3


class TerminalView:
    def board(self, state: FrigateState, selected: Any = None, targets: Iterable[Any] = ()) -> RenderableType:
        grid = state.grid
        marked = {h for item in targets if (h := _hex_of(state, item)) is not None}
        chosen = state.ships.get(str(selected)) if selected else None
        afloat = [s for s in state.ship_list if s.afloat]
        offsets = [grid.to_offset(s.hex) for s in afloat] or [(0, 0)]
        col_lo = max(0, min(c for c, _ in offsets) - MARGIN)
        col_hi = min(grid.columns - 1, max(c for c, _ in offsets) + MARGIN)
        row_lo = max(0, min(r for _, r in offsets) - MARGIN)
        row_hi = min(grid.rows - 1, max(r for _, r in offsets) + MARGIN)
        letters = map_letters(state.ships)
        at = {}
        for ship in afloat:
            at.setdefault(ship.hex, []).append(ship)
        header = Text("     ")
        for column in range(col_lo, col_hi + 1):
            header.append(f"{column + 1:02d} ", style="dim")
        lines = [header]
        for line in range((row_hi - row_lo + 1) * 2):
            text = Text(f"{row_lo + 1 + line // 2:02d}   " if line % 2 == 0 else "     ", style="dim")
            for column in range(col_lo, col_hi + 1):
                if (line - (column & 1)) % 2:
                    text.append("   ")
                    continue
                row = row_lo + (line - (column & 1)) // 2
                if row > row_hi:
                    text.append("   ")
                    continue
                h = grid.from_offset(column, row)
                text.append(_cell(at.get(h, []), letters, h in marked, chosen is not None and chosen.hex == h))
            lines.append(text)
        wind = Text(f"  wind from {state.wind_from.name} ({state.wind_from.number}), {state.velocity}: blows "
                    f"{ARROWS[state.wind_from.opposite()]}", style="italic")
        lines.append(wind)
        # The crop hides how far the edges are, and leaving by one can score (The chase) or lose a ship.
        lines.append(Text(f"  map: columns 01 to {grid.columns:02d}, rows 01 to {grid.rows:02d} (shown: columns "
                          f"{col_lo + 1:02d} to {col_hi + 1:02d}, rows {row_lo + 1:02d} to {row_hi + 1:02d})",
                          style="dim"))
        return Group(*lines)

    def status(self, state: FrigateState) -> RenderableType:
        lines = [Text(state.scenario.title, style="bold"), Text(state.describe())]
        if state.segment:
            order = " ".join(state.players[s] for s in state.order)
            lines.append(Text(f"segment {state.segment} of 4; first movers by segment: {order}"))
        score = state.to_json()["score"] if state.outcome is None else None
        if score:
            lines.append(Text(f"points: blue {score[0]}, red {score[1]}"))
        letters = map_letters(state.ships)
        for ship in state.ship_list:
            lines.append(_ship_line(state, ship, letters[ship.name]))
        if state.phase == DECLARE:
            for ship in state.ship_list:
                if ship.afloat and not ship.declared:
                    low, high, why = movement.declaration_range(state, ship)
                    lines.append(Text(f"  {ship.name}: MA {low} to {high} ({why})", style="cyan"))
        if state.windows:
            ship = state.ships[state.windows[0]]
            words = "'hold' to hold fire" if state.end_round else "'hold' to hold fire, 'pass' to the segment's end"
            lines.append(Text(f"fire window: {ship.name} ({words})", style="magenta"))
            for action in combat.fire_options(state, ship):
                lines.append(Text("  " + describe_fire(state, action), style="magenta"))
        if state.pending:
            hits = ", ".join(f"{kind} on {target}" for target, kind, _ in state.pending)
            lines.append(Text(f"hits landing at the segment's end: {hits}", style="red"))
        return Group(*lines)

    def help(self, state: FrigateState, player: int) -> list[tuple[str, str]]:
        """This game's ways of typing (actions.py has the whole notation)."""
        return [
            ("<ship>", "select a ship by name (any case): her legal actions are listed"),
            ("sail <ship> fighting|full", "before play: fighting sail or full sail, for the whole game (Movement 5)"),
            ("declare <ship> <MA>", "this turn's Movement Allowance, within momentum and the Wind and Maneuver "
             "Schedule (the range and why are shown under the ships); `end-declare` when done, or done for "
             "you once nothing else is left to declare"),
            ("declare <ship> 0 port|starboard", "dead to windward with no allowance: the free hexside away"),
            ("cut <ship> <MA>", "afoul: try to cut loose, sailing at that MA if freed"),
            ("strike <ship>", "strike her colours: the enemy takes her as a prize"),
            ("destroy <prize>", "announce the destruction of a prize your ship is afoul of (four turns afoul)"),
            ("form <squadron> line-ahead|line-abreast", "announce a change of formation"),
            ("order <side> <side> <side> <side>", "the initiative winner: who moves first in segments 1 to 4"),
            ("move <ship>", "one hex ahead, one Movement Point"),
            ("turn <ship> port|starboard", "one hexside: its turning cost, one more into the wind"),
            ("plot <ship> ahead|port|starboard|stand", "SiMove: the next point of her secret plot"),
            ("fire <ship> port|starboard <target> hull|rigging", "a broadside at the hull or the rigging; the odds, "
             "raking and CRT column are shown in the fire window"),
            ("fire <ship> bow|stern <target>", "the chase guns"),
            ("fire <ship> [at] <target> [hull|rigging]", "the battery left out: the one that may fire at her now"),
            ("hold / pass", "in a fire window: hold fire now, or pass to the segment's end"),
            ("melee <ship>", "at the segment's end: melee with the ship she is afoul of"),
        ]

    def phase_help(self, state: FrigateState, player: int) -> str | None:
        """What the decision due now asks, in the seed's words."""
        if state.outcome is not None:
            return None
        if state.windows and state.end_round:
            return "the segment's end: fire what bears, `melee` with the ship she is afoul of, or `hold`"
        if state.windows:
            return "a fire window: fire, `hold` fire, or `pass` to the segment's end (Combat 1)"
        return PHASE_HELP.get(state.stage or state.phase)

    def destination(self, state: FrigateState, action: Any) -> str | None:
        if isinstance(action, Move):
            ship = state.ships[action.ship]
            return state.grid.name(neighbour(ship.hex, ship.facing)).lower()
        return None

    def shortcuts(self, state: FrigateState, player: int) -> dict[str, list[Any]]:
        if state.windows and state.ships[state.windows[0]].owner == player:
            name = state.windows[0]
            found = {"hold": [Hold(name)]}
            if Pass(name) in state.legal_actions(player):
                found["pass"] = [Pass(name)]
            return found
        return {}


def describe_fire(state: FrigateState, action: Fire) -> str:
    ship, target = state.ships[action.ship], state.ships[action.target]
    if action.battery in combat.CHASERS:
        return f"{state.action_to_text(action)}: chase guns, two 1s make a mast hit"
    attack = combat.describe_attack(state, ship, action.battery, target)
    rake = f", raking from the {attack.rake}" if attack.rake else ""
    half = ", second side at half" if attack.half else ""
    return (f"{state.action_to_text(action)}: range {attack.range}, GS {attack.gunnery} against DS "
            f"{attack.defence}{rake}{half}, CRT column {attack.column}")


def map_letters(names: Iterable[str]) -> dict[str, str]:
    """Each ship's letter on the map, one a ship: her initial, or where another ship has it the next
    letter of her name that is free (Pallas P, Providence R), or else the first free letter."""
    letters: dict[str, str] = {}
    for name in names:
        taken = set(letters.values())
        choices = [c.upper() for c in name if c.isalpha()] + list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        letters[name] = next((c for c in choices if c not in taken), "?")
    return letters


def _cell(ships: list, letters: dict[str, str], marked: bool, chosen: bool) -> Text:
    style = "on plum2" if marked else "on sky_blue1" if chosen else ""
    if not ships:
        return Text(" · ", style=style or "dim")
    ship = ships[0]
    letter = letters[ship.name].lower() if ship.afoul else letters[ship.name]
    mark = "+" if len(ships) > 1 else ARROWS[ship.facing]
    return Text(f"{letter}{mark} ", style=f"{COLOURS[ship.owner]} {style}".strip())


def _movement(state: FrigateState, ship) -> str:
    """Her Movement Allowance once declared; before that, last turn's, which momentum reads from."""
    if not ship.declared:
        return f"MA not declared yet (was {ship.last_ma})"
    return f"MA {ship.ma}" + (f", {ship.left} MP left this segment" if state.segment else "")


def _ship_line(state: FrigateState, ship, letter: str) -> Text:
    """A ship's state, after her letter on the map."""
    side = state.players[ship.owner]
    if not ship.afloat:
        return Text(f"  {letter} {ship.name} ({ship.spec.rating}): {ship.status}", style="dim")
    bits = [f"{ship.name} ({ship.spec.rating}{', prize' if ship.prize else ''}) {side} {state.grid.name(ship.hex)} "
            f"{ship.facing.name}", _movement(state, ship),
            f"hits: hull {ship.hull}/{ship.spec.hull}, crew {ship.crew}, guns {ship.guns}, masts {ship.masts}"]
    if ship.fighting_sail:
        bits.append("fighting sail")
    if ship.afoul:
        bits.append(f"afoul of {ship.afoul} ({ship.afoul_side})")
    if ship.fired:
        bits.append("fired " + "+".join(sorted(ship.fired)))
    if ship.course is not None:
        bits.append(f"must sail {ship.course.name}")
    if ship.plot:
        bits.append("plot " + " ".join(ship.plot))
    return Text(f"  {letter} " + "; ".join(bits), style=COLOURS[ship.owner].replace("bold ", ""))


def _hex_of(state: FrigateState, item: Any):
    if isinstance(item, Move):
        ship = state.ships[item.ship]
        return neighbour(ship.hex, ship.facing)
    if isinstance(item, Fire):
        return state.ships[item.target].hex
    return None
