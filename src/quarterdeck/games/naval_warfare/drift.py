"""Ships that do not sail (seed 003, rules 6 to 8, optional rule 4).

Rule 6: drifting ships move first, straight downwind without turning, the most downwind first, a
grappled or towing pair together; a drift onto land or a shoal wrecks, into another ship sets that
one drifting too, and a drifting ship throws 4-6 to sail again. Rule 7: a ship in irons throws 5-6
to make one turn. Rule 8: a wind change (or a lost mast) that leaves a ship closer to the wind than
now permitted is thrown for at the start of her move: 1-2 she is in irons, otherwise she pays off
to the limit. Optional rule 4: an abandoned galley's slaves row her for the nearest beach.

The sailing ships' own moves are in movement.py; its obstacle scan serves both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.events import DieRolled, Drifted, Escaped, Marked, Moved, Turned, Wrecked

from .movement import CONTACT, Scan, drift_reason, drifts, hull_radius, oar_run, oars_usable
from .ship import ROWING, Ship
from .wind import drift_distance, wind_angle_limit

if TYPE_CHECKING:
    from .state import NavalState


# --- drifting (rule 6) ------------------------------------------------------------------------------
def drift_all(state: NavalState) -> None:
    distance = drift_distance(state.strength)
    if distance == 0:
        return
    downwind = (state.wind + 180) % 360
    dx, dy = plane.heading_vector(downwind)
    movers = [s for s in state.ordered_ships() if drifts(state, s)]
    movers.sort(key=lambda s: -(s.x * dx + s.y * dy))  # the most downwind first
    done: set[str] = set()
    for ship in movers:
        if ship.name in done:
            continue
        group = [ship]
        if ship.grappled and ship.grappled in state.ships:
            group.append(state.ships[ship.grappled])
        if ship.tow:
            group.append(state.ships[ship.tow])
        done.update(s.name for s in group)
        _drift_group(state, group, downwind, distance)


def why_drifting(state: NavalState, ship: Ship) -> str:
    """Why a ship drifts this move, with its rule ("is in irons and drifts (rule 7)"), told with her
    drift so that nobody wonders why a ship nobody moved has moved."""
    if ship.status == ROWING:
        return "is abandoned and drifts while her oars cannot be used (optional rule 4)"
    reason = drift_reason(state, ship)
    if reason:
        return reason
    if ship.irons:
        return "is in irons and drifts (rule 7)"
    if ship.grappled:
        return f"drifts grappled to {ship.grappled} (rule 12)"
    return f"drifts with {ship.tow}, towing and towed together (optional rule 3)"


def _drift_group(state: NavalState, group: list[Ship], downwind: int, distance: int) -> None:
    names = tuple(s.name for s in group)
    travel = distance
    struck: dict[str, str] = {}  # every ship the drift comes up against where it stops, and which of them (rule 6)
    for ship in group:
        scan = Scan(state, ship, distance + 600, names, land=False)
        # she comes up against a hull within 0.1" beyond her full drift too (rulings: in contact), touching
        # it exactly included, as surely as one that stops her short: probed a hundredth past that
        ahead = _free_drift(scan, ship, downwind, distance + CONTACT + 1)
        free = min(ahead, distance)
        if free < travel:
            travel, struck = free, {}
        if free == travel and ahead <= distance + CONTACT:
            for name in _contact_with(scan, ship, downwind, free):
                struck.setdefault(name, ship.name)
    wrecked = []
    for ship in group:
        end = plane.advance(ship.point, downwind, travel)
        path = plane.swept(ship.point, ship.heading, ship.spec.length, ship.spec.beam, end)
        for land in state.scenario.land:
            if plane.polygons_touch(path, land.polygon):
                wrecked.append((ship, land.name))
                break
    for ship in group:
        start = ship.point
        ship.x, ship.y = plane.advance(ship.point, downwind, travel)
        if travel:
            state.emit(Drifted(ship.name, state.where(start), state.where(ship.point), why_drifting(state, ship)))
    for ship, land_name in wrecked:
        ship.status = "wrecked"
        state.emit(Wrecked(ship.name, land_name))
        state.ship_lost(ship)
    for ship in group:
        if ship.in_play and not plane.in_table(ship.point, state.scenario.width, state.scenario.height):
            off_table(state, ship)
    for name, by in struck.items():
        other = state.ships.get(name)
        if other is not None and other.fighting and not other.adrift and other.name not in names:
            other.adrift = True
            state.emit(Marked(other.name, f"is struck by drifting {by} and drifts", "rule 6"))


def _free_drift(scan: Scan, ship: Ship, direction: int, distance: int) -> int:
    """The farthest a ship drifts sideways (without turning) before touching another hull."""
    start = ship.point
    r0 = hull_radius(ship)

    def clear(run: int) -> bool:
        end = plane.advance(start, direction, run)
        shape = plane.swept(start, ship.heading, ship.spec.length, ship.spec.beam, end)
        mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        return not scan.blocked(shape, mx, my, r0 + run / 2)

    if clear(distance):
        return distance
    low, high = 0, distance
    while high - low > 1:
        mid = (low + high) // 2
        if clear(mid):
            low = mid
        else:
            high = mid
    return low


def _contact_with(scan: Scan, ship: Ship, direction: int, run: int) -> list[str]:
    """The ships a drift of `run` leaves in contact with her: all of them, two struck at once both
    drift."""
    end = plane.advance(ship.point, direction, run)
    shape = ship.hull(end[0], end[1])
    return [name for name, other, *_ in scan.items if plane.polygon_gap(shape, other) <= CONTACT]


def off_table(state: NavalState, ship: Ship) -> None:
    """A ship carried off the table has disengaged; an abandoned galley is lost with nobody aboard to
    fight her (optional rule 4, a decision)."""
    if ship.status == ROWING:
        ship.status = "abandoned"
        state.emit(Marked(ship.name, "is carried off the table, abandoned", "optional rule 4"))
    else:
        ship.status = "disengaged"
        state.emit(Escaped(ship.name, state.where(ship.point), "table"))
    state.ship_lost(ship)


# --- an abandoned galley (optional rule 4) -------------------------------------------------------------
def beach(state: NavalState, ship: Ship) -> tuple[float, float] | None:
    """The nearest point of land (not shoal) to her mainmast, or None on a table with no land."""
    coasts = [plane.nearest_point(ship.point, land.polygon) for land in state.scenario.land if land.kind == "land"]
    return min(coasts, key=lambda p: plane.distance(ship.point, p), default=None)


def row_for_the_beach(state: NavalState) -> None:
    """"If a galley or galleass is abandoned, the slaves will immediately row for the nearest beach and
    beach the vessel" (optional rule 4). Each move, after the drifting ships and before anyone moves,
    she turns for the nearest point of land (up to her oar turn), rows her oar speed as optional rule 4
    allows it now (while it allows none she drifts, rule 6) and turns for it again. A hull in her way
    stops her run in contact and harms nobody; she rows on next move (a decision). Touching land she
    is beached; a shoal wrecks her."""
    for ship in state.ordered_ships():
        if ship.status == ROWING and not _aground(state, ship) and oars_usable(state, ship):
            _row(state, ship)
            _aground(state, ship)


def _toward(ship: Ship, point, turn: int) -> int:
    """The heading after a turn of up to `turn` degrees towards `point`."""
    wanted = plane.signed_turn(ship.heading, plane.bearing(ship.point, point))
    return round(ship.heading + max(-turn, min(turn, wanted))) % 360


def _row(state: NavalState, ship: Ship) -> None:
    start = ship.point
    speed = oar_run(state, ship)
    scan = Scan(state, ship, speed + 2 * ship.spec.length + 400, land=True)
    heading = _toward(ship, beach(state, ship), ship.spec.oar_turn)
    if not scan.hull_at(ship.x, ship.y, heading):
        ship.heading = heading
    run = scan.free_run(ship.heading, speed)
    stop = scan.run(ship.heading, run + 1) if run < speed else ""
    ship.x, ship.y = plane.advance(ship.point, ship.heading, run)
    if stop in state.ships:
        state.emit(Marked(ship.name, f"is stopped by {stop}'s hull", "optional rule 4"))
    if not plane.in_table(ship.point, state.scenario.width, state.scenario.height):
        off_table(state, ship)
        return
    end_heading = _toward(ship, beach(state, ship), ship.spec.oar_turn)
    if not Scan(state, ship, 2 * ship.spec.length + 400).hull_at(ship.x, ship.y, end_heading):
        ship.heading = end_heading
    state.emit(Moved(ship.name, state.where(start), state.where(ship.point), f"{ship.heading}"))


def _aground(state: NavalState, ship: Ship) -> bool:
    """Whether she has reached land (beached) or a shoal (wrecked); both take her out of the battle."""
    shape = ship.hull()
    for land in state.scenario.land:
        if plane.polygon_gap(shape, land.polygon) <= CONTACT:
            ship.status = "beached" if land.kind == "land" else "wrecked"
            if land.kind == "land":
                state.emit(Marked(ship.name, f"is beached on {land.name} by her slaves", "optional rule 4"))
            else:
                state.emit(Wrecked(ship.name, land.name))
            state.ship_lost(ship)
            return True
    return False


# --- rule 8 ----------------------------------------------------------------------------------------
def too_close(state: NavalState, ship: Ship) -> bool:
    """A sailing ship pointing closer to the wind than now permitted (rule 8 applies)."""
    if not ship.fighting or ship.irons or ship.oars or ship.grappled or (ship.tow and not ship.towing):
        return False
    if drift_reason(state, ship):
        return False
    limit = wind_angle_limit(state.strength, ship.masts_lost)
    return limit is not None and plane.angle_off(ship.heading, state.wind) < limit


def rule8(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name} caught by the wind (rule 8)", value))
    if value <= 2:
        ship.irons = True
        state.emit(Marked(ship.name, "in irons", "rule 8"))
        return
    limit = wind_angle_limit(state.strength, ship.masts_lost) or 0
    side = plane.signed_turn(state.wind, ship.heading)
    sign = -1 if side < 0 else 1  # exactly head to wind turns clockwise (rulings)
    heading = (state.wind + sign * limit) % 360
    if Scan(state, ship, 2 * ship.spec.length + 400).hull_at(ship.x, ship.y, heading):
        ship.irons = True  # a decision: a turn that would swing into another hull leaves her in irons
        state.emit(Marked(ship.name, "in irons: no room to pay off", "rule 8"))
        return
    ship.heading = heading
    state.emit(Turned(ship.name, state.where(ship.point), f"{ship.heading}"))


def resume(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name} to sail again (rule 6)", value))
    if value >= 4:
        ship.adrift = False
        state.emit(Marked(ship.name, "sails again", "rule 6"))


def irons_roll(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name} in irons (rule 7)", value))
    if value >= 5:
        ship.irons_turn = True
        state.emit(Marked(ship.name, "may make one turn", "rule 7"))
