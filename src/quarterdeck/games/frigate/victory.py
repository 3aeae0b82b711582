"""Preservation points and victory (reconstructed: shared/design/rules-decisions.md, Frigate,
"Numbers and rulings").

Preservation points a force has lost: 1 per hull, crew, gun or mast hit its ships have taken, plus
the remaining hull boxes of each of its ships sunk, struck or captured (and not retaken). Victory
points: the enemy's preservation points, + round(rating / 10) for each enemy ship sunk, +
round(rating / 5) for each enemy ship captured and held at the end, + the scenario's objectives
(points per ship leaving by a named edge, or by any edge; a negative
number is a penalty for quitting the action). The higher total wins; equal totals draw.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .ships import ESCAPED, SUNK

if TYPE_CHECKING:
    from .state import FrigateState


def preservation_lost(state: FrigateState, side: int) -> int:
    lost = 0
    for ship in state.ship_list:
        if ship.side != side:
            continue
        lost += ship.hull + ship.crew + ship.guns + ship.masts
        if ship.status == SUNK or (ship.afloat and ship.prize):
            lost += max(0, ship.spec.hull - ship.hull)
    return lost


def points(state: FrigateState) -> tuple[int, int]:
    tables = state.tables
    score = [preservation_lost(state, 1), preservation_lost(state, 0)]
    for ship in state.ship_list:
        enemy = 1 - ship.side
        if ship.status == SUNK:
            score[enemy] += round(Fraction(ship.spec.rating, tables.sunk_divisor))
        elif ship.afloat and ship.prize:
            score[ship.owner] += round(Fraction(ship.spec.rating, tables.captured_divisor))
        elif ship.status == ESCAPED and ship.owner == ship.side:
            for objective in state.scenario.objectives:
                edge_ok = objective.edge in (ship.edge, "any")
                if edge_ok and objective.names(ship):
                    score[ship.side] += objective.points
    return score[0], score[1]
