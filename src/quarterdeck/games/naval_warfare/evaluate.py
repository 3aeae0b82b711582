"""What the computer knows of Naval Warfare (seed 003): the score, what each ship has left, and the
fire each side can bring to bear from where its ships lie, in expected hits (rules 9 and 10).

The expectation over the dice is exact per battery: a die hits on 4-6 (1/2) at short range, 5-6
(1/3) at long range, a half battery on a 6 (1/6); a rake doubles (Nelson rule 1). A broadside
being thrown (the volley of the current fire) counts its remaining dice the same way, so a search
that stops between two dice still sees what the shot is worth.
"""

from __future__ import annotations

from quarterdeck.core import plane

from . import fire, victory
from .ship import Ship
from .state import NavalState

HIT = {"short": 0.5, "long": 1 / 3}
POTENTIAL = 0.6  # a hit that can be fired next is worth a little over half a hit taken
BATTERY = 1.5
MAST = 3.0


def expected_hits(battery, reach: str) -> float:
    if not reach:
        return 0.0
    return 1 / 6 if battery.half else HIT[reach]


def fire_potential(state: NavalState, ship: Ship, enemies: list[Ship]) -> float:
    """The most hits each of the ship's mounts could expect against one enemy from where she lies."""
    if not ship.fighting or ship.on_fire:
        return 0.0
    total = 0.0
    mounts: dict[str, list] = {}
    for mount, battery in ship.batteries:
        mounts.setdefault(mount, []).append(battery)
    for mount, guns in mounts.items():
        best = 0.0
        for enemy in enemies:
            distance = plane.distance(ship.point, enemy.point)
            if distance > fire.MAX_RANGE or not fire.bears(ship, mount, enemy):
                continue
            value = sum(expected_hits(b, fire.band(b, distance)) for b in guns)
            best = max(best, value)
        total += best
    return total


def evaluate(state: NavalState, player: int) -> float:
    scores = victory.scores(state)
    value = float(scores[player] - scores[1 - player])
    sides: list[list[Ship]] = [[], []]
    for ship in state.ships.values():
        if ship.fighting:
            sides[ship.side].append(ship)
    for side, ships in enumerate(sides):
        sign = 1.0 if side == player else -1.0
        enemies = sides[1 - side]
        for ship in ships:
            worth = BATTERY * len(ship.batteries) - MAST * ship.masts_lost + 0.05 * ship.crew
            worth -= 4.0 if ship.on_fire else 0.0
            worth -= 3.0 if ship.irons or ship.adrift else 0.0
            worth += POTENTIAL * fire_potential(state, ship, enemies)
            value += sign * worth
    volley = state.volley
    if volley is not None:
        target = state.ships[volley["target"]]
        sign = -1.0 if target.side == player else 1.0
        rest = volley["shots"][len(volley["dice"]):]
        value += sign * sum((1 / 6 if half else HIT[reach]) * (2 if volley["rake"] and reach == "short" else 1)
                            for _, half, reach in rest)
    return value
