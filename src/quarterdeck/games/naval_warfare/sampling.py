"""The moves offered (seed 003, rule 4 on a continuous table): a finite, well-spread sample of the
legal moves of a ship, for the lists the interfaces show and the computer searches. Any other legal
move is accepted all the same (movement.check).

The sample holds, for each start turn (none, each limit, and those that bring the wind to the
permitted limit): the full run, half and the least a wind allows, the runs that end just inside
each range band of the nearest enemy, contact with each ship in reach (boarding, securing a prize,
taking one in tow), and end turns that lay a broadside or the keel line on the nearest enemy.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction

from .actions import Move
from .movement import BOATS_RUN, CONTACT, Limits, Scan, check, hull_radius, limits, retaking, scan_for
from .prizes import reinforced
from .scenario import tables
from .ship import PRIZE, SURRENDERED, Ship
from .wind import wind_angle_limit

if TYPE_CHECKING:
    from .state import NavalState

GUN_REACH = 1700  # the longest range band (16") and a little: beyond it no heading brings guns to bear
# the range bands' edges (seed 003, "Reasonable ranges")
RANGE_EDGES = tuple(sorted({round(edge * 100) for band in tables()["ranges"].values() for edge in band if edge}))


def _enemies_near(state: NavalState, ship: Ship, count: int = 3) -> list[Ship]:
    enemies = [s for s in state.ships.values() if s.side != ship.side and s.in_play]
    enemies.sort(key=lambda s: (s.x - ship.x) ** 2 + (s.y - ship.y) ** 2)
    return enemies[:count]


def _end_headings(ship: Ship, point, run_heading: int, turn: int, enemies: list[Ship]) -> list[int]:
    """End turns to try: none, each limit, and those that lay a broadside or the keel line on the
    nearest enemy within gun range."""
    turns = {0, -turn, turn}
    mounts = {m for m, _ in ship.batteries}
    near = [e for e in enemies if plane.distance(point, e.point) <= GUN_REACH]
    near.sort(key=lambda e: plane.distance(point, e.point))
    for enemy in near[:1]:
        b = plane.bearing(point, enemy.point)
        wanted = []
        if "starboard" in mounts:
            wanted.append(b - 90)
        if "port" in mounts:
            wanted.append(b + 90)
        if "ahead" in mounts:
            wanted.append(b)
        if "astern" in mounts:
            wanted.append(b + 180)
        for heading in wanted:
            t = round(plane.signed_turn(run_heading, heading))
            if abs(t) <= turn:
                turns.add(t)
    return sorted(turns)


def candidates(state: NavalState, ship: Ship) -> list[Move]:
    """The moves offered for `ship`: every turn limit, full speed, the least run, half way, the runs
    that stop at contact, the headings that bring an enemy under a broadside or the keel line, and
    the endings that matter (board, tow, secure, heave to, change rig, boats, cut, dishonour)."""
    lim = limits(state, ship)
    name = ship.name
    if lim.mode == "none":
        return []
    if lim.mode == "surrendered":
        moves = [Move(name, extra="hold")]
        if ship.crew and (ship.surrender_kind != "boarding" or reinforced(state, ship)):
            moves.append(Move(name, extra="dishonour"))
        return moves
    if lim.mode == "towed":
        return [Move(name, extra="hold"), Move(name, extra="cast-off")]
    if lim.mode == "grappled":
        partner = state.ships.get(ship.grappled)
        if partner is not None and partner.status == SURRENDERED and partner.held_until:
            return [Move(name, extra="hold")]  # she holds her boarded prize (optional rule 6)
        if ship.status == PRIZE:
            return [Move(name, extra="hold"), Move(name, extra="cut")]
        return [Move(name, extra="hold"), Move(name, extra="cut"), Move(name, extra="board", target=ship.grappled)]
    enemies = _enemies_near(state, ship)
    found: dict[Move, None] = {}
    scan = scan_for(state, ship, lim)

    def offer(move: Move) -> None:
        if move in found:
            return
        try:
            check(state, ship, move, scan)
        except IllegalAction:
            return
        found[move] = None

    if ship.tow and ship.towing:
        offer(Move(name, extra="cast-off"))
    if lim.mode == "turn":
        turns = {0, -lim.turn, lim.turn, -lim.turn // 2, lim.turn // 2}
        turns.update(t for t in _end_headings(ship, ship.point, ship.heading, lim.turn, enemies))
        limit = wind_angle_limit(state.strength, ship.masts_lost)
        if ship.irons_turn and limit is not None:  # no wind limit (a calm): no turn to one is wanted
            for sign in (-1, 1):
                t = round(plane.signed_turn(ship.heading, state.wind + sign * limit))
                if abs(t) <= lim.turn:
                    turns.add(t)
        for t in sorted(turns):
            offer(Move(name, t, 0, 0))
    else:
        _sailing_candidates(state, ship, lim, enemies, offer, scan)
    if lim.boats:
        for t in (0, -ship.spec.turn, ship.spec.turn):
            offer(Move(name, t, BOATS_RUN, 0, "boats"))
        offer(Move(name, 0, 0, 0, "boats"))
    moves = list(found)
    plain = [m for m in moves if not m.extra]
    if plain and ship.status != PRIZE:
        base = plain[0]
        if lim.mode in ("sail", "oars"):
            offer(Move(name, base.turn1, base.run, base.turn2, "heave-to"))
        if state.scenario.option("oared") and ship.spec.oared and not ship.converting:
            offer(Move(name, base.turn1, base.run, base.turn2, "sail" if ship.oars else "oars"))
    if not found:
        least = quick_move(state, ship)
        if least is not None:
            found[least] = None
    return list(found)


def quick_move(state: NavalState, ship: Ship) -> Move | None:
    """One legal move found cheaply (no turn or a full turn, then the least run the wind allows), or
    None: the sequence asks only whether a ship has a move, which must not cost listing them all.
    `candidates` always includes it when it finds nothing else, so the two agree."""
    lim = limits(state, ship)
    if lim.mode == "none":
        return None
    if lim.mode in ("grappled", "surrendered", "towed"):
        return Move(ship.name, extra="hold")
    scan = scan_for(state, ship, lim)
    for turn in (0, lim.turn, -lim.turn):
        heading = (ship.heading + turn) % 360
        run = scan.free_run(heading, lim.run_min) if lim.run_min and lim.mode != "turn" else 0
        move = Move(ship.name, turn, run, 0)
        try:
            check(state, ship, move, scan)
        except IllegalAction:
            continue
        return move
    return None


def _sailing_candidates(state: NavalState, ship: Ship, lim: Limits, enemies: list[Ship], offer, scan: Scan) -> None:
    name = ship.name
    turn = lim.turn
    first_turns = {0, -turn, turn}
    if turn >= 90:  # a handy ship: her half turns too
        first_turns.update((-turn // 2, turn // 2))
    for enemy in enemies[:1]:
        t = round(plane.signed_turn(ship.heading, plane.bearing(ship.point, enemy.point)))
        if abs(t) <= turn:
            first_turns.add(t)
    irons_moves: list[Move] = []
    any_plain = False
    for t1 in sorted(first_turns):
        heading = (ship.heading + t1) % 360
        if lim.wind is not None and lim.run_min and plane.angle_off(heading, state.wind) < lim.wind:
            continue
        free = scan.free_run(heading, lim.run_max)
        runs = {lim.run_max, (lim.run_max + lim.run_min) // 2, lim.run_min}
        runs = {r for r in runs if r <= free}
        if free < lim.run_max:
            runs.add(free)
        if lim.run_min == 0:
            runs.add(0)
        for enemy in enemies[:1]:  # the runs that end just inside each range band of the nearest enemy
            runs.update(r for r in _range_runs(ship.point, heading, enemy.point) if lim.run_min <= r <= free)
        if lim.wind is not None and plane.angle_off(heading, state.wind) < lim.wind:
            runs = {0} if lim.run_min == 0 else set()
        for run in sorted(runs):
            end = plane.advance(ship.point, heading, run)
            for t2 in _end_headings(ship, end, heading, turn, enemies):
                if lim.one_turn and t1 and t2:
                    continue
                move = Move(name, t1, run, t2)
                final = (heading + t2) % 360
                if lim.mode == "sail" and lim.wind is not None and plane.angle_off(final, state.wind) < lim.wind:
                    irons_moves.append(move)
                    continue
                before = len(irons_moves)
                offer(move)
                any_plain = any_plain or before == len(irons_moves)
            if ship.status != PRIZE:
                _contact_endings(state, ship, t1, run, heading, end, offer)
    if not any_plain:
        for move in irons_moves[:3]:
            offer(move)


def _range_runs(start, heading: int, target) -> list[int]:
    """Runs along `heading` that leave the mainmast just inside 4", 8" and 16" of `target` (rule 9's
    bands), where the line passes that close."""
    dx, dy = plane.heading_vector(heading)
    ox, oy = target[0] - start[0], target[1] - start[1]
    along = ox * dx + oy * dy
    across2 = ox * ox + oy * oy - along * along
    found = []
    for edge in RANGE_EDGES:
        reach = edge - 5
        if across2 > reach * reach:
            continue
        half = math.sqrt(reach * reach - across2)
        found += [int(r) for r in (along - half, along + half) if r >= 0]
    return found


def _contact_endings(state: NavalState, ship: Ship, t1: int, run: int, heading: int, end, offer) -> None:
    """Boarding, towing and securing from an end point in contact."""
    shape = ship.hull(end[0], end[1], heading)
    reach = hull_radius(ship) * 2 + CONTACT
    towing = state.scenario.option("towing")
    for other in state.ships.values():
        if other is ship or not other.in_play or (other.side == ship.side and not towing and not retaking(ship, other)):
            continue
        if plane.distance(end, other.point) > reach + hull_radius(other):
            continue
        hull = other.hull()
        if plane.convex_separation(shape, hull) > CONTACT or plane.polygon_gap(shape, hull) > CONTACT:
            continue
        if (other.side != ship.side and other.fighting) or retaking(ship, other):
            offer(Move(ship.name, t1, run, 0, "board", other.name))
        elif other.side != ship.side and other.status == SURRENDERED:
            offer(Move(ship.name, t1, run, 0, "secure", other.name))
        elif other.side == ship.side and state.scenario.option("towing") and other.fighting:
            offer(Move(ship.name, t1, run, 0, "tow", other.name))
