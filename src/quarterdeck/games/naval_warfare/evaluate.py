"""What the computer knows of Naval Warfare (seed 003), counted in expected points of the victory
count (rulings, "Victory": flotation taken, plus what is left of every enemy ship lost or taken).

`evaluate(state, player)` is the score as it stands plus what the position holds, for `player` less
the other side (greedy and the search agents both use it):

* the dice in the air: a broadside being thrown (rule 9: 4-6 at short range, 5-6 at long, a half
  battery on a 6; Nelson rule 1 doubles a rake at short range), a grapple about to be thrown and the
  boarding fight it opens, a morale die, fights that go on next move (rule 12: a carried ship is
  worth her whole remaining flotation);
* the fire each ship brings to bear from where she lies (rules 9 and 10, exact per battery over the
  dice, line of fire and Nelson rule 4 respected), in full where both ships' places for this move's
  fire are settled, in part where either may still move, and at half once this move's fire is over;
* the fight to come (`fight_to_come`): each ship's strongest mount on her nearest enemy at the range
  each move left leaves (up to HORIZON) when both sail for the band where they outgun the other,
  whoever moves second having her way, and the boardings a run or a chase brings within reach, so
  that closing pays the side whose guns and crews gain more from it; masts lost, fire and drifting
  markers, a ship the wind pins against the table's edge counted out of the fight (`pinned`);
* escape (`escapes`): a side that can sail every ship off the table with its next run ends the
  battle as the points stand, so its lead is worth HOLD more, and an edge against it is worth no more
  than the points as they stand; where the scenario fights to a finish (leaving the table counts as
  struck) nobody escapes, and a pinned ship is worth her remaining flotation to the enemy.

Both sides also wish for action (`seek_action`, the same for both, so not part of the margin): a
ship far beyond gun range of any enemy counts against both, since a battle not fought is a draw.

The rest is search knowledge, used by `ai:N` only (`candidates`, `rollout_policy`,
`SEARCH_SETTINGS`): movement is searched one ship at a time, her moves ranked by `MoveScorer`, which
weighs the fire she will bring to bear against what the enemy can do in reply (settled enemies
exactly, those still to move by the best range they can reach, or a boarding), the boardings either
side may make next move (the crews and the wind decide who can reach whom) and the fight to come,
one move per end place, with the move the evaluation likes best one decision ahead (of the ranking's
first 24 and every grapple) always among them; a ship never offers surrender while fighting fit and
never runs off the table unless her side is ahead or she is half lost, and the last ship of a side
ahead on points sails off first, which ends the battle won; playouts finish the movement phase
(without the fight to come) and stop where fire begins, so the evaluation reads the broadsides from
the places both sides took.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from typing import Any

from quarterdeck.core import plane
from quarterdeck.core.protocol import Action

from . import boarding, fire, movement, victory
from .actions import Choose, Fire, Gunners, Move
from .scenario import MOUNTS
from .ship import Ship
from .state import NavalState

HIT = {"short": 0.5, "long": 1 / 3}  # a whole battery's chance to hit in each band (rule 9)
SIX = 1 / 6  # a half battery hits only on a 6 (rulings)
PLACED, UNPLACED = 1.0, 0.3  # weight of fire from a settled place, and from one a ship may still leave
LATER = 0.5  # weight of fire from where ships lie once this move's fire is over (they move first)
FUTURE = 0.5  # weight of the fight to come (see fight_to_come)
HOLD = 2.0  # a lead her side can take off the table (see escapes)
SEEK = 0.1  # the wish for action, per inch beyond gun range (see seek_action)
ENDS = 100.0  # the last ship of a side leaving the table ends the battle: won, drawn or lost on points
SPREAD = (-0.375, -0.125, 0.125, 0.375)  # each volley to come taken over the half move either side of it, so
# that every inch closed counts, not only those that cross a band's edge
PINNED = 2.0  # a ship the wind holds against the table's edge must leave the fight next move (see pinned)
MAST = 1.0  # a mast lost: slower, closer to the wind, and at two masts adrift
HORIZON = 3
MOVE_PHASES = ("move-first", "move-second")
KEEP = 8  # moves of one ship searched, best first (few, so that a second of search tells them apart)
LOOKED_AT = 3 * KEEP  # moves the evaluation reads one decision ahead for the one it likes best
ROLLOUT_SAMPLE = 16  # moves a playout weighs for each ship


# --- gunfire ----------------------------------------------------------------------------------------
_MOUNTS: dict[tuple, dict[str, list]] = {}
_STRENGTH: dict[tuple[int, int], float] = {}
BAND_EDGES = tuple(sorted({edge for edges in fire.BANDS.values() for edge in edges if edge}))


def mounts_of(ship: Ship) -> dict[str, list]:
    """The ship's batteries by mount (shared by every ship with the same batteries left)."""
    key = tuple(ship.batteries)
    found = _MOUNTS.get(key)
    if found is None:
        found = {}
        for mount, battery in key:
            found.setdefault(mount, []).append(battery)
        if len(_MOUNTS) > 4096:
            _MOUNTS.clear()
            _STRENGTH.clear()  # keyed by the identity of the lists dropped here
        _MOUNTS[key] = found
    return found


class Body:
    """A ship where she lies, or where a move would leave her: what the fire geometry needs."""

    __slots__ = ("ship", "name", "side", "point", "heading", "length", "beam", "mounts", "_hull")

    def __init__(self, ship: Ship, x: int | None = None, y: int | None = None, heading: int | None = None):
        self.ship = ship
        self.name, self.side = ship.name, ship.side
        self.point = ship.point if x is None else (x, y)
        self.heading = ship.heading if heading is None else heading
        self.length, self.beam = ship.spec.length, ship.spec.beam
        self.mounts = mounts_of(ship)
        self._hull = None

    def hull(self) -> plane.Polygon:
        if self._hull is None:
            self._hull = plane.hull(self.point, self.heading, self.length, self.beam)
        return self._hull


def battery_hits(battery, reach: str, rake: bool = False) -> float:
    if not reach:
        return 0.0
    chance = SIX if battery.half else HIT[reach]
    return chance * 2 if rake and reach == "short" else chance


def bears(firer: Body, mount: str, target: Body) -> bool:
    """Rule 10 for a ship where she lies or would lie (fire.bears, for bodies)."""
    if mount in fire.SIDE:
        return plane.broadside_bears(firer.point, firer.heading, firer.length, firer.beam, fire.SIDE[mount],
                                     target.point)
    return fire.keel_line_reaches(firer.point, firer.heading, fire.KEEL[mount], target.point, target.length,
                                  target.hull())


def raked(firer: Body, target: Body) -> bool:
    """Nelson rule 1: the target's keel line passes through the firer."""
    shape = firer.hull()
    return any(plane.keel_line_hits(target.point, target.heading, d, shape, fire.RAKE_RANGE + 300) for d in (1, -1))


def blocked(state: NavalState, firer: Body, target: Body) -> bool:
    """A hull (where it lies now) or land in the line of fire (fire.blocked, for bodies)."""
    a, b = firer.point, target.point
    lo_x, hi_x = min(a[0], b[0]) - 300, max(a[0], b[0]) + 300
    lo_y, hi_y = min(a[1], b[1]) - 300, max(a[1], b[1]) + 300
    for other in state.ships.values():
        if other.name in (firer.name, target.name) or not other.in_play:
            continue
        if lo_x <= other.x <= hi_x and lo_y <= other.y <= hi_y and plane.segment_hits_polygon(a, b, other.hull()):
            return True
    return any(land.kind == "land" and plane.segment_hits_polygon(a, b, land.polygon) for land in state.scenario.land)


def mount_hits(state: NavalState, firer: Body, mount: str, target: Body) -> float:
    """Expected hits of `firer`'s batteries on `mount` against `target`, fired now (0 if they cannot)."""
    distance = plane.distance(firer.point, target.point)
    if distance > fire.MAX_RANGE or not bears(firer, mount, target):
        return 0.0
    f, t = firer.ship, target.ship
    nelson = state.scenario.option("nelson")
    if nelson and (f.spec.guns or 0) >= 64 and (t.spec.guns or 99) < 50 and not t.has_fired:
        return 0.0  # Nelson rule 4
    rake = nelson and distance <= fire.RAKE_RANGE and raked(firer, target)
    value = sum(battery_hits(b, fire.band(b, distance), rake) for b in firer.mounts[mount])
    if value and blocked(state, firer, target):
        return 0.0
    return value


def fire_potential(state: NavalState, firer: Body, enemies: list[Body], weight=None) -> float:
    """The most hits each of the ship's mounts could expect against one enemy from where she lies,
    each target weighted by `weight(enemy)` (default 1)."""
    ship = firer.ship
    if not ship.fighting or ship.on_fire:
        return 0.0
    total = 0.0
    for mount in firer.mounts:
        if mount in ship.fired:
            continue  # that broadside has been fired this move
        best = 0.0
        for enemy in enemies:
            if ship.grappled and enemy.name != ship.grappled:
                continue  # grappled ships fire only at each other (rulings)
            value = mount_hits(state, firer, mount, enemy)
            if value and weight is not None:
                value *= weight(enemy)
            best = max(best, value)
        total += best
    return total


def broadside_strength(body: Body, distance: float) -> float:
    """Expected hits of the ship's strongest mount (a broadside, or her bow or stern guns) at
    `distance`, if it bears (rule 9)."""
    key = (id(body.mounts), bisect.bisect_left(BAND_EDGES, distance))  # the same bands throughout
    if key not in _STRENGTH:
        _STRENGTH[key] = max((sum(battery_hits(b, fire.band(b, distance)) for b in guns)
                              for guns in body.mounts.values()), default=0.0)
    return _STRENGTH[key]


# --- boarding (rule 12) -------------------------------------------------------------------------------
Crews = list[float]  # chance of each number of men standing, from none up


@functools.lru_cache(maxsize=1 << 10)
def _kills(dice: int, subtract: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The chance of each number of men killed by `dice` boarding dice taking `subtract` off each,
    and the chance of at least each number."""
    one = [0.0] * (7 - subtract)
    for face in range(1, 7):
        one[max(0, face - subtract)] += 1 / 6
    pmf = [1.0]
    for _ in range(dice):
        wider = [0.0] * (len(pmf) + len(one) - 1)
        for i, p in enumerate(pmf):
            if p > 1e-15:
                for j, q in enumerate(one):
                    wider[i + j] += p * q
        pmf = wider
    at_least = list(itertools.accumulate(reversed(pmf)))[::-1]
    return tuple(pmf), tuple(at_least)


def _losing(crews: dict[int, float], dice: int, subtract: int) -> Crews:
    """The men left of `crews` (a few numbers of men) after the enemy's `dice` (never below none)."""
    kills, at_least = _kills(dice, subtract)
    left = [0.0] * (max(crews) + 1)
    for men, p in crews.items():
        reach = min(men, len(kills))
        for killed in range(reach):
            left[men - killed] += p * kills[killed]
        if men < len(kills):
            left[0] += p * at_least[men]
    return left


def _by_dice(crews: Crews) -> list[tuple[int, float, dict[int, float]]]:
    """Those standing grouped by the dice they throw (rule 12: one per five): dice, chance, and the
    men given that many dice."""
    groups: dict[int, dict[int, float]] = {}
    for men in range(1, len(crews)):
        if crews[men] > 1e-12:
            groups.setdefault(boarding.dice_for(men), {})[men] = crews[men]
    found = []
    for dice, group in groups.items():
        total = sum(group.values())
        found.append((dice, total, {men: p / total for men, p in group.items()}))
    return found


Going = list[float]  # fights that go on: their chance, and the chance times each side's men


def _morale(attackers: Crews, defenders: Crews, weight: float, smaller: Going, larger: Going) -> float:
    """After round two, the chance the defender yields (rule 12: 1-2 the smaller side yields, 6 the
    larger, 2 off when one side is more than twice the other; equal crews: the attacker is smaller),
    times `weight`; the fights that go on, times `weight`, are added to `smaller` (the attacker the
    smaller side) or `larger`."""
    below, below_men = [0.0], [0.0]  # below[k]: chance of fewer than k defenders; below_men the same times men
    for men, p in enumerate(defenders):
        below.append(below[-1] + p)
        below_men.append(below_men[-1] + p * men)
    top = len(below) - 1
    yields = 0.0
    for a, pa in enumerate(attackers):
        if pa <= 1e-12:
            continue
        pa *= weight
        # defenders fewer than half the attackers, fewer than the attackers, at most twice them
        cuts = (0, min((a + 1) // 2, top), min(a, top), min(2 * a + 1, top), top)
        lop_large, even_large, even_small, lop_small = (below[hi] - below[lo] for lo, hi in itertools.pairwise(cuts))
        yields += pa * (even_small / 6 + even_large * 2 / 6 + lop_large * 4 / 6)
        men = [below_men[hi] - below_men[lo] for lo, hi in itertools.pairwise(cuts)]
        for going, lop, even, lop_men, even_men in ((larger, lop_large, even_large, men[0], men[1]),
                                                    (smaller, lop_small, even_small, men[3], men[2])):
            on = even * 3 / 6 + lop * 2 / 6  # 3-5 goes on; with 2 off, 5-6
            going[0] += pa * on
            going[1] += pa * on * a
            going[2] += pa * (even_men * 3 / 6 + lop_men * 2 / 6)
    return yields


@functools.lru_cache(maxsize=1 << 14)
def carried(attacker: int, defender: int, rounds: tuple[int, ...] = (1, 2), goes: int = 3) -> float:
    """The chance that boarders carry the defender (rule 12): each round's losses exact over the dice
    (grouped by the dice each side's survivors throw, the two sides' losses independent within a
    group), the morale die, and the fights that go on taken again from round one at their mean crews
    (those where the attacker is the smaller side apart from the others), for up to `goes` moves.
    `rounds`: those still to fight this move (none: the morale die is next)."""
    if attacker <= 0:
        return 0.0
    if defender <= 0:
        return 1.0
    taken = 0.0
    start_a, start_d = [0.0] * (attacker + 1), [0.0] * (defender + 1)
    start_a[attacker] = start_d[defender] = 1.0
    fights: list[tuple[float, Crews, Crews]] = [(1.0, start_a, start_d)]
    for round_number in rounds:
        a_mod, d_mod = boarding.MODIFIERS[round_number]
        after = []
        for weight, attackers, defenders in fights:
            for a_dice, pa, a_given in _by_dice(attackers):
                for d_dice, pd, d_given in _by_dice(defenders):
                    a_left = _losing(a_given, d_dice, d_mod)
                    d_left = _losing(d_given, a_dice, a_mod)
                    a_out, d_out = a_left[0], d_left[0]
                    share = weight * pa * pd
                    taken += share * (1 - a_out) * d_out  # an attacker with no men left loses even so
                    standing = (1 - a_out) * (1 - d_out)
                    if standing > 1e-12:
                        a_left[0] = d_left[0] = 0.0
                        a_left = [p / (1 - a_out) for p in a_left]
                        d_left = [p / (1 - d_out) for p in d_left]
                        after.append((share * standing, a_left, d_left))
        fights = after
    smaller, larger = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    for weight, attackers, defenders in fights:
        taken += _morale(attackers, defenders, weight, smaller, larger)
    for chance, a_men, d_men in (smaller, larger):
        if goes > 1 and chance > 1e-9:
            taken += chance * carried(round(a_men / chance), round(d_men / chance), (1, 2), goes - 1)
    return taken


def fight_value(attacker: Ship, defender: Ship, rounds: tuple[int, ...] = (1, 2), goes: int = 3) -> float:
    """Expected points to the attacker's side: the defender's remaining flotation if she is carried."""
    return carried(attacker.crew, defender.crew, rounds, goes) * defender.flotation


def can_reach(state: NavalState, mover: Body, target: Body, lim: movement.Limits) -> bool:
    """Whether one run after a turn within the limits could bring `mover` alongside `target`."""
    if lim.mode not in ("sail", "oars") or lim.run_max <= 0:
        return False
    distance = plane.distance(mover.point, target.point)
    if distance - (mover.length + target.beam) / 2 > lim.run_max:
        return False
    course = plane.bearing(mover.point, target.point)
    # any run heading that meets the target's hull will do: aim at her ends, or glance along her side
    spread = math.degrees(math.atan2(target.length / 2 + mover.beam / 2 + movement.CONTACT, max(distance, 1.0)))
    for offset in (0.0, -spread / 2, spread / 2, -spread, spread):
        heading = course + offset
        if plane.angle_off(heading, mover.heading) <= lim.turn and \
                (lim.wind is None or plane.angle_off(heading, state.wind) >= lim.wind):
            return True
    return False


class Limits:
    """Each ship's movement limits, worked out once per evaluation: as they stand, or as they
    would be next move for a ship that has moved already."""

    def __init__(self, state: NavalState):
        self.state = state
        self.found: dict[str, movement.Limits] = {}

    def now(self, ship: Ship) -> movement.Limits:
        key = ship.name
        if key not in self.found:
            self.found[key] = movement.limits(self.state, ship)
        return self.found[key]

    def next(self, ship: Ship) -> movement.Limits:
        if not ship.moved:
            return self.now(ship)
        key = "next " + ship.name
        if key not in self.found:
            ghost = ship.copy()
            ghost.moved = False
            self.found[key] = movement.limits(self.state, ghost)
        return self.found[key]


# --- the evaluation ----------------------------------------------------------------------------------
MOVING = ("wind", "initiative", "start", "fights", "drift", *MOVE_PHASES)
FIRING = ("fire-first", "damage-second", "fire-second", "damage-first", "end", "clock")


def fire_done(state: NavalState, side: int) -> bool:
    """Whether `side` has fired (or passed) this move already."""
    if state.first is None or state.phase not in FIRING:
        return False
    fires_at = "fire-first" if side == state.first else "fire-second"
    return FIRING.index(state.phase) > FIRING.index(fires_at)


def placed(state: NavalState, ship: Ship, limits: Limits) -> bool:
    """Whether the ship's place for this move's fire is settled."""
    if ship.moved or state.phase not in MOVING:
        return True
    return limits.now(ship).mode in ("none", "grappled", "surrendered")


def future_moves(state: NavalState) -> int:
    """Moves still to come after this one, up to the horizon the evaluation looks to."""
    return min(HORIZON, max(0, state.moves_left() - 1))


# Where each ship would fight if she could choose: the band (short, medium, long, or out of range) in
# hundredths, aimed a little inside it so that the range held does not sit on a band's edge.
BANDS_HELD = ((0, 300), (500, 700), (900, 1500))
OUT_OF_RANGE = (fire.MAX_RANGE + 100, math.inf)


def preferred_band(body: Body, enemy: Body) -> tuple[float, float]:
    """The band where the ship's strongest mount does best against the enemy's (rules 9 and 10): the
    largest difference of expected hits, out of range (no difference) where she is outgunned at every
    range; between equals the closest, where the fight is decided soonest."""
    best, best_margin = OUT_OF_RANGE, 0.0
    for band_held in reversed(BANDS_HELD):
        reach = (band_held[0] + band_held[1]) / 2
        margin = broadside_strength(body, reach) - broadside_strength(enemy, reach)
        if margin >= best_margin:
            best, best_margin = band_held, margin
    return best


def next_range(distance: float, mine: tuple[float, tuple], theirs: tuple[float, tuple]) -> float:
    """The range after one more move when each ship, given as (run, band), sails for her preferred
    band (`preferred_band`): each moves first half the time (rule 3), and the one who moves second
    sails for her band from wherever the first left the range, so a ship that would keep away only
    holds the range when she moves second. The same for both ships, whichever asks."""
    def after(first: tuple[float, tuple], second: tuple[float, tuple]) -> float:
        reach = distance
        for run, band in (first, second):
            want = _towards(reach, band)
            reach += math.copysign(min(abs(want), run), want)
        return reach

    return (after(mine, theirs) + after(theirs, mine)) / 2


def _towards(distance: float, band: tuple[float, float]) -> float:
    """How far the range must change to lie within the band (0 where it does)."""
    low, high = band
    return low - distance if distance < low else high - distance if distance > high else 0.0


def fight_to_come(state: NavalState, body: Body, enemies: list[Body], later: int, limits: Limits,
                  boarding_too: bool = True) -> float:
    """What the ship may do to the nearest enemy in the moves to come (this move's fire is counted
    apart), in expected points: her strongest mount's hits (rules 9 and 10, by band) at the range each
    move leaves when both ships sail for the band they fight best in (`next_range`), and a boarding
    the crews decide (rule 12) where her next run reaches the enemy, or would after a chase at the
    difference of their speeds, which she gets to make first half the time (the initiative, rule 3).
    Her enemies count the same against her, so closing pays the side whose guns and crews gain more
    from it; FUTURE discounts it all, since the wind may change."""
    ship = body.ship
    if not later or not enemies or not ship.fighting:
        return 0.0
    target = min(enemies, key=lambda e: plane.distance(body.point, e.point))
    distance = plane.distance(body.point, target.point)
    lim = limits.next(ship)
    run = lim.run_max if lim.mode in ("sail", "oars") else 0
    target_lim = limits.next(target.ship)
    target_run = target_lim.run_max if target_lim.mode in ("sail", "oars") else 0
    mine, theirs = (run, preferred_band(body, target)), (target_run, preferred_band(target, body))
    fire_total = 0.0
    reach = distance
    for _ in range(later):
        reach = next_range(reach, mine, theirs)
        for spread in SPREAD:
            fire_total += broadside_strength(body, max(0.0, reach + spread * run)) / len(SPREAD)
    if ship.on_fire:
        fire_total *= 0.5  # she may not fire until it is out (5-6 a move)
    value = fire_total
    if boarding_too and run and not ship.grappled and not target.ship.grappled:
        # one run while she stands, then a chase at the difference of speeds while she runs
        gain = max(0, run - target_run)
        contact = (body.length + target.beam) / 2 + movement.CONTACT
        if can_reach(state, body, target, lim) or distance - run - (later - 1) * gain <= contact:
            value += 0.5 * fight_value(ship, target.ship)
    return FUTURE * value


def ship_worth(ship: Ship, later: int) -> float:
    """What a fighting ship keeps for the moves to come beyond her guns, in expected points: her
    masts, and the markers that keep her from fighting."""
    worth = -MAST * ship.masts_lost * (1 + later) / 2
    if ship.on_fire:
        worth -= 1.5  # she drifts, and it may reach the magazine
    if ship.irons or ship.adrift or ship.heave_to:
        worth -= 0.5 * min(later, 1) + 0.5
    return worth


class Margin:
    """The points margin one side may expect, added up term by term."""

    __slots__ = ("player", "value")

    def __init__(self, player: int):
        self.player, self.value = player, 0.0

    def add(self, side: int, points: float) -> None:
        """`side` may expect `points` (an expectation: a chance times what it is worth)."""
        self.value += points if side == self.player else -points


def in_flight(state: NavalState, margin: Margin) -> None:
    """The dice being thrown now: a broadside, a grapple, a boarding fight and its morale die."""
    volley = state.volley
    if volley is not None and state.ships[volley["target"]].fighting:  # hits on a prize change no score
        side = 1 - state.ships[volley["target"]].side
        for _, half, reach in volley["shots"][len(volley["dice"]):]:
            double = 2 if volley["rake"] and reach == "short" else 1
            margin.add(side, (SIX if half else HIT[reach]) * double)
    head = state.agenda[0] if state.agenda else ()
    if head[:2] == ("roll", "grapple"):
        attacker, defender = state.ships[head[2]], state.ships[head[3]]
        margin.add(attacker.side, 0.5 * carried(attacker.crew, defender.crew) * defender.flotation)
    fight = state.fight
    if fight is not None:
        attacker, defender = state.ships[fight["attacker"]], state.ships[fight["defender"]]
        rounds = (2,) if fight["round"] == 2 else (1, 2)
        margin.add(attacker.side, carried(attacker.crew, defender.crew, rounds) * defender.flotation)
    elif head[:2] in (("roll", "morale"), ("roll", "withdraw"), ("decide", "withdraw")):
        names = head[2:4] if head[0] == "roll" else head[3:5]
        attacker, defender = state.ships[names[0]], state.ships[names[1]]
        margin.add(attacker.side, carried(attacker.crew, defender.crew, ()) * defender.flotation)


def grappled(state: NavalState, margin: Margin, later: int) -> None:
    """Ships grappled at the end of a fight: it goes on next move from round one (rule 12), or,
    broken off, either may board again when she moves."""
    seen: set[str] = set()
    going_on = dict(state.continuing)
    for ship in state.ships.values():
        if not ship.grappled or ship.name in seen or not ship.fighting:
            continue
        other = state.ships[ship.grappled]
        seen.update((ship.name, other.name))
        if not other.fighting or (not later and state.phase in ("end", "clock")):
            continue
        if ship.name in going_on or other.name in going_on:
            attacker = ship if ship.name in going_on else other
            defender = state.ships[going_on[attacker.name]]
            margin.add(attacker.side, carried(attacker.crew, defender.crew) * defender.flotation)
        else:
            for a, d in ((ship, other), (other, ship)):
                margin.add(a.side, 0.25 * carried(a.crew, d.crew) * d.flotation)


def can_leave(state: NavalState, ship: Ship, lim: movement.Limits) -> bool:
    """Whether one run after a turn within her limits could take the ship off the table (rulings,
    "Movement": she disengages)."""
    if lim.mode not in ("sail", "oars") or lim.run_max <= 0:
        return False
    width, height = state.scenario.width, state.scenario.height
    for heading in run_headings(state, ship.heading, lim):
        dx, dy = plane.heading_vector(heading)
        exits = [(width - ship.x) / dx if dx > 0 else -ship.x / dx if dx < 0 else math.inf,
                 (height - ship.y) / dy if dy > 0 else -ship.y / dy if dy < 0 else math.inf]
        if min(exits) < lim.run_max:
            return True
    return False


def run_headings(state: NavalState, heading: int, lim: movement.Limits):
    """Headings a run may take after one turn within her limits (either end, halfway, straight on),
    those the wind allows (rule 2)."""
    for turn in (-lim.turn, -lim.turn // 2, 0, lim.turn // 2, lim.turn):
        run_heading = (heading + turn) % 360
        if lim.wind is None or plane.angle_off(run_heading, state.wind) >= lim.wind:
            yield run_heading


def pinned(state: NavalState, body: Body, lim: movement.Limits) -> bool:
    """Whether the ship, where she lies, must sail off the table with her next run: every heading the
    wind and her turn allow takes her shortest run (the must-move rule) over the edge, so she leaves
    the fight whatever she does (rulings, "Movement": she disengages)."""
    if lim.mode not in ("sail", "oars") or lim.run_min <= 0:
        return False
    width, height = state.scenario.width, state.scenario.height
    return not any(plane.in_table(plane.advance(body.point, heading, lim.run_min), width, height)
                   for heading in run_headings(state, body.heading, lim))


def pinned_cost(state: NavalState, ship: Ship, ahead: int) -> float:
    """What a pinned ship costs her side: out of the fight (PINNED) where her side is not ahead; her
    remaining flotation, whatever the points, where leaving the table counts as struck."""
    if victory.leaving_strikes(state):
        return ship.flotation
    return PINNED if ahead <= 0 else 0.0


def can_escape(state: NavalState, side: int, limits: Limits) -> bool:
    """Whether every fighting ship of `side` can sail off the table with her next run: once they are
    gone the battle is over and stands as the points then stand (rulings, "Victory")."""
    ships = [s for s in state.ships.values() if s.side == side and s.fighting]
    waiting = any(s.side == side and s.status == "waiting" for s in state.ships.values())
    return bool(ships) and not waiting and all(can_leave(state, s, limits.next(s)) for s in ships)


def evaluate(state: NavalState, player: int) -> float:
    """Expected points for `player` less those of the other side, and the wish for action (see the
    module docstring)."""
    margin, action = _margin(state, player)
    return margin + action


def evaluate_all(state: NavalState) -> tuple[float, float]:
    """Both sides' evaluations in one pass: the margin one side may expect is the other's loss, and
    both wish for action alike."""
    margin, action = _margin(state, 0)
    return margin + action, action - margin


def _margin(state: NavalState, player: int) -> tuple[float, float]:
    """(the margin for `player`, the wish for action); `now` gathers what this move still holds
    before anyone can sail away (the score, the dice in the air, this move's fire)."""
    now, ahead = Margin(player), Margin(player)
    scores = victory.scores(state)
    now.add(player, scores[player] - scores[1 - player])
    in_flight(state, now)
    later = future_moves(state)
    grappled(state, ahead, later)
    limits = Limits(state)
    sides: list[list[Body]] = [[], []]
    for ship in state.ships.values():
        if ship.fighting:
            sides[ship.side].append(Body(ship))
    settled = {b.name: placed(state, b.ship, limits) for b in sides[0] + sides[1]}
    for side, bodies in enumerate(sides):
        enemies = sides[1 - side]
        done = fire_done(state, side)
        for body in bodies:
            ahead.add(side, ship_worth(body.ship, later) + fight_to_come(state, body, enemies, later, limits))
            cost = pinned_cost(state, body.ship, scores[side] - scores[1 - side]) if later else 0.0
            if cost and pinned(state, body, limits.next(body.ship)):
                ahead.add(side, -cost)
            if not enemies or (done and not later):
                continue
            if done:  # this move's fire is over: where she lies counts for the next, in part
                ahead.add(side, LATER * fire_potential(state, body, enemies))
            else:
                own = settled[body.name]
                now.add(side, fire_potential(state, body, enemies,
                                             lambda e, own=own: PLACED if own and settled[e.name] else UNPLACED))
    value = escapes(state, player, limits, later, now.value, now.value + ahead.value)
    return value, seek_action(sides)


def seek_action(sides: list[list[Body]]) -> float:
    """Both sides wish for action: SEEK a point for every inch each ship lies beyond gun range of her
    nearest enemy counts against both alike (a battle not fought is a draw, and the book's scenarios
    are fought). It is not part of the margin: neither side gains it from the other."""
    beyond = 0.0
    for side, bodies in enumerate(sides):
        for body in bodies:
            nearest = min((plane.distance(body.point, e.point) for e in sides[1 - side]), default=0.0)
            beyond += max(0.0, nearest - fire.MAX_RANGE)
    return -SEEK * beyond / 100


def escapes(state: NavalState, player: int, limits: Limits, later: int, standing: float, value: float) -> float:
    """A side level or ahead that can take all its ships off the table (`can_escape`) need not stay
    for a fight that goes against it: it leaves with the points as they stand, a draw, or a lead
    that wins the battle (worth HOLD more than its points). So `player`'s value is at least that
    where her side can leave, and at most that where the enemy can. A side behind gains nothing by
    leaving: the battle is lost by one point as by ten, so it stays and fights for the points it
    lacks."""
    if not later or victory.leaving_strikes(state):
        return value
    if standing >= 0 and can_escape(state, player, limits):
        value = max(value, standing + (HOLD if standing > 0 else 0.0))
    if standing <= 0 and can_escape(state, 1 - player, limits):
        value = min(value, standing - (HOLD if standing < 0 else 0.0))
    return value




# --- search knowledge: which moves, and playouts ---------------------------------------------------------
def end_pose(ship: Ship, move: Move) -> tuple[int, int, int]:
    run_heading = (ship.heading + move.turn1) % 360
    x, y = plane.advance(ship.point, run_heading, move.run)
    return x, y, (run_heading + move.turn2) % 360


def reply_threat(state: NavalState, enemy: Body, lim: movement.Limits, ghost: Body) -> float:
    """What an enemy still to move may do to `ghost` in reply: close or open the range within her run
    to the band where her broadside does best against the ship's, or carry her by boarding."""
    if lim.mode not in ("sail", "oars", "turn"):
        return 0.0
    distance = plane.distance(enemy.point, ghost.point)
    near, far = max(0.0, distance - lim.run_max), distance + lim.run_max
    best = 0.0
    rake = 1.5 if state.scenario.option("nelson") else 1.0  # at close range she may cross our bow or stern
    for reach in {near, far, *(r for r in BAND_EDGES if near <= r <= far)}:
        if reach <= fire.MAX_RANGE:
            hers = broadside_strength(enemy, reach) * (rake if reach <= fire.RAKE_RANGE else 1.0)
            best = max(best, hers - 0.5 * broadside_strength(ghost, reach))
    threat = 0.8 * best
    if can_reach(state, enemy, ghost, lim):
        threat = max(threat, 0.5 * fight_value(enemy.ship, ghost.ship))
    return threat


class MoveScorer:
    """Scores the moves of one ship (see `score`); what does not depend on the move is worked out once."""

    def __init__(self, state: NavalState, ship: Ship, quick: bool = False):
        """`quick` (for playouts) leaves out the fight to come: they look no further than this move."""
        self.state, self.ship, self.quick = state, ship, quick
        self.limits = Limits(state)
        self.enemies = [Body(s) for s in state.ships.values() if s.side != ship.side and s.fighting]
        self.settled = {e.name: placed(state, e.ship, self.limits) for e in self.enemies}
        self.later = future_moves(state)
        self.own_limits = self.limits.now(ship)
        scores = victory.scores(state)
        self.ahead = scores[ship.side] - scores[1 - ship.side]
        self.friends = [Body(s) for s in state.ships.values() if s.side == ship.side and s.fighting and s is not ship]
        self.against: list[tuple[Body, float, float]] = []  # each enemy, her nearest other target, her fight on it
        for enemy in [] if quick else self.enemies:
            near = min((plane.distance(enemy.point, f.point) for f in self.friends), default=math.inf)
            value = fight_to_come(state, enemy, self.friends, self.later, self.limits, boarding_too=False)
            self.against.append((enemy, near, value))
        self.stays = 0.0 if quick else self.to_come(Body(ship))
        self.last = not any(s.side == ship.side and s is not ship and (victory.effective(s) or s.status == "waiting")
                            for s in state.ships.values())  # her going ends the battle (victory.side_beaten)

    def to_come(self, ghost: Body) -> float:
        """The guns' part of the fight to come (`fight_to_come`) with the ship at `ghost`: hers, less
        the enemies' (on her or on whichever of her side is nearer to them)."""
        value = fight_to_come(self.state, ghost, self.enemies, self.later, self.limits, boarding_too=False)
        for enemy, near, against_friends in self.against:
            if plane.distance(enemy.point, ghost.point) < near:
                value -= fight_to_come(self.state, enemy, [ghost], self.later, self.limits, boarding_too=False)
            else:
                value -= against_friends
        return value

    def weight(self, enemy: Body) -> float:
        return PLACED if self.settled[enemy.name] else UNPLACED

    def score(self, move: Move) -> float:
        """A quick worth of one move, from where it leaves her: the fire she will bring to bear, less
        the fire settled enemies bring on her there and what enemies still to move may do in reply,
        plus a boarding she attempts and the threats she poses with her next run."""
        state, ship = self.state, self.ship
        x, y, heading = end_pose(ship, move)
        if not plane.in_table((x, y), state.scenario.width, state.scenario.height):
            # sailing off the table keeps what she has from the enemy and ends her part in the battle
            if victory.leaving_strikes(state):  # or gives the enemy all she has left
                return -self.stays - ship.flotation
            if self.last:
                return ENDS * (self.ahead > 0) - ENDS * (self.ahead < 0) - self.stays
            return -self.stays + (0.5 if self.ahead > 0 else -1.0)
        ghost = Body(ship, x, y, heading)
        score = fire_potential(state, ghost, self.enemies, self.weight)
        cost = pinned_cost(state, ship, self.ahead)
        if self.later and cost and pinned(state, ghost, self.limits.next(ship)):
            score -= cost
        if self.enemies:  # her part in the wish for action (seek_action)
            nearest = min(plane.distance(ghost.point, e.point) for e in self.enemies)
            score -= SEEK * max(0.0, nearest - fire.MAX_RANGE) / 100
        for enemy in self.enemies:
            if self.settled[enemy.name]:
                score -= fire_potential(state, enemy, [ghost])
            else:
                score -= reply_threat(state, enemy, self.limits.now(enemy.ship), ghost)
        if move.extra == "board":
            score += 0.5 * fight_value(ship, state.ships[move.target])
        elif move.extra == "heave-to":
            score -= 1.0
        elif move.extra == "secure":
            score += 1.0
        if self.later:
            score += self.boarding_prospect(ghost) + (0.0 if self.quick else self.to_come(ghost))
        lim = self.own_limits
        if lim.wind is not None and lim.mode == "sail" and plane.angle_off(heading, state.wind) < lim.wind:
            score -= 1.5  # in irons (rule 7)
        return score

    def boarding_prospect(self, ghost: Body) -> float:
        """Next move's boardings from where she ends, both ways: whoever then moves first (half the
        time) may board the other if she can reach her (rule 12: the crews decide how it goes); and,
        worth less, the boardings one run beyond that."""
        state, ship = self.state, self.ship
        mine, theirs = 0.0, 0.0
        for enemy in self.enemies:
            if enemy.ship.grappled:
                continue
            # an enemy still to move will not wait where she is: only her threat from there counts
            settled = self.settled[enemy.name]
            if settled and can_reach(state, ghost, enemy, self.own_limits):
                mine = max(mine, 0.25 * fight_value(ship, enemy.ship))
            elif settled and plane.distance(ghost.point, enemy.point) <= \
                    2 * self.own_limits.run_max + ghost.length + enemy.length:
                mine = max(mine, 0.1 * fight_value(ship, enemy.ship))
            if can_reach(state, enemy, ghost, self.limits.next(enemy.ship)):
                theirs += (0.25 if settled else 0.05) * fight_value(enemy.ship, ship)
        return mine - theirs


def ranked_moves(state: NavalState, moves: list[Move], distinct: bool = False, quick: bool = False) -> list[Move]:
    """The moves of the first ship among `moves`, best first by `MoveScorer.score`; with `distinct`,
    only the first of the moves that end at the same place (to the half inch) with the same score,
    such as the end turns of a ship far from any enemy, which would crowd out other runs."""
    ship = state.ships[moves[0].ship]
    scorer = MoveScorer(state, ship, quick)
    scored = sorted(((scorer.score(m), -i, m) for i, m in enumerate(moves) if m.ship == ship.name), reverse=True)
    if not distinct:
        return [m for _, _, m in scored]
    seen: set[tuple] = set()
    ranked = []
    for value, _, move in scored:
        x, y, _ = end_pose(ship, move)
        key = (round(value, 6), round(x / 50), round(y / 50), move.extra)
        if key not in seen:
            seen.add(key)
            ranked.append(move)
    return ranked


def candidates(state: NavalState, player: int, actions: list[Action]) -> list[Action]:
    """The actions worth searching, best first: in movement one ship's best moves (ships are moved
    one at a time, so the search never orders the same moves two ways), and always among them the
    one the evaluation likes best one decision ahead of the ranking's first LOOKED_AT and every
    grapple (the quick ranking can miss it: a grapple, the exact bearing on a ship that has moved);
    fire by expected hits with holding fire last; any other decision by the evaluation one decision
    ahead."""
    moves = [a for a in actions if isinstance(a, Move)]
    if moves:
        ranked = ranked_moves(state, moves, distinct=True)
        staying = [m for m in ranked if not _flight(state, m)] or ranked
        kept = staying[:KEEP]
        # the evaluation is read for the quick ranking's best few and every grapple, not all moves:
        # it costs a move's play and a full evaluation each
        pool = dict.fromkeys([*staying[:LOOKED_AT], *(m for m in staying if m.extra == "board")])
        liked = _by_evaluation(state, player, list(pool))[:1]
        return kept if not liked or liked[0] in kept else [*kept[:KEEP - 1], *liked]
    if any(isinstance(a, Fire) for a in actions):
        shots = [a for a in actions if isinstance(a, Fire)]
        shots.sort(key=lambda a: -_shot_value(state, a))
        return [*shots, *(a for a in actions if not isinstance(a, Fire))]
    if any(isinstance(a, Gunners) for a in actions):
        return _gunners(state, actions)
    fit = [a for a in actions if not (isinstance(a, Choose) and a.verb == "surrender" and _fit(state.ships[a.ship]))]
    return _by_evaluation(state, player, fit or actions)


def _gunners(state: NavalState, actions: list[Action]) -> list[Action]:
    """Men kept at the guns in a boarding fight (optional rule 5): every man to the fight first (it
    decides the ship), then a man at each battery that bears on the ship she is grappled to."""
    ship = state.ships[actions[0].ship]
    partner = state.ships.get(ship.grappled)
    bearing = 0 if partner is None else sum(len(ship.mount_batteries(m)) for m in MOUNTS
                                            if fire.bears(ship, m, partner))
    bearing = min(bearing, max(a.men for a in actions if isinstance(a, Gunners)))
    return [a for men in dict.fromkeys((0, bearing)) for a in actions if a.men == men]


def _fit(ship: Ship) -> bool:
    """Fighting fit: more than a quarter of her crew and less than three quarters damaged. Such a
    ship never offers surrender: it gives the enemy all her remaining flotation."""
    return ship.crew * 4 > ship.spec.crew and ship.damage_level() < 3


def _flight(state: NavalState, move: Move) -> bool:
    """A run off the table by a ship whose side is not ahead and who is less than half damaged: she
    would give up the fight, and her side the chance to win it (a ship that has a lead to keep, or
    half her flotation to save, may go). Any run off the table where leaving counts as struck."""
    ship = state.ships[move.ship]
    x, y, _ = end_pose(ship, move)
    if plane.in_table((x, y), state.scenario.width, state.scenario.height):
        return False
    if victory.leaving_strikes(state):
        return True
    scores = victory.scores(state)
    return scores[ship.side] <= scores[1 - ship.side] and ship.damage_level() < 2


def _shot_value(state: NavalState, action: Fire) -> float:
    return mount_hits(state, Body(state.ships[action.ship]), action.mount, Body(state.ships[action.target]))


def _by_evaluation(state: NavalState, player: int, actions: list[Action]) -> list[Action]:
    scored = []
    for i, action in enumerate(actions):
        after = state.clone()
        after.apply(action, player, validate=False)
        value = after.returns()[player] * 1e6 if after.is_terminal() else evaluate(after, player)
        scored.append((value, -i, action))
    scored.sort(reverse=True, key=lambda entry: entry[:2])
    return [a for _, _, a in scored]


def rollout_policy(state: NavalState, player: int, rng: random.Random) -> Action | None:
    """Playouts finish the movement phase, each ship taking the best (or now and then the second
    best) move by `MoveScorer.score`, and stop where anything else is decided: the evaluation then
    reads the fire from the places both sides took."""
    head = state.agenda[0] if state.agenda else ()
    if head[:2] != ("decide", "move"):
        return None
    for ship in state.ships_to_move(player):  # a prize sails for her captor, as the rules list her moves
        moves = state._candidates(ship)
        if len(moves) > ROLLOUT_SAMPLE:  # a sample, with every boarding among them
            moves = [m for m in moves if m.extra == "board"] + rng.sample(moves, ROLLOUT_SAMPLE)
        if moves:
            ranked = ranked_moves(state, moves, quick=True)
            return ranked[1] if len(ranked) > 1 and rng.random() < 0.2 else ranked[0]
    return None


# An iteration costs some 1.4 ms (up to 3 ms in a close fight), so ai:3 to ai:5 search the counts their
# move times hold (benchmarks/bench_levels.py). The dice settle so much of a single-ship action that
# four times the iterations buy some 40 Elo, and even a captain who plays every decision's candidate at
# random loses to ai:2 by only some 200: the two lowest levels slip, the beginner on three decisions
# in five and ai:2 on one in five, so that each is a step below the next (docs/ai.md, "Level ladder").
# Above ai:3 the iterations buy nothing measurable, and the lobby says so (`level_plays_as`).
SEARCH_SETTINGS: dict[str, Any] = {
    "rollout_depth": 12,
    "evaluation_scale": 0.0,
    "score_candidates": True,
    "level_iterations": {3: 350, 4: 600, 5: 1500},
    "level_settings": {1: {"slip": 0.6}, 2: {"slip": 0.2}},
    "level_plays_as": {4: 3, 5: 3},
}
