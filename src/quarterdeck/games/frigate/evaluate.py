"""What the computer captains know of Frigate: a position's value, and which decisions to search first.

`evaluate(state, player)`: the victory points of the rules (victory.py) as they stand, plus the hits
already rolled and the expected hits of an attack whose dice are rolling, plus what each side's
ships have left (hull, crew, guns, masts), plus the fire each side can bring to bear now, with a
bonus for raking positions and a penalty for lying where the enemy rakes. Striking, sinking and
captures are all in the victory points.

`candidates(state, player, actions)`: a fire window's broadsides best first (odds, then raking),
the hull aim before the rigging unless the target is slower; movement and plots by where the
point leaves the ship (her broadside on an enemy, not his on her); declarations highest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quarterdeck.core.hexes import BOW, PORT, STARBOARD, STERN, distance, field_of_fire, neighbour
from quarterdeck.core.protocol import CHANCE

from . import combat, movement, victory
from .actions import Declare, Fire, Hold, Move, Pass, Plot, Stand, Turn

if TYPE_CHECKING:
    from .ships import Ship
    from .state import FrigateState

HEALTH = 0.6  # value of one box of hull, crew, guns or masts left, against one victory point
THREAT = 0.25  # value of one unit of odds brought to bear now
RAKE = 0.5
CLOSE = 1.0
EDGE = 1.0


def evaluate(state: FrigateState, player: int) -> float:
    if state.outcome is not None:
        return state.outcome.returns[player] * 1000.0
    score = victory.points(state)
    value = float(score[player] - score[1 - player])
    for target, _, _ in state.pending:
        value += 1.0 if state.ships[target].side != player else -1.0
    value += _attack_in_flight(state, player)
    for ship in state.ship_list:
        if not ship.afloat or ship.prize:
            continue
        sign = 1.0 if ship.owner == player else -1.0
        value += sign * HEALTH * _health(state, ship)
    value += THREAT * (_threat(state, player) - _threat(state, 1 - player))
    value += CLOSE * (_closing(state, player) - _closing(state, 1 - player))
    value += _objectives(state, player) - _objectives(state, 1 - player)
    value += EDGE * (_near_edge(state, 1 - player) - _near_edge(state, player))
    return value


def _near_edge(state: FrigateState, side: int) -> float:
    """How close a side's ships sail to the map's edge, where spending every point may carry a ship
    off the map (out of the fight); ships meant to leave by an edge are not counted."""
    leaving = {o.side for o in state.scenario.objectives if o.points > 0}
    if side in leaving:
        return 0.0
    total = 0.0
    for ship in state.ship_list:
        if ship.afloat and ship.owner == side and not ship.prize:
            nearest_edge = min(movement.edge_distance(state, ship.hex, edge) for edge in ("north", "south", "east",
                                                                                         "west"))
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
            if ship.afloat and ship.side == side and ship.owner == side and objective.cls in ("", ship.spec.cls):
                near = 1.0 - movement.edge_distance(state, ship.hex, objective.edge) / span
                total += 0.5 * objective.points * near / len(state.scenario.objectives)
    return total


def _closing(state: FrigateState, side: int) -> float:
    """The stronger ship wants to close, the weaker to open the range: each ship's odds advantage
    over her nearest enemy, times how near she is."""
    total = 0.0
    enemies = [s for s in state.ship_list if s.afloat and s.owner != side and not s.prize]
    for ship in state.ship_list:
        if not ship.afloat or ship.owner != side or ship.prize or not enemies:
            continue
        enemy = min(enemies, key=lambda e: distance(ship.hex, e.hex))
        advantage = ship.gunnery() * (3 - ship.crew) / 3 / enemy.spec.ds
        advantage -= enemy.gunnery() * (3 - enemy.crew) / 3 / ship.spec.ds
        total += advantage * (12 - min(distance(ship.hex, enemy.hex), 12)) / 12
    return total


def _health(state: FrigateState, ship: Ship) -> float:
    tables = state.tables
    return ((ship.spec.hull - ship.hull) + (tables.crew_limit - ship.crew) * 1.5 + (ship.spec.gs - ship.guns) * 0.5
            + (tables.mast_limit - ship.masts)) / 4.0 * (ship.spec.hull / 6.0)


def _attack_in_flight(state: FrigateState, player: int) -> float:
    """Expected hits of an attack whose CRT die is still to roll (so firing is worth its odds)."""
    attack = state.attack
    if not attack or state.current_player() != CHANCE or not attack.get("column"):
        return 0.0
    if not state.rolls or state.rolls[0][0] != "crt":
        return 0.0
    column = state.tables.crt[attack["column"]]
    expected = sum(column.hits) / 6.0
    if column.confirm is not None:
        expected *= len(column.confirm) / 6.0
    return expected if state.ships[attack["target"]].side != player else -expected


def _threat(state: FrigateState, side: int) -> float:
    """Odds each side's ships could fire now at enemies in their broadside fields (no line of fire
    test, for speed), with raking positions counted extra."""
    total = 0.0
    enemies = [s for s in state.ship_list if s.afloat and s.owner != side and not s.prize]
    for ship in state.ship_list:
        if not ship.afloat or ship.owner != side or ship.prize or ship.crippled(state.tables):
            continue
        best = 0.0
        for enemy in enemies:
            rng = distance(ship.hex, enemy.hex)
            if rng > state.tables.broadside_range or rng == 0:
                continue
            if field_of_fire(ship.hex, ship.facing, enemy.hex) not in (PORT, STARBOARD):
                continue
            rake = combat.rake_of(ship, enemy)
            gs = combat.gunnery_strength(state.tables, ship.gunnery(), False, rng, rake, ship.crew)
            odds = gs / enemy.spec.ds
            best = max(best, odds + (RAKE if rake else 0.0))
        total += best
    return total


# --- ordering the search --------------------------------------------------------------------------
def candidates(state: FrigateState, player: int, actions: list[Any]) -> list[Any]:
    if len(actions) <= 1:
        return list(actions)
    scored = [(_score(state, player, action), index, action) for index, action in enumerate(actions)]
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    return [action for _, _, action in scored]


def _score(state: FrigateState, player: int, action: Any) -> float:
    if isinstance(action, Fire):
        ship, target = state.ships[action.ship], state.ships[action.target]
        if action.battery in (BOW, STERN):
            return 0.3
        attack = combat.describe_attack(state, ship, action.battery, target)
        column = state.tables.crt_columns.index(attack.column) if attack.column else -1
        rigging = action.aim == "rigging"
        prefer_rigging = target.spec.ds > ship.spec.gs  # cripple a stronger ship's sailing, fight a weaker one
        return 2.0 + column + (0.5 if rigging == prefer_rigging else 0.0)
    if isinstance(action, Hold):
        return 1.0
    if isinstance(action, Pass):
        return 0.8
    if isinstance(action, Declare):
        return action.ma / 20.0
    if isinstance(action, Move | Turn | Stand | Plot):
        return _after_point(state, player, action)
    return 0.0


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
    enemies = [s for s in state.ship_list if s.afloat and s.owner != player and not s.prize]
    if not enemies:
        return 0.0
    nearest = min(enemies, key=lambda e: distance(here, e.hex))
    rng = distance(here, nearest.hex)
    value = -0.1 * rng
    mine = field_of_fire(here, facing, nearest.hex) if rng else None
    theirs = field_of_fire(nearest.hex, nearest.facing, here) if rng else None
    if mine in (PORT, STARBOARD) and rng <= 5:
        value += 1.0
    if theirs in (BOW, STERN) and rng <= 2:
        value += 0.8  # across his bow or stern: a raking position
    if theirs in (PORT, STARBOARD) and rng <= 5:
        value -= 0.5
    return value
