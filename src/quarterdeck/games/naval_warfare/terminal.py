"""The terminal view of Naval Warfare (`hook_terminal_view`): the table scaled to characters, ships
as arrows pointing their heading, land and shoals, the wind, the clock, and each ship's state.

One character is an inch across and two inches down. A selected ship is highlighted and, unless
the `by-eye` option hides such aids, the range and bearing to every enemy and which of its
broadsides bear are listed under the table (the seed's ruler, fans and keel lines).

The query `range Revenge San Martin` (or `bearing ...`; one ship alone: against every enemy) is
the seed's ruler and broadside fan put to two ships: the range mainmast to mainmast (rule 9), where
each lies from the other's bow and which broadside fan or keel line it falls in (rule 10), the
batteries of each that bear and the band each reaches ("Reasonable ranges"), and any hull or land
in the line of fire (a ruling). A battle fought by eye refuses it: "Measuring ranges and angles
before moving is definitely forbidden".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.words import counted

from . import fire, victory
from .actions import Move
from .scenario import MOUNTS
from .ship import Ship
from .state import NavalState
from .wind import STRENGTHS, wind_name

ARROWS = "↑↗→↘↓↙←↖"
COLOURS = ("bold blue", "bold red")
LINES = {"port": "port broadside fan", "starboard": "starboard broadside fan", "ahead": "keel line ahead",
         "astern": "keel line astern"}
QUERY = "range <ship> [<ship>]"
QUERY_HELP = ("the ruler between two ships (one alone: each enemy): range mainmast to mainmast, where each lies "
              "from the other's bow and in which fan or keel line, the batteries that bear and the band each "
              "reaches, and what blocks the line of fire; `bearing` says the same")


PHASE_HELP = {
    "move": "move each of your ships once: turn, run, turn (rules 2 and 4)",
    "fire": "fire each broadside that bears, then `end-fire` (rules 9 and 10)",
    "damage": "remove one battery for each six that hit your ships (rule 11)",
    "end": "the end of the move: offer a surrender or pick up survivors, then `end-move`",
    "withdraw": "the boarders withdraw (cutting grapples on 4-6) or fight on to the morale throw (rule 12)",
    "repel": "having repelled boarders: cut the grapples (4-6) or keep them (rule 12)",
    "founder": "jettison a battery or lose a flotation point (optional rule 7)",
    "accept": "accept or refuse the surrender of a ship that dishonoured one (optional rule 6)",
    "night": "escape in the night (5-6) or stay",
}


def phase_words(phase: str) -> str:
    """The step of the move in words for the status line: "moving first", "firing second"."""
    step, _, order = phase.partition("-")
    doing = {"move": "moving", "fire": "firing"}.get(step)
    if doing:
        return f"{doing} {order}"
    return {"damage": "removing batteries lost to sixes", "end": "the end of the move",
            "fights": "boarding fights"}.get(step, phase)


def arrow(heading: int) -> str:
    return ARROWS[round(heading / 45) % 8]


def map_labels(names: Iterable[str]) -> dict[str, str]:
    """Each ship's label on the scaled table: the first three letters of the last word of her name
    (Revenge "Rev", San Martin "Mar"), more of them where two would read alike ("Mar", "Mat"), and the
    first word's initial before them where the last words are the same ("ARoy", "ERoy")."""
    names = list(names)

    def label(name: str, letters: int, initial: bool) -> str:
        words = name.split()
        return (words[0][0] if initial and len(words) > 1 else "") + words[-1][:letters]

    def unique(name: str) -> str:
        for initial in (False, True):
            for letters in range(3, len(name.split()[-1]) + 1):
                mine = label(name, letters, initial)
                if all(label(other, letters, initial) != mine for other in names if other != name):
                    return mine
        return name  # no shorter label tells her apart

    return {name: unique(name) for name in names}


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


def off_the_bow(ship: Ship, other: Ship) -> str:
    """Where `other` lies from `ship`'s bow, in whole degrees to port or starboard."""
    turn = round(plane.signed_turn(ship.heading, plane.bearing(ship.point, other.point)))
    if turn == 0:
        return "dead ahead"
    if abs(turn) == 180:
        return "dead astern"
    return f"{abs(turn)}° to {'starboard' if turn > 0 else 'port'} of the bow"


def falls_in(ship: Ship, mount: str, other: Ship, distance: float) -> bool:
    """Whether `other` lies in that broadside's fan or on that keel line at any range (rule 10)."""
    if mount in fire.SIDE:
        return fire.bears(ship, mount, other)
    return plane.keel_line_hits(ship.point, ship.heading, fire.KEEL[mount], other.hull(), distance + other.spec.length)


def reach_text(ship: Ship, mount: str, distance: float) -> str:
    """A mount's batteries by the band each reaches at `distance`, e.g. '2 medium at long range'."""
    counts: dict[str, int] = {}
    for battery in ship.mount_batteries(mount):
        band = fire.band(battery, distance)
        key = f"{battery.name} {f'at {band} range' if band else 'out of range'}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} {key}" for key, n in counts.items())


def measure(state: NavalState, ship: Ship, other: Ship) -> list[Text]:
    """The ruler and the fans between two ships on the table (rules 9 and 10, the line of fire)."""
    distance = plane.distance(ship.point, other.point)
    lines = [Text(f"{ship.name} to {other.name}: {distance / 100:.2f} in, mainmast to mainmast", style="bold")]
    for a, b in ((ship, other), (other, ship)):
        mounts = [m for m in MOUNTS if falls_in(a, m, b, distance)]
        falls = " and ".join(f"her {LINES[m]}" for m in mounts) or "none of her broadside fans or keel lines"
        guns = "; ".join(f"{m}: {reach_text(a, m, distance)}" for m in mounts if a.mount_batteries(m))
        lines.append(Text(f"  from {a.name} (heading {a.heading}): {b.name} bears "
                          f"{plane.bearing(a.point, b.point):.0f}, {off_the_bow(a, b)}, in {falls}; "
                          f"{guns or 'none of her batteries bears'}"))
    wall = fire.blocked(state, ship, other)
    lines.append(Text(f"  line of fire: {f'blocked by {wall}' if wall else 'clear'}"))
    return lines


def query_ships(state: NavalState, text: str) -> tuple[Ship, list[Ship]]:
    """The ships a range query names (any case): two, or one and every enemy on the table."""
    words = text.split()
    on_table = {s.name.lower(): s for s in state.ships.values() if s.in_play}
    found = []
    for cut in range(1, len(words) + 1):
        first, second = " ".join(words[:cut]).lower(), " ".join(words[cut:]).lower()
        if first in on_table and (not second or second in on_table and second != first):
            found.append((on_table[first], on_table.get(second)))
    if len(found) != 1:
        names = [s.name for s in on_table.values()]
        typed = f" {' '.join(words).lower()} "
        gone = [s for s in state.ships.values() if not s.in_play and f" {s.name.lower()} " in typed]
        why = f"{gone[0].name} is not on the table ({gone[0].status}); " if gone else ""
        raise NotationError("ship", f"{why}{QUERY}: ships on the table are {', '.join(names)}, e.g. "
                            f"`range {' '.join(names[:2])}`", text)
    ship, other = found[0]
    if other is not None:
        return ship, [other]
    enemies = [s for s in on_table.values() if s.side != ship.side]
    if not enemies:
        raise NotationError("ship", f"no enemy of {ship.name} is on the table; name the other ship", text)
    return ship, enemies


class TerminalView:
    queries = {"range": QUERY_HELP, "bearing": QUERY_HELP}

    def questions(self, state: NavalState) -> dict[str, str]:
        """The questions that may be asked now: none in a battle fought by eye."""
        return {} if state.scenario.option("by-eye") else self.queries

    def query(self, state: NavalState, player: int, name: str, text: str) -> RenderableType:
        """`range` / `bearing`: the measurements of `measure` for the ships named (see the module)."""
        if state.scenario.option("by-eye"):
            raise IllegalAction("by eye", "this battle is fought by eye: \"Measuring ranges and angles before "
                                "moving is definitely forbidden\" (seed 003)")
        ship, others = query_ships(state, text)
        return Group(*(line for other in others for line in measure(state, ship, other)))

    def help(self, state: NavalState, player: int) -> list[tuple[str, str]]:
        """This game's ways of typing (actions.py has the whole notation)."""
        return [
            ("<ship>", "select a ship by name (any case): her legal actions are listed and marked"),
            ("move <ship> [turn <deg>] [run <in>] [turn <deg>]", "a move in the book's terms (rule 4): a turn at the "
             "start (+ starboard, - port), a run in inches, a turn at the end; a part left out is none: `move "
             "<ship> run 3` sails 3 inches on her heading"),
            ("move <ship> to <x> <y> heading <deg>", "the same move by its end point and heading"),
            ("... board|tow|secure <ship>, ... heave-to|oars|sail|boats", "what she does at the end of her run"),
            ("move <ship> hold|cut|dishonour|cast-off", "a grappled, surrendered, towing or towed ship's move"),
            ("fire <ship> [port|starboard|ahead|astern] at <ship>", "a whole broadside or the bow or stern guns "
             "(rule 10); without its battery, the one that bears; `end-fire` when done"),
            ("remove <ship> <mount> [half] <kind>", "the battery a six took (rule 11)"),
            ("gunners <ship> <men>", "men kept at her guns when a boarding fight begins; the rest fight "
             "(optional rule 5)"),
            (QUERY, QUERY_HELP),
        ]

    def phase_help(self, state: NavalState, player: int) -> str | None:
        """What the decision due now asks, in the book's words."""
        if state.outcome is not None or not state.agenda or state.agenda[0][0] != "decide":
            return None
        head = state.agenda[0]
        if head[1] == "gunners":
            most = max((a.men for a in state.legal_actions(player)), default=0)
            return (f"how many of {head[3]}'s men stay at her guns (0 to {most}, `gunners {head[3]} <men>`); "
                    "the rest fight the boarders (optional rule 5)")
        if head[1] in ("move", "fire") and not state.scenario.option("by-eye"):
            return f"{PHASE_HELP[head[1]]}; `range <ship> <ship>` measures between two ships"
        return PHASE_HELP.get(head[1])

    def plan_phase(self, state: NavalState) -> str:
        """For `same`: moving, firing or removing, whether first or second this move (the 2d6 decide)."""
        return state.phase.removesuffix("-first").removesuffix("-second")

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
        afloat = [ship for ship in state.ships.values() if ship.in_play]
        drawn = set()
        for ship in afloat:
            col, row = int(ship.x // 100), int(ship.y // 200)
            if 0 <= row <= height and 0 <= col <= width:
                style = COLOURS[ship.side] + (" reverse" if ship.name == selected else "")
                cells[row][col] = (arrow(ship.heading), style)
                drawn.add((row, col))
        # Each ship's name, shortened, after her arrow, over open water and land only (never over a ship or a move).
        labels = map_labels(state.ships)  # every ship of the battle, so that a label never changes
        for ship in afloat:
            col, row = int(ship.x // 100), int(ship.y // 200)
            if (row, col) not in drawn:
                continue
            for offset, char in enumerate(labels[ship.name], start=1):
                if col + offset > width or (row, col + offset) in drawn or cells[row][col + offset][0] == "+":
                    break
                cells[row][col + offset] = (char, COLOURS[ship.side])
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
        left = state.moves_left()
        until = "dawn" if victory.night_rules(state) else "nightfall"
        lines = [
            Text(state.scenario.title, style="bold"),
            Text(f"move {state.move_number}, {victory.clock_text(state.clock)}, "
                 f"{counted(left, 'move')} left before {until}; "
                 f"wind {STRENGTHS[state.strength]} from the {wind_name(state.wind)} "
                 f"(prevailing {wind_name(state.prevailing) if state.prevailing is not None else 'none'}); "
                 f"score {state.players[0]} {victory.scores(state)[0]}, {state.players[1]} {victory.scores(state)[1]}"),
            Text(state.describe() + (f" ({phase_words(state.phase)})" if state.outcome is None else "")),
        ]
        for ship in state.ships.values():
            marks = [m for m, on in (("in irons", ship.irons), ("adrift", ship.adrift), ("on fire", ship.on_fire),
                                     ("hove to", ship.heave_to), ("under oars", ship.oars),
                                     (f"grappled to {ship.grappled}", ship.grappled),
                                     (f"towing {ship.tow}" if ship.towing else f"towed by {ship.tow}", ship.tow),
                                     ("moved", ship.moved)) if on]
            if ship.status == "waiting":  # a reinforcement (rulings): when and where she comes on
                marks.append(state.scenario.placement(ship.name).arrival(state.move_number))
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
