"""What the computer captains know of Frigate: a position's value in expected victory points, which
decisions to search first, and a quick policy for playouts.

`evaluate(state, player)` estimates the final difference of victory points (victory.py):

* the points as they stand, the hits already rolled (they land at the segment's end), the
  expected hits of an attack whose dice are rolling, and a strike announced at Declaration (the
  enemy takes her as a prize);
* each ship's gunnery: the expected hits of the broadsides she may still fire this game-turn at
  the best target each bears on now (range, raking, crew hits, the second side at half: seed 001,
  Combat 1-4, through the CRT), and of a full broadside at this geometry for the turns to come;
* the approach: a ship whose broadside outweighs her nearest enemy's wants to close, the weaker
  one to keep her distance; a ship that can take a merchantman or a crippled enemy (seed, Prizes
  1) wants to be alongside; a ship far from the range she seeks counts the hexes her way on and
  her heading let her close in the next game-turn (none lying head to wind with no way on);
* what each ship has left (hull, crew, guns, masts) beyond the point each hit already scored, and
  the prize a crippled ship near an enemy is about to become;
* progress towards a scenario's exit objectives, and the map's edge, where a ship may be carried
  out of the fight.

`candidates(state, player, actions)` orders and prunes a decision for the search (docs/ai.md):
fire by expected hits (a broadside that would read a better column from closer in is held while
the game-turn has a fire round left; aimed at the hull, or at the rigging of a ship that scores
for leaving the map: `aim_at`), holding before passing, a melee before both when the crews
favour her, last when they are even and her side is behind, and not at all otherwise; afoul at
the Declaration of an enemy she is not favoured to out-fight, a side level or ahead cuts loose
rather than staying (a melee a segment, a coin's toss for a prize); the computer strikes
only when crippled and out-gunned 3-1 or more (shared/design/rules-decisions.md, Frigate, "Numbers
and rulings"), and never otherwise; movement
and plots by where the ship's best way through the segment's points leaves her; declarations
fastest first; the order of movement reduced to the four that matter.

`rollout_policy(state, player, rng)` plays the same knowledge quickly in playouts, which end at the
next Movement Declaration (`SEARCH_SETTINGS`: the search plays out the rest of each game-turn, a
declaration under way included); beyond the range she seeks, a ship heads for the enemy.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from quarterdeck.core.hexes import BOW, PORT, STARBOARD, STERN, Hex, bearing, distance, field_of_fire, neighbour
from quarterdeck.core.protocol import CHANCE

from . import combat, movement, prizes, victory
from .actions import Declare, EndDeclare, Fire, Hold, Melee, Move, Order, Pass, Plot, Stand, Strike, Turn
from .ships import ACTIVE

if TYPE_CHECKING:
    from .scenario import Tables
    from .ships import Ship
    from .state import FrigateState

NOW = 0.6  # weight of the expected hits of broadsides still to fire this turn, at the present geometry
LATER = 0.3  # weight of a full broadside's expected hits at the present geometry, for later turns
APPROACH = 1.0  # weight of the close-range exchange (expected hits a turn) by nearness
CAPTURE = 0.5  # share of a prize's value for being near a ship one can take
HEALTH = 0.4  # value of a box of hull, crew, guns or masts beyond the point its hit scored
EDGE = 1.0
NEAR = 12  # hexes: beyond this, ships are not yet near each other
SEEK = 2.0  # a side's own wish to seek action (not subtracted for the enemy: both sides seek it)
BOARDING_LATER = 2  # melee rounds to expect in later turns while two ships stay afoul
AFOUL = 0.5  # share counted of the melees' expected points for a pair afoul (either may cut loose)
STANDOFF = 5  # hexes: within this a ship weaker alongside is in action enough (broadsides reach 10)
CLOSE = 2  # hexes: a ship that gives as good as she gets seeks the range of a full-strength broadside
WAY = 1.0  # share counted of the hexes she may close in the next game-turn (her way on and heading)
TOWARDS = 1.2  # the point-by-point policy's pull towards an enemy beyond that range (a broadside bearing: 1.0)
EVEN = 1e-9  # expected points of a melee round below which the crews do not favour her
WIN = 6.0  # weight of the chance of winning (P(win) - P(loss)), in victory points
CONTEMPT = 3.0  # what a likely draw costs each side, in victory points (the captains play to win)
SPREAD = 0.25  # variance of the final margin beyond the hits to come (rounding, repairs)
TURN_SPREAD = 0.15  # variance per ship in the fight and game-turn to come, beyond the present exchange

# The search's playouts finish the game-turn (the rollout policy stops at the next Movement
# Declaration), so a declared speed, the order of movement and a drift at MA 0 are judged by where
# they leave the ships at the turn's end, not in the middle of it; the cap only bounds a huge battle.
# ai:4 measured level with ai:3 (45-11-44 in 100 games, docs/ai.md), and the lobby says so.
SEARCH_SETTINGS: dict[str, Any] = {"rollout_depth": 400, "level_plays_as": {4: 3}}


def evaluate(state: FrigateState, player: int) -> float:
    return evaluate_all(state)[player]


def evaluate_all(state: FrigateState) -> tuple[float, float]:
    """Both sides' evaluations in one pass (the search scores every leaf for both): all but the
    wish to seek action is one side's gain and the other's loss."""
    if state.outcome is not None:
        return state.outcome.returns[0] * 1000.0, state.outcome.returns[1] * 1000.0
    score = victory.points(state)
    value = float(score[0] - score[1])  # for blue
    for target, _, _ in state.pending:
        value += 1.0 if state.ships[target].side != 0 else -1.0
    value += attack_in_flight(state, 0)
    tables = state.tables
    expected = expected_hits(tables)
    fighting = [s for s in state.ship_list if s.status == ACTIVE and s.owner == s.side]
    nearest = _nearest_enemies(state, fighting, expected)
    exchange_now = exchange_later = 0.0
    for ship in fighting:
        sign = 1.0 if ship.owner == 0 else -1.0
        enemies = [s for s in fighting if s.owner != ship.owner]
        if ship.striking:
            value -= sign * _prize_value(state, ship)
            continue
        now, later = gunnery(state, ship, enemies, expected)
        exchange_now += now
        exchange_later += later
        value += sign * (NOW * now + LATER * later + _approach(nearest.get(ship.name)))
        value += sign * (_capture_prospects(state, ship, enemies) - _risk(state, ship, enemies))
        boarded = _enemy_afoul(state, ship)
        if boarded is not None:
            value += sign * AFOUL * _boarding(state, ship, boarded)
    value += _objectives(state, 0) - _objectives(state, 1)
    value += EDGE * (_near_edge(state, 1) - _near_edge(state, 0))
    turns_to_come = max(0, state.scenario.turns - state.turn)
    spread = SPREAD + exchange_now + turns_to_come * (TURN_SPREAD * len(fighting) + exchange_later)
    lead, drawn = chances(value, spread)
    value += WIN * lead
    # Both captains play to win: a likely draw counts against each side (not one side's gain).
    return (value + _seeking(state, 0, score, nearest) - CONTEMPT * drawn,
            -value + _seeking(state, 1, score, nearest) - CONTEMPT * drawn)


def chances(margin: float, variance: float) -> tuple[float, float]:
    """(P(win) - P(loss), P(draw)) for blue when the final margin of victory points is about normal
    around `margin` with `variance` (whole points: a margin under a half either way is a draw).
    What counts in the end is who wins, not by how much: a side ahead late plays safe, a side behind
    takes the fight to the enemy, since the spread grows with the hits the ships can exchange."""
    sigma = math.sqrt(2.0 * variance)
    above = math.erf((margin - 0.5) / sigma)  # 2 P(blue wins) - 1
    below = math.erf((-margin - 0.5) / sigma)  # 2 P(red wins) - 1
    return 0.5 * (above - below), -0.5 * (above + below)


def _seeking(state: FrigateState, player: int, score: tuple[int, int],
             nearest: dict[str, tuple[Ship, int, float]]) -> float:
    """A captain's own wish to be within striking distance of the enemy (the points are won by
    fighting), counted for her side only, so that both sides seek action: a ship that gives as good
    as she gets alongside seeks the range where broadsides fire at full strength (trading
    long-range broadsides rarely decides a fight, even for a side ahead on points), a weaker one only
    to be in action; a side ahead wishes it less, a side with an exit objective not at all."""
    if any(o.side == player and o.points > 0 for o in state.scenario.objectives):
        return 0.0
    ahead = score[player] > score[1 - player]
    total = 0.0
    for name, (enemy, gap, alongside) in nearest.items():
        ship = state.ships[name]
        if ship.owner == player:
            standoff = _sought_range(alongside)
            if gap > standoff:
                gap -= WAY * _closing(state, ship, enemy, gap - standoff)
            total -= max(0, gap - standoff) / NEAR
    return SEEK * total * (0.3 if ahead else 1.0)


def _closing(state: FrigateState, ship: Ship, enemy: Ship, wanted: int) -> float:
    """The hexes she may close on `enemy` next game-turn, up to `wanted`: the most she may declare
    (momentum and the wind on her facing: none lying head to wind with no way on), times how
    nearly she heads for him. A ship's way and her heading are judged where the turn leaves them."""
    if ship.afoul:
        return 0.0
    heading = math.cos(math.radians(bearing(ship.hex, ship.facing, enemy.hex)))
    if heading <= 0:
        return 0.0
    return min(movement.declaration_limits(state, ship)[1], wanted) * heading


def _sought_range(alongside: float) -> int:
    """The range a ship seeks: full strength for one that gives as good as she gets alongside,
    within five hexes for a weaker one."""
    return STANDOFF if alongside < 0 else CLOSE


def _standoff(state: FrigateState, ship: Ship, enemy: Ship) -> int:
    """`_sought_range` from `enemy`, for the point-by-point policy."""
    return _sought_range(_alongside(state, ship, enemy, expected_hits(state.tables)))


def _nearest_enemies(state: FrigateState, fighting: list[Ship],
                     expected: dict[str, float]) -> dict[str, tuple[Ship, int, float]]:
    """For each fighting ship not afoul: her nearest enemy, the hexes to him and what she would gain
    alongside him (`_alongside`), which both the approach and the wish for action use."""
    nearest = {}
    for ship in fighting:
        if ship.afoul:
            continue
        enemies = [s for s in fighting if s.owner != ship.owner]
        if enemies:
            enemy = min(enemies, key=lambda e: distance(ship.hex, e.hex))
            nearest[ship.name] = (enemy, distance(ship.hex, enemy.hex), _alongside(state, ship, enemy, expected))
    return nearest


# --- expected hits ------------------------------------------------------------------------------------
_EXPECTED: dict[int, tuple[Tables, dict[str, float]]] = {}


def expected_hits(tables: Tables) -> dict[str, float]:
    """Expected hits of one attack on each CRT column ("" for no effect)."""
    cached = _EXPECTED.get(id(tables))
    if cached is None or cached[0] is not tables:
        values = {"": 0.0}
        for name, column in tables.crt.items():
            mean = sum(column.hits) / 6.0
            values[name] = mean * len(column.confirm) / 6.0 if column.confirm is not None else mean
        cached = _EXPECTED[id(tables)] = (tables, values)
    return cached[1]


def broadside_hits(state: FrigateState, ship: Ship, target: Ship, rng: int, rake: str, half: bool,
                   expected: dict[str, float]) -> float:
    """Expected hits of her broadside on `target` at `rng` hexes (combat.gunnery_strength's order)."""
    column = combat.attack_column(state.tables, ship.gunnery(), half, rng, rake, ship.crew, target.spec.ds,
                                  state.force_state[ship.owner].crt)
    return expected[column]


def gunnery(state: FrigateState, ship: Ship, enemies: list[Ship], expected: dict[str, float]) -> tuple[float, float]:
    """(now, later): the expected hits of the broadsides she may still fire this game-turn, each at
    the best target in its field; and of her best full broadside at this geometry. Lines of fire
    are not traced (for speed): a blocked line is rare between few ships."""
    if ship.crew >= state.tables.crew_limit or not ship.afloat:
        return 0.0, 0.0
    open_ = {b: combat.silence(state, ship, b) is None for b in combat.BROADSIDES}
    now = {PORT: 0.0, STARBOARD: 0.0}
    later = 0.0
    reach = state.tables.broadside_range
    for enemy in enemies:
        if ship.afoul:
            if enemy.name != ship.afoul:
                continue
            field, rng, rake = ship.afoul_side, 0, ""
        else:
            rng = distance(ship.hex, enemy.hex)
            if rng > reach or rng == 0:
                continue
            field = field_of_fire(ship.hex, ship.facing, enemy.hex)
            if field not in now:
                continue
            rake = combat.rake_of(ship, enemy)
        full = broadside_hits(state, ship, enemy, rng, rake, False, expected)
        later = max(later, full)
        if open_[field]:
            other = STARBOARD if field == PORT else PORT
            half = other in ship.fired and combat.second_side_half(state, ship)
            now[field] = max(now[field], broadside_hits(state, ship, enemy, rng, rake, True, expected) if half
                             else full)
    return now[PORT] + now[STARBOARD], later


def _approach(nearest: tuple[Ship, int, float] | None) -> float:
    """The close-range exchange with her nearest enemy, by how near they are: the stronger ship
    closes, the weaker keeps away."""
    if nearest is None:
        return 0.0
    _, gap, alongside = nearest
    return APPROACH * alongside * (NEAR - min(gap, NEAR)) / NEAR


def _alongside(state: FrigateState, ship: Ship, enemy: Ship, expected: dict[str, float]) -> float:
    """Her full broadside's expected hits on `enemy` a hex off, less his on her."""
    mine = broadside_hits(state, ship, enemy, 1, "", False, expected)
    if enemy.crew >= state.tables.crew_limit:
        return mine
    return mine - broadside_hits(state, enemy, ship, 1, "", False, expected)


def _boarding(state: FrigateState, ship: Ship, enemy: Ship, rounds: int | None = None) -> float:
    """Afoul of an enemy (reconstructed melee, "Numbers and rulings"): either owner may melee at
    each segment's end, and the side the crews favour will, so a melee is fought every segment they
    stay afoul: the points of the crew hits and the prize taken when a third one falls."""
    tables = state.tables
    pair = prizes.pair(ship.name, enemy.name)
    if rounds is None:
        # This segment's melee is still to come unless it has been fought: one whose dice are rolling
        # counts (else meleeing at bad odds would look better than holding, one round fewer to lose).
        rolling = any(roll[0] == "melee" and roll[1] in pair for roll in state.rolls)
        fought = pair in state.melees and not rolling
        rounds = 4 - state.segment + (0 if fought or state.segment == 0 else 1) + BOARDING_LATER
    pending = {name: sum(1 for target, kind, _ in state.pending if target == name and kind == "crew")
               for name in (ship.name, enemy.name)}

    def crew(s: Ship) -> int:
        return min(tables.crew_limit, s.crew + pending[s.name])

    def side(s: Ship) -> tuple[int, int, int]:
        return (combat.round_even(s.spec.rating, tables.melee_divisor),
                tables.efficiency[state.force_state[s.owner].efficiency].melee, round(_prize_value(state, s)))

    return _melee(side(ship), side(enemy), crew(ship), crew(enemy), tables.crew_limit, rounds)


@lru_cache(maxsize=4096)
def _melee(her: tuple[int, int, int], his: tuple[int, int, int], hers: int, his_hits: int, limit: int,
           rounds: int) -> float:
    """Her expected points from `rounds` melees: 1d6 + crew points (base x (limit - crew hits) /
    limit to the nearest, + efficiency) each, the lower takes a crew hit, both on a tie; a ship
    reaching the limit is taken (her prize value to the captor)."""
    if hers >= limit or his_hits >= limit:
        return (his[2] if his_hits >= limit else 0) - (her[2] if hers >= limit else 0)
    if rounds <= 0:
        return 0.0
    mine = combat.round_even(her[0] * (limit - hers), limit) + her[1]
    theirs = combat.round_even(his[0] * (limit - his_hits), limit) + his[1]
    value = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            hit_her, hit_him = a + mine <= b + theirs, b + theirs <= a + mine
            value += (hit_him - hit_her) + _melee(her, his, hers + hit_her, his_hits + hit_him, limit, rounds - 1)
    return value / 36.0


def _prize_value(state: FrigateState, ship: Ship) -> float:
    """What the enemy scores when she is taken: her remaining hull boxes and round(rating / 5)."""
    return max(0, ship.spec.hull - ship.hull) + round(ship.spec.rating / state.tables.captured_divisor)


def _capture_prospects(state: FrigateState, ship: Ship, enemies: list[Ship]) -> float:
    """Seed, Prizes 1: a merchantman or a crippled warship strikes to a ship entering her hex with a
    broadside at least her Defence Strength; the nearer such a prize, the likelier."""
    best = 0.0
    for enemy in enemies:
        if enemy.capturable(state.tables) and not ship.prize:
            gs = combat.gunnery_strength(state.tables, ship.gunnery(), False, 0, "", ship.crew)
            if gs >= enemy.spec.ds:
                nearness = (NEAR - min(distance(ship.hex, enemy.hex), NEAR)) / NEAR
                best = max(best, CAPTURE * _prize_value(state, enemy) * nearness)
    return best


def _risk(state: FrigateState, ship: Ship, enemies: list[Ship]) -> float:
    """What her damage costs beyond the points already scored: fighting power, speed, and how near
    she is to sinking (the enemy's bonus of round(rating / 10))."""
    tables = state.tables
    boxes = ship.spec.hull
    lost = (ship.hull / boxes + ship.crew / tables.crew_limit * 1.5 + ship.guns / max(ship.spec.gs, 1) * 0.5
            + ship.masts / tables.mast_limit)
    sinking = (ship.hull / boxes) ** 2 * round(ship.spec.rating / tables.sunk_divisor)
    return HEALTH * lost * boxes / 2.0 + 0.5 * sinking


def attack_in_flight(state: FrigateState, player: int) -> float:
    """Expected hits of an attack whose dice are still rolling (so firing is worth its odds)."""
    attack = state.attack
    if not attack or state.current_player() != CHANCE or not state.rolls:
        return 0.0
    purpose = state.rolls[0][0]
    if purpose == "crt" and attack.get("column"):
        expected = expected_hits(state.tables)[attack["column"]]
    elif purpose == "confirm":
        confirm = state.tables.crt[attack["column"]].confirm
        expected = attack["hits"] * (len(confirm) / 6.0 if confirm else 1.0)
    elif purpose == "hit-kind":
        expected = float(sum(1 for roll in state.rolls if roll[0] == "hit-kind"))
    elif purpose == "chase":
        expected = 1 / 36
    elif purpose == "chase-second":
        expected = 1 / 6
    else:
        return 0.0
    return expected if state.ships[attack["target"]].side != player else -expected


def _near_edge(state: FrigateState, side: int) -> float:
    """How close a side's ships sail to the map's edge, where spending every point may carry a ship
    off the map (out of the fight); ships meant to leave by an edge are not counted."""
    leaving = {o.side for o in state.scenario.objectives if o.points > 0}
    if side in leaving:
        return 0.0
    total = 0.0
    for ship in state.ship_list:
        if ship.afloat and ship.owner == side and not ship.prize:
            column, row = state.grid.to_offset(ship.hex)
            nearest_edge = min(row, state.grid.rows - 1 - row, column, state.grid.columns - 1 - column)
            total += max(0, 3 - nearest_edge)
    return total


def _objectives(state: FrigateState, side: int) -> float:
    """Progress towards the scenario's exit objectives: half their points, by nearness to the edge."""
    total = 0.0
    span = max(state.grid.columns, state.grid.rows)
    for objective in state.scenario.objectives:
        if objective.side != side or objective.points <= 0 or objective.edge == "any":
            continue
        for ship in state.ship_list:
            if ship.afloat and ship.owner == side and objective.names(ship):
                near = 1.0 - movement.edge_distance(state, ship.hex, objective.edge) / span
                total += 0.5 * objective.points * near / len(state.scenario.objectives)
    return total


# --- ordering the search --------------------------------------------------------------------------
def candidates(state: FrigateState, player: int, actions: list[Any]) -> list[Any]:
    if len(actions) <= 1:
        return list(actions)
    strikes = [a for a in actions if isinstance(a, Strike)]
    if strikes:
        due = [a for a in strikes if should_strike(state, state.ships[a.ship])]
        if due:
            return due
        actions = [a for a in actions if not isinstance(a, Strike)]
    if isinstance(actions[0], Order):
        actions = _orders(actions, player)
    # A melee the crews disfavour is never better than holding: the enemy may declare the segment's
    # one round anyway, and one who does not spares her. It stays a legal choice, never a candidate.
    # Nor, for a side level or ahead, is one at even odds, or staying afoul of such an enemy at the
    # Declaration rather than cutting loose (free at once when he asks too): the melees toss a coin
    # for a prize, which a side winning the gunnery need not do.
    if any(isinstance(a, Melee | Declare) for a in actions):  # not at every movement point of a playout
        level = _level_or_ahead(state, player)
        actions = [a for a in actions if not _gamble(state, a, level)] or actions
    actions = [a for a in actions if not (isinstance(a, Fire) and a.aim and a.aim != aim_at(state, a.target))]
    scored = [(_score(state, player, action), index, action) for index, action in enumerate(actions)]
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    return [action for _, _, action in scored]


def aim_at(state: FrigateState, target: str) -> str:
    """The aim the captains fire a broadside with: at the hull, whose hits sink a ship or bring her to
    strike and whose crew and gun hits weaken her fire (measured: greedy captains aiming high lose to
    the same captains aiming low, docs/ai.md), except at a ship that scores for leaving the map (a
    convoy's merchantman, not her escort), whose masts are what keeps her within reach."""
    ship = state.ships[target]
    leaving = any(o.points > 0 and o.names(ship) for o in state.scenario.objectives)
    return "rigging" if leaving else "hull"


def should_strike(state: FrigateState, ship: Ship) -> bool:
    """The computer strikes when crippled and out-gunned 3-1 or more by the enemies within a
    broadside's reach (rules-decisions.md, Frigate, "Numbers and rulings")."""
    if not ship.crippled(state.tables):
        return False
    near = [s for s in state.ship_list if s.afloat and s.owner != ship.owner and not s.prize
            and distance(s.hex, ship.hex) <= state.tables.broadside_range]
    return sum(s.gunnery() for s in near) >= 3 * max(ship.gunnery(), 1)


def _orders(actions: list[Any], player: int) -> list[Any]:
    """Who moves first in each segment: the enemy in all four (she answers every move), herself in
    all four, or alternating; the other twelve orders are mixtures of these."""
    enemy = 1 - player
    wanted = {(enemy,) * 4, (player,) * 4, (enemy, player, enemy, player), (player, enemy, player, enemy)}
    return [a for a in actions if a.first in wanted] or actions


def _score(state: FrigateState, player: int, action: Any) -> float:
    if isinstance(action, Move | Turn | Stand | Plot):  # first: the commonest in playouts
        return _after_point(state, player, action)
    if isinstance(action, Fire):
        ship, target = state.ships[action.ship], state.ships[action.target]
        if action.battery in (BOW, STERN):
            return 0.3
        attack = combat.describe_attack(state, ship, action.battery, target)
        hits = expected_hits(state.tables)[attack.column]
        if _premature(state, attack, hits):
            return 0.5  # below holding: one broadside a side a turn, kept for the closer range
        return 2.0 + 4.0 * hits
    if isinstance(action, Hold):
        return 1.0
    if isinstance(action, Pass):
        return 0.8
    if isinstance(action, Melee):
        odds = _melee_odds(state, action)  # the side the crews favour melees
        return 1.5 + odds if odds > 0 else 0.5
    if isinstance(action, Declare):
        return action.ma / 20.0
    if isinstance(action, EndDeclare):
        return -1.0
    return 0.0


def _level_or_ahead(state: FrigateState, player: int) -> bool:
    """Whether her side has at least as many victory points as the enemy's as they stand."""
    score = victory.points(state)
    return score[player] >= score[1 - player]


def _gamble(state: FrigateState, action: Any, level_or_ahead: bool) -> bool:
    """A melee the crews disfavour; for a side level or ahead, also one at even odds, and staying
    afoul (declaring no speed) of an enemy she is not favoured to out-fight."""
    if isinstance(action, Melee):
        odds = _melee_odds(state, action)
        return odds < 0 or (level_or_ahead and odds < EVEN)
    if isinstance(action, Declare) and level_or_ahead:
        ship = state.ships[action.ship]
        return _enemy_afoul(state, ship) is not None and _melee_odds(state, action) < EVEN
    return False


def _enemy_afoul(state: FrigateState, ship: Ship) -> Ship | None:
    """The enemy she is afoul of (not her own prize, which she may lie alongside to destroy)."""
    if not ship.afoul:
        return None
    partner = state.ships[ship.afoul]
    return partner if partner.owner != ship.owner else None


def _melee_odds(state: FrigateState, action: Melee | Declare) -> float:
    """Her expected points from one melee round with the ship she is afoul of."""
    ship = state.ships[action.ship]
    return _boarding(state, ship, state.ships[ship.afoul], rounds=1)


def _premature(state: FrigateState, attack: combat.Attack, hits: float) -> bool:
    """Whether a broadside would do better from closer in (seed 001, Combat 1: one attack a side a
    game-turn, weaker with range) while the turn has a chance left: a broadside at three hexes
    reads the 1-3 column where the same guns at two read 1-1. The segment's last fire round of the
    fourth segment is the last chance. `hits`: the attack's expected hits as it stands."""
    if attack.range <= 1 or (state.segment == 4 and state.end_round):
        return False
    tables, firer = state.tables, state.ships[attack.firer]
    closer = combat.attack_column(tables, attack.base, attack.half, 1, attack.rake, firer.crew, attack.defence,
                                  state.force_state[firer.owner].crt)
    return expected_hits(tables)[closer] > hits


def _after_point(state: FrigateState, player: int, action: Any) -> float:
    """Where one point leaves the ship: nearer the enemy's beam than he is to hers."""
    ship = state.ships[action.ship]
    step = action.step if isinstance(action, Plot) else (
        "ahead" if isinstance(action, Move) else action.way if isinstance(action, Turn) else "stand")
    here, facing = ship.hex, ship.facing
    if step == "ahead":
        here = neighbour(here, facing)
    elif step in (PORT, STARBOARD):
        facing = facing.turned(-1 if step == PORT else 1)
    nearest, rng = None, 0  # the first of the nearest enemies in the fight (one pass: this scores every point)
    for enemy in combat.in_the_fight(state, player):
        gap = distance(here, enemy.hex)
        if nearest is None or gap < rng:
            nearest, rng = enemy, gap
    if nearest is None:
        return 0.0
    if rng == 0:
        return _entering(state, ship, here)
    value = -0.1 * rng
    beyond = rng > STANDOFF or (rng > CLOSE and rng > _standoff(state, ship, nearest))  # the dear test last
    if beyond and movement.wind_offset(facing, state.wind_from) != 0:
        # Beyond the range she seeks, head for him (not into the wind, where she would lie in irons):
        # a point spent turning towards him is made good by the points that follow.
        value += TOWARDS * math.cos(math.radians(bearing(here, facing, nearest.hex)))
    mine = field_of_fire(here, facing, nearest.hex) if rng else None
    theirs = field_of_fire(nearest.hex, nearest.facing, here) if rng else None
    if mine in (PORT, STARBOARD) and rng <= 5:
        value += 1.0
    if theirs in (BOW, STERN) and rng <= 2:
        value += 0.8  # across his bow or stern: a raking position
    if theirs in (PORT, STARBOARD) and rng <= 5:
        value -= 0.5
    return value


def _entering(state: FrigateState, ship: Ship, here: Hex) -> float:
    """A point into an enemy's hex: a prize taken (seed, Prizes 1), or afoul of him, where the side
    the crews favour melees every segment: a crack crew boards an average one, which keeps off."""
    kind, other, _ = prizes.entry(state, ship, here)
    if other is None:
        return 0.0
    if kind == prizes.CAPTURE:
        return _prize_value(state, other)
    return AFOUL * _boarding(state, ship, other)


def rollout_policy(state: FrigateState, player: int, rng: random.Random) -> Any:
    """A quick policy for playouts: candidates' first choice; None (the playout ends) at the next
    Movement Declaration, where the evaluation takes over. A declaration already under way is
    played out with the rest of its turn: its speeds show only where they take the ships."""
    if state.phase == "declare" and not _declaring(state):
        return None
    actions = state.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    return candidates(state, player, actions)[0]


def _declaring(state: FrigateState) -> bool:
    """Whether a captain has declared in this Movement Declaration (a ship with a single choice
    declares by herself as it opens)."""
    return bool(state.ready) or any(s.declared and len(state.declare_options(s)) > 1
                                    for s in state.ship_list if s.afloat)
