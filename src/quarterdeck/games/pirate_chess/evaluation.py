"""A cheap static evaluation for the greedy and search agents: material, safety and Pirate threats."""

from __future__ import annotations

from .rules import RANK, SHIP_TYPES, UPGRADE_LIMIT
from .state import RESERVE, PirateChessState

WIN = 1000.0
SHIP_VALUE = {kind: rank + 1.0 for kind, rank in RANK.items()}  # a Dhow still counts for something
RESERVE_FACTOR = 0.8  # a reserve ship is safe but not yet fighting
ANCHORED_BONUS = 0.25  # share of a ship's value for lying at anchor, safe from all but Pirates
THREAT_BONUS = 0.3  # share of a target's value for each enemy ship a Pirate can strike next turn
UPGRADE_BONUS = 0.5  # per upgrade still available


def evaluate(state: PirateChessState, player: int) -> float:
    """Higher is better for `player`; a decided game is worth +-WIN."""
    if state.outcome is not None:
        return WIN * state.outcome.returns[player]
    return _fleet_strength(state, player) - _fleet_strength(state, 1 - player)


def _fleet_strength(state: PirateChessState, fleet: int) -> float:
    board = state.board
    ships = state.ships
    lines = state.geometry.lines
    strength = UPGRADE_BONUS * sum(UPGRADE_LIMIT - used for used in state.upgrades[fleet].values())
    for ship in ships[fleet].values():
        value = SHIP_VALUE[ship.kind]
        if ship.square == RESERVE:
            strength += RESERVE_FACTOR * value
            continue
        strength += value
        if ship.anchored:
            strength += ANCHORED_BONUS * value
        if SHIP_TYPES[ship.kind].strikes_anchored:  # the Pirate: each of its leaps is a line of one square
            for line in lines[ship.kind][ship.square]:
                occupant = board[line[0]]
                if occupant is not None and occupant[0] != fleet:
                    strength += THREAT_BONUS * SHIP_VALUE[ships[occupant[0]][occupant[1]].kind]
    return strength
