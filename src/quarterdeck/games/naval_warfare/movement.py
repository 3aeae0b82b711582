"""Movement (seed 003, rules 2, 4, 6, 7 and 8; optional rules 1, 3 and 4 where they move ships).

Rule 4: a ship that is not dismasted makes a turn at the start, a run and a turn at the end, each
turn up to its turn angle. Rule 2 sets the run by wind strength and masts lost, and how close to
the wind the run may head (the angle between the run's heading and the direction the wind blows
from). Medium and Strong: every ship must run at least one drift move, unless its run is stopped
by contact (a decision). Rule 6: drifting ships move first, straight downwind without turning; a
drift onto land or a shoal wrecks, into another ship sets that one drifting too (4-6 to recover);
a ship may heave to with its move and drifts from the next. Rule 7: ending a move closer to the
wind than permitted puts a ship in irons. Rule 8: a wind change (or a lost mast) that leaves a
ship too close is rolled for at the start of its move.

Geometry (rulings): hulls never overlap; a run may end in contact but not cross a hull, land or a
shoal; a run whose end leaves the table disengages the ship; turns pivot on the mainmast and the
turned hull may not overlap another (a decision).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import DieRolled, Escaped, Marked, Moved, Turned

from .actions import Move
from .ship import AFLOAT, PRIZE, ROWING, SURRENDERED, Ship
from .wind import CALM, LIGHT, MEDIUM, STRONG, drift_distance, wind_angle_limit, wind_name

if TYPE_CHECKING:
    from .state import NavalState

CONTACT = 10  # hulls within 0.1" are in contact (rulings)
BOATS_RUN = 100  # a drift move for boats is 1" (rulings)


@dataclass(frozen=True)
class Limits:
    """What a ship may do with its move now (rule 2 and the markers on it)."""

    mode: str  # sail, oars, turn, grappled, surrendered, towed, none
    turn: int = 0
    run_max: int = 0
    run_min: int = 0
    wind: int | None = None  # the closest the run may head to the wind
    one_turn: bool = False
    reason: str = ""
    rule: str = "rule 2"
    boats: bool = False  # may use its boats instead (optional rule 1)


def why_still(lim: Limits) -> str:
    """A ship that may not move now: why, with its rule ("is in irons and drifts (rule 7)"); else ""."""
    if lim.mode != "none" or not lim.reason:
        return ""
    return lim.reason if lim.reason.endswith(")") else f"{lim.reason} ({lim.rule})"


def drift_reason(state: NavalState, ship: Ship) -> str:
    """Why a ship drifts this move instead of sailing, or ''."""
    if ship.adrift:
        return "is drifting until it throws 4-6 (rule 6)"
    if ship.on_fire:
        return "is on fire and drifts (Nelson rule 3)"
    if ship.drift_next == state.move_number:
        return "stopped to pick up survivors and drifts (optional rule 5)"
    if ship.converting == "oars":
        return "is shipping her oars and drifts (optional rule 4)"
    if ship.oars and not oars_usable(state, ship):
        return "cannot use her oars now and drifts (optional rule 4)"
    if ship.masts_lost >= 2 and state.strength >= MEDIUM and not ship.oars:
        return "is dismasted and drifts (rule 2)"
    if state.scenario.option("crews") and ship.crew < ship.spec.min_crew:
        return f"has fewer than {ship.spec.min_crew} crew to sail and drifts (optional rule 5)"
    return ""


def oars_usable(state: NavalState, ship: Ship) -> bool:
    """Optional rule 4: no oars in Strong winds; only galleasses row in Medium; none at 3/4 damage."""
    if state.strength == STRONG or ship.damage_level() >= 3:
        return False
    return state.strength != MEDIUM or ship.spec.type == "Galleasse"


def oar_run(state: NavalState, ship: Ship) -> int:
    """Optional rule 4: her oar speed, halved in Medium winds (only galleasses row then) and at half damage."""
    speed = ship.spec.oar_speed // (2 if state.strength == MEDIUM else 1)
    return speed // (2 if ship.damage_level() >= 2 else 1)


def drifts(state: NavalState, ship: Ship) -> bool:
    if ship.status == PRIZE:  # a prize crew too small to sail her lets her lie (a decision)
        return bool(ship.grappled) or (ship.sailable and bool(drift_reason(state, ship)))
    if ship.status == ROWING:  # an abandoned galley drifts while her oars cannot be used (optional rule 4)
        return not oars_usable(state, ship)
    return ship.fighting and (bool(drift_reason(state, ship)) or ship.irons or bool(ship.grappled))


def limits(state: NavalState, ship: Ship) -> Limits:
    if ship.status == SURRENDERED:
        return Limits("surrendered", rule="optional rule 6")
    if ship.status == PRIZE and not ship.grappled and not ship.sailable:
        return Limits("none", reason="has too small a prize crew to be sailed", rule="optional rule 6")
    if ship.status == ROWING:
        return Limits("none", reason="is abandoned: her slaves row her for the beach", rule="optional rule 4")
    if ship.status not in (AFLOAT, PRIZE):
        return Limits("none", reason="is out of the battle")
    if ship.moved:
        return Limits("none", reason="has already moved this move", rule="rule 3")
    if ship.grappled:
        return Limits("grappled", rule="rule 12")
    if ship.tow and not ship.towing:
        return Limits("towed", rule="optional rule 3")
    if ship.irons:
        if ship.irons_turn:
            return Limits("turn", turn=ship.spec.turn, rule="rule 7")
        return Limits("none", reason="is in irons and drifts", rule="rule 7")
    reason = drift_reason(state, ship)
    if reason:
        return Limits("none", reason=reason, rule="rule 6")
    spec = ship.spec
    strength = state.strength
    if ship.oars:  # optional rule 4 (rulings): no wind angle, no must-move, both turns
        return Limits("oars", turn=spec.oar_turn, run_max=oar_run(state, ship), rule="optional rule 4")
    # optional rule 1: boats after the first move of a calm or light airs, not more than half damaged
    boats = (
        state.scenario.option("boats")
        and ship.lost_flotation * 2 <= spec.flotation
        and ((strength == CALM and state.calm_moves > 1) or (strength == LIGHT and state.light_moves > 1))
    )
    if strength == CALM:
        if state.calm_moves <= 1:
            return Limits("none", reason="cannot move in the first move of a calm", boats=False)
        if ship.masts_lost >= 2:
            return Limits("none", reason="is dismasted and lies still in the calm", boats=boats)
        return Limits("turn", turn=45, boats=boats)
    if strength == LIGHT:
        if ship.masts_lost == 0:
            return Limits("sail", turn=spec.turn, run_max=drift_distance(LIGHT), wind=90, one_turn=spec.one_turn,
                          boats=boats)
        if ship.masts_lost == 1:
            return Limits("turn", turn=45, boats=boats)
        return Limits("none", reason="has lost two masts and stays still in light airs", boats=boats)
    factor = 2 if strength == STRONG else 1
    speed = spec.speed * factor
    if ship.masts_lost == 1:
        speed //= 2
    if ship.towing:  # optional rule 3: half the tower's speed, at least 1"
        speed = max(100, speed // 2)
    return Limits("sail", turn=spec.turn, run_max=speed, run_min=drift_distance(strength),
                  wind=wind_angle_limit(strength, ship.masts_lost), one_turn=spec.one_turn)


# --- obstacles ---------------------------------------------------------------------------------------
def hull_radius(ship: Ship) -> float:
    return math.hypot(ship.spec.length / 2, ship.spec.beam / 2)


class Scan:
    """The hulls and land near a ship, with each shape's bounding circle, and a memo of the shapes
    already tested (a ship's candidate moves share their turns and runs)."""

    def __init__(self, state: NavalState, ship: Ship, reach: float, ignore: tuple[str, ...] = (), land: bool = True):
        self.ship = ship
        self.items: list[tuple[str, tuple, float, float, float, bool]] = []
        x, y = ship.x, ship.y
        for other in state.ships.values():
            if other is ship or other.name in ignore or not other.in_play:
                continue
            if abs(other.x - x) <= reach and abs(other.y - y) <= reach:
                self.items.append((other.name, other.hull(), other.x, other.y, hull_radius(other), False))
        if land:
            for name, polygon, (cx, cy), r in state.land_circles:
                self.items.append((name, polygon, cx, cy, r, True))
        self.memo: dict[tuple, str] = {}
        self.limits: Limits | None = None

    def blocked(self, shape: tuple, cx: float, cy: float, r: float) -> str:
        """The first hull or land the shape overlaps (touching is allowed), or ''."""
        for name, polygon, ox, oy, orad, is_land in self.items:
            if (cx - ox) ** 2 + (cy - oy) ** 2 >= (r + orad) ** 2:
                continue
            if plane.polygons_overlap(shape, polygon) if is_land else plane.convex_overlap(shape, polygon):
                return name
        return ""

    def hull_at(self, x: float, y: float, heading: int) -> str:
        key = ("hull", x, y, heading)
        if key not in self.memo:
            ship = self.ship
            self.memo[key] = self.blocked(ship.hull(x, y, heading), x, y, hull_radius(ship))
        return self.memo[key]

    def run(self, heading: int, run: int) -> str:
        """What a straight run along the keel crosses: its swept area is one longer rectangle."""
        key = ("run", heading, run)
        if key not in self.memo:
            ship = self.ship
            dx, dy = plane.heading_vector(heading)
            mx, my = ship.x + dx * run / 2, ship.y + dy * run / 2
            length = ship.spec.length + run
            shape = plane.hull((mx, my), heading, length, ship.spec.beam)
            hit = self.blocked(shape, mx, my, math.hypot(length / 2, ship.spec.beam / 2))
            if not hit and run:  # the end point is rounded to the hundredth: the hull where it lands
                end = plane.advance(ship.point, heading, run)
                hit = self.hull_at(end[0], end[1], heading)
            self.memo[key] = hit
        return self.memo[key]

    def free_run(self, heading: int, run_max: int) -> int:
        """The longest run (up to run_max) along `heading` that crosses no hull or land."""
        key = ("free", heading, run_max)
        if key in self.memo:
            return int(self.memo[key])
        if not self.run(heading, run_max):
            result = run_max
        elif self.run(heading, 0):
            result = 0
        else:
            low, high = 0, run_max
            while high - low > 1:
                mid = (low + high) // 2
                if self.run(heading, mid):
                    high = mid
                else:
                    low = mid
            result = low
        self.memo[key] = str(result)
        return result


def scan_for(state: NavalState, ship: Ship, lim: Limits) -> Scan:
    reach = max(lim.run_max, BOATS_RUN) + 2 * ship.spec.length + 400
    scan = Scan(state, ship, reach, (ship.tow,) if ship.towing else ())
    scan.limits = lim
    return scan


# --- checking and applying a move -------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    x: int
    y: int
    heading: int
    run_heading: int
    irons: bool
    leaves: bool


def check(state: NavalState, ship: Ship, move: Move, scan: Scan | None = None) -> Plan:
    """Raise IllegalAction naming the rule unless `move` is legal for `ship` now; return its end."""
    lim = scan.limits if scan is not None and scan.limits is not None else limits(state, ship)
    name = ship.name
    if lim.mode == "none":
        raise IllegalAction(lim.rule, f"{name} {lim.reason}")
    if lim.mode in ("grappled", "surrendered", "towed"):
        return _check_standing(state, ship, move, lim)
    if move.extra == "cast-off":
        if not (ship.tow and ship.towing):
            raise IllegalAction("optional rule 3", f"{name} has no tow to cast off")
        return Plan(ship.x, ship.y, ship.heading, ship.heading, False, False)
    if move.extra in ("cut", "dishonour"):  # a grappled or surrendered ship was answered above
        raise IllegalAction("rule 12" if move.extra == "cut" else "optional rule 6",
                            f"{name} is not grappled or surrendered; {move.extra} does not apply")
    boats = move.extra == "boats"
    if boats and not lim.boats:
        raise IllegalAction("optional rule 1", f"{name} may use her boats only after the first move of a calm or "
                            "light airs, not more than half damaged, with the boats rule on")
    if ship.boats and not boats and lim.run_min == 0 and (move.turn1 or move.run or move.turn2):
        raise IllegalAction("optional rule 1", f"{name} was towed by her boats: she must lie still one move "
                            "before moving normally again")
    turn = ship.spec.turn if boats else lim.turn
    for value in (move.turn1, move.turn2):
        if abs(value) > turn:
            raise IllegalAction("rule 4", f"{name} may turn at most {turn} degrees at a time, not {abs(value)}")
    if lim.one_turn and move.turn1 and move.turn2 and not boats:
        raise IllegalAction("optional rule 4", f"{name} makes one turn only per move under sail")
    if lim.mode == "turn" and not boats and (move.run or move.turn2):
        raise IllegalAction(lim.rule, f"{name} may only turn this move ({state.wind_text()}), not run")
    run_max = BOATS_RUN if boats else lim.run_max
    if move.run < 0:
        raise IllegalAction("rule 4", f"{name} runs ahead, 0 inches or more, not {move.run / 100:.2f}: a ship "
                            "does not sail astern (turn to change course)")
    if move.run > run_max:
        raise IllegalAction(lim.rule, f"{name} may run at most {run_max / 100:.2f} inches now, "
                            f"not {move.run / 100:.2f}")
    run_heading = (ship.heading + move.turn1) % 360
    final = (run_heading + move.turn2) % 360
    if move.run and lim.wind is not None and not boats:
        off = plane.angle_off(run_heading, state.wind)
        if off < lim.wind:
            raise IllegalAction(lim.rule, f"{name} may not sail closer than {lim.wind} degrees to the wind: a run "
                                f"on heading {run_heading} lies {off:.0f} degrees off the wind from the "
                                f"{wind_name(state.wind)}")
    if scan is None:
        scan = scan_for(state, ship, lim)
    if move.turn1:
        hit = scan.hull_at(ship.x, ship.y, run_heading)
        if hit:
            raise IllegalAction("hulls", f"the turn swings {name} into {_possessive(state, hit)}")
    end = plane.advance(ship.point, run_heading, move.run)
    if move.run:
        hit = scan.run(run_heading, move.run)
        if hit:
            raise IllegalAction("hulls", f"the run crosses {_possessive(state, hit)}")
    if move.turn2:
        hit = scan.hull_at(end[0], end[1], final)
        if hit:
            raise IllegalAction("hulls", f"the turn swings {name} into {_possessive(state, hit)}")
    if lim.run_min and move.run < lim.run_min and not boats:
        if move.run != scan.free_run(run_heading, lim.run_min):
            raise IllegalAction("rule 2", f"every ship must move at least one drift move "
                                f"({lim.run_min / 100:.2f} inches) unless stopped by contact")
    leaves = not plane.in_table(end, state.scenario.width, state.scenario.height)
    irons = False
    if lim.mode == "sail" and lim.wind is not None and not boats:
        irons = plane.angle_off(final, state.wind) < lim.wind
    _check_extra(state, ship, move, end, final, lim)
    return Plan(end[0], end[1], final, run_heading, irons, leaves)


def _possessive(state: NavalState, name: str) -> str:
    return name if name in state.land_names else f"{name}'s hull"


def _check_standing(state: NavalState, ship: Ship, move: Move, lim: Limits) -> Plan:
    here = Plan(ship.x, ship.y, ship.heading, ship.heading, False, False)
    if lim.mode == "towed":  # optional rule 3 (rulings): either ship may cast off at the start of a move
        if move.extra in ("hold", "cast-off"):
            return here
        raise IllegalAction("optional rule 3", f"{ship.name} is under tow: {ship.tow} moves her; she may hold "
                            "or cast off before she does")
    if lim.mode == "surrendered":
        if move.extra == "hold":
            return here
        if move.extra == "dishonour":
            if not ship.crew:  # her boarders killed every man: nobody is left to rise (rulings: no crew, lost)
                raise IllegalAction("optional rule 6", f"{ship.name} has no crew left to dishonour her surrender")
            if ship.surrender_kind == "boarding" and not _reinforced(state, ship):
                raise IllegalAction("optional rule 6", f"{ship.name} surrendered to boarders and is held; her crew "
                                    "may rise only when a ship of her own side comes alongside")
            return here
        raise IllegalAction("optional rule 6", f"{ship.name} has surrendered: she must not move or fire")
    partner = state.ships.get(ship.grappled)
    if partner is not None and partner.status == SURRENDERED and partner.held_until:
        if move.extra == "hold":
            return here
        raise IllegalAction("optional rule 6", f"{ship.name} must stay grappled to {partner.name}, carried by her "
                            "boarders, until the end of the next move")
    if move.extra in ("hold", "cut"):
        return here
    if move.extra == "board" and move.target == ship.grappled and not (move.turn1 or move.run or move.turn2) \
            and ship.status != PRIZE:
        return here
    raise IllegalAction("rule 12", f"{ship.name} is grappled to {ship.grappled}: she may board, cut grapples "
                        "or hold, and drifts with her")


def _check_extra(state: NavalState, ship: Ship, move: Move, end, final: int, lim: Limits) -> None:
    extra, name = move.extra, ship.name
    if ship.status == PRIZE and extra not in ("", "hold"):
        raise IllegalAction("optional rule 6", f"{name} is a prize: she may be sailed, not fought")
    if extra in ("", "hold", "boats"):
        return
    if extra == "heave-to":
        return
    if extra in ("oars", "sail"):
        if not state.scenario.option("oared") or not ship.spec.oared:
            raise IllegalAction("optional rule 4", f"{name} has no oars to use (or the oared-vessels rule is off)")
        if (extra == "oars") == ship.oars or ship.converting:
            raise IllegalAction("optional rule 4", f"{name} is already {'under oars' if ship.oars else 'under sail'}")
        return
    target = state.ships.get(move.target)
    if target is None or target is ship or not target.in_play:
        raise IllegalAction("notation", f"there is no ship {move.target!r} in play to {extra}")
    gap = plane.polygon_gap(ship.hull(end[0], end[1], final), target.hull())
    if extra == "board":
        if not (target.side != ship.side and target.fighting) and not retaking(ship, target):
            raise IllegalAction("rule 12", f"{name} boards an enemy ship still fighting, or a prize the enemy took "
                                f"from her side, not {target.name}")
        if gap > CONTACT:
            raise IllegalAction("rule 12", f"to board, {name} must end her run in contact with {target.name}")
        if target.grappled and not retaking(ship, target):
            raise IllegalAction("rule 12", f"{target.name} is grappled to {target.grappled}: a ship is grappled to one "
                                "enemy at a time, so she cannot be boarded by another until they part")
        if ship.tow:
            raise IllegalAction("optional rule 3", f"{name} cannot board while towing")
        return
    if extra == "tow":
        check_tow(state, ship, target, end, final, gap)
        return
    if extra == "secure":
        from .prizes import check_secure

        check_secure(state, ship, target, gap, end)
        return
    raise IllegalAction("notation", f"unknown move ending {extra!r}")


def _reinforced(state: NavalState, ship: Ship) -> bool:
    from .prizes import reinforced

    return reinforced(state, ship)


def retaking(ship: Ship, target: Ship) -> bool:
    """A prize the enemy took from `ship`'s side: her boarders may retake her (optional rule 6)."""
    return target.status == PRIZE and target.side == ship.side and target.captor != ship.side


def check_tow(state: NavalState, ship: Ship, target: Ship, end, final: int, gap: float) -> None:
    """Optional rule 3: a ship may tow one not more than twice its tonnage (a frigate may tow a ship
    of the line or a frigate), moving to its bow."""
    if not state.scenario.option("towing"):
        raise IllegalAction("optional rule 3", "towing is not in use in this battle")
    if target.side != ship.side or not target.fighting:
        raise IllegalAction("optional rule 3", f"{ship.name} may tow a ship of her own side, not {target.name}")
    if ship.tow or target.tow:
        raise IllegalAction("optional rule 3", "a ship tows or is towed by one ship at a time")
    if target.grappled:  # grappled ships drift together (rule 12): she goes nowhere without her boarder
        raise IllegalAction("optional rule 3", f"{target.name} is grappled to {target.grappled} and cannot be "
                            "taken in tow")
    frigate = state.scenario.option("nelson") and (ship.spec.guns or 99) < 50
    if target.spec.tons > 2 * ship.spec.tons and not frigate:
        raise IllegalAction("optional rule 3", f"{ship.name} may tow a ship of at most twice her tonnage")
    ahead, _ = plane.local(target.point, target.heading, end)
    if gap > CONTACT or ahead <= target.spec.length / 2:
        raise IllegalAction("optional rule 3", f"to take {target.name} in tow, {ship.name} must end at her bow, "
                            "in contact")


def apply(state: NavalState, ship: Ship, move: Move, plan: Plan) -> None:
    start = ship.point
    name = ship.name
    if move.extra == "cast-off":
        cast_off(state, ship)
        ship.moved = True
        return
    ship.x, ship.y = plan.x, plan.y
    ship.heading = plan.heading
    ship.moved = True
    ship.boats = move.extra == "boats"
    if (plan.x, plan.y) != start:
        state.emit(Moved(name, state.where(start), state.where(ship.point), f"{plan.heading}"))
    elif move.turn1 or move.turn2:
        state.emit(Turned(name, state.where(ship.point), f"{plan.heading}"))
    if ship.irons_turn:  # the recovery turn of rule 7
        ship.irons_turn = False
        limit = wind_angle_limit(state.strength, ship.masts_lost)
        if limit is None or plane.angle_off(ship.heading, state.wind) >= limit:
            ship.irons = False
            state.emit(Marked(name, "out of irons", "rule 7"))
    if plan.irons:
        ship.irons = True
        state.emit(Marked(name, "in irons", "rule 7"))
    if plan.leaves:
        ship.status = "disengaged"
        state.emit(Escaped(name, state.where(start), "table"))
        cast_off(state, ship)
        return
    if ship.towing:
        place_astern(state, ship, state.ships[ship.tow])
    extra = move.extra
    if extra == "heave-to":
        ship.heave_to = True
        state.emit(Marked(name, "heaves to", "rule 6"))
    elif extra == "oars":
        ship.converting = "oars-next"
        state.emit(Marked(name, "will ship her oars next move", "optional rule 4"))
    elif extra == "sail":
        ship.converting = "sail-next"
        state.emit(Marked(name, "raises sail: rows this move, sails the next", "optional rule 4"))
    elif extra == "board":
        state.push_roll("grapple", name, move.target)
    elif extra == "tow":
        state.push_roll("tow", name, move.target)
    elif extra == "secure":
        from .prizes import secure

        secure(state, ship, state.ships[move.target])
    elif extra == "cut":
        state.push_roll("cut", name, ship.grappled)
    elif extra == "dishonour":
        from .prizes import dishonour

        dishonour(state, ship)


def cast_off(state: NavalState, ship: Ship) -> None:
    if ship.tow:
        partner = state.ships[ship.tow]
        partner.tow, partner.towing = "", False
        state.emit(Marked(ship.name, f"casts off the tow with {partner.name}", "optional rule 3"))
    ship.tow, ship.towing = "", False


def place_astern(state: NavalState, tower: Ship, towed: Ship) -> None:
    """The towed ship follows astern of the tower, on its heading (optional rule 3)."""
    back = (tower.spec.length + towed.spec.length) / 2 + CONTACT
    towed.x, towed.y = plane.advance(tower.point, (tower.heading + 180) % 360, back)
    towed.heading = tower.heading
    towed.moved = True
    if not plane.in_table(towed.point, state.scenario.width, state.scenario.height):
        towed.status = "disengaged"
        state.emit(Escaped(towed.name, state.where(towed.point), "table"))
        cast_off(state, tower)


def tow_roll(state: NavalState, tower: Ship, towed: Ship, value: int) -> None:
    """Optional rule 3 (rulings): 3-6 in a calm or light airs, 4-6 in medium, 6 in strong winds."""
    state.emit(DieRolled(f"{tower.name} takes {towed.name} in tow", value))
    need = {CALM: 3, LIGHT: 3, MEDIUM: 4, STRONG: 6}[state.strength]
    if value >= need and tower.fighting and towed.fighting:
        tower.tow, tower.towing = towed.name, True
        towed.tow, towed.towing = tower.name, False
        place_astern(state, tower, towed)
        state.emit(Marked(tower.name, f"has {towed.name} in tow", "optional rule 3"))
