"""What the computer knows of Pirate Chess: a cheap static evaluation (the descriptor's
`hook_evaluate`) for the greedy and search agents.

Material (by rank, reserve ships at a discount), anchored safety, and what it takes to win: only
a Pirate can strike an anchored ship, so a fleet that lies at anchor is beaten by Pirates alone.
The evaluation therefore values

* Pirates for the hunting they can do: a share of the enemy's anchored fleet, more with more
  Pirates but less for each (`HUNT_SHARE`, `hunting_power`),
* Pirate threats: enemy ships one leap away, and the Pirates' approach to the nearest anchored
  target (knight distance on the torus), so that a search steers them into striking range,
* the means of making a Pirate: a ship at anchor in the harbour, another ship to join it and
  Pirate upgrades left count as part of one (`HARBOUR_PIRATE`),
* the hunt of a fleet reduced to a ship or two with nothing in reserve: each square such a ship
  could flee to next turn that no enemy ship reaches (`FLIGHT`), so that a search closes them one
  by one before the Pirate strikes, as a chess player drives a lone king into a mating net,
* and, for the side ahead, progress: the longer the run of quiet turns, the more of its lead is
  marked down, so a search prefers forcing play to drifting into the 100-quiet-turn draw.
"""

from __future__ import annotations

from functools import cache

from .movement import geometry
from .scenario import RANK, RESERVE, SHIP_TYPES, UPGRADE_LIMIT
from .state import PirateChessState, Ship

WIN = 1000.0
SHIP_VALUE = {kind: rank + 1.0 for kind, rank in RANK.items()}  # a Dhow still counts for something
RESERVE_FACTOR = 0.8  # a reserve ship is safe but not yet fighting
ANCHORED_BONUS = 0.25  # share of a ship's value for lying at anchor, safe from all but Pirates
THREAT_BONUS = 0.3  # share of a target's value for each enemy ship a Pirate can strike next turn
UPGRADE_BONUS = 0.5  # per upgrade still available
HUNT_SHARE = 0.8  # share of the enemy's anchored fleet that one Pirate is worth: only Pirates can take it
HARBOUR_PIRATE = 0.25  # a ship at anchor in the harbour, with a joiner and Pirate upgrades left: this much Pirate
APPROACH = 0.25  # per leap of a Pirate's distance to its nearest anchored target beyond striking range
QUIET_DISCOUNT = 0.5  # share of the lead given up as the quiet-turn count nears its limit
FLIGHT = 0.06  # per square a hunted fleet could flee to that no enemy reaches
HUNTED = 2  # a fleet with this many ships on board or fewer, and none in reserve, is hunted
# (value, strikes ships at anchor) by type, read once: the evaluation runs at every leaf of a search
_KINDS = {kind: (SHIP_VALUE[kind], ship.strikes_anchored) for kind, ship in SHIP_TYPES.items()}


def evaluate(state: PirateChessState, player: int) -> float:
    """Higher is better for `player`; a decided game is worth +-WIN."""
    if state.outcome is not None:
        return WIN * state.outcome.returns[player]
    anchored = (_anchored_value(state, 0), _anchored_value(state, 1))
    lead = _fleet_strength(state, player, anchored[1 - player]) - _fleet_strength(state, 1 - player, anchored[player])
    lead += FLIGHT * (_flight(state, player) - _flight(state, 1 - player))
    options = state.options
    if options.quiet_turn_draw and state.quiet_turns:
        # a lead melts away as the draw by quiet turns comes closer: forcing play keeps it
        lead *= 1.0 - QUIET_DISCOUNT * min(state.quiet_turns / options.quiet_turn_limit, 1.0)
    return lead


def hunting_power(pirates: float) -> float:
    """How much of the enemy's anchored fleet `pirates` Pirates can hope to take: 0, 1 for one, 1.5 for two, ..."""
    return 2.0 * (1.0 - 0.5**pirates)


def _anchored_value(state: PirateChessState, fleet: int) -> float:
    return sum(SHIP_VALUE[ship.kind] for ship in state.ships[fleet].values() if ship.anchored)


def _fleet_strength(state: PirateChessState, fleet: int, enemy_anchored: float) -> float:
    """Material, safety and attacking chances of `fleet` against an enemy with `enemy_anchored` at anchor."""
    board = state.board
    ships = state.ships
    geo = state.geometry
    lines = geo.lines
    targets = [ship.square for ship in ships[1 - fleet].values() if ship.anchored]
    distances = _knight_distances(geo.size) if targets else None
    strength = UPGRADE_BONUS * sum(UPGRADE_LIMIT - used for used in state.upgrades[fleet].values())
    pirates = 0.0
    harbour_base = False
    for kind, square, anchored in ships[fleet].values():
        value, hunter = _KINDS[kind]
        if hunter:
            pirates += 1.0
        if square == RESERVE:
            strength += RESERVE_FACTOR * value
            continue
        strength += value
        if anchored:
            strength += ANCHORED_BONUS * value
            harbour_base = harbour_base or square in geo.harbour
        if hunter:  # the Pirate: each of its leaps is a line of one square
            for line in lines[kind][square]:
                occupant = board[line[0]]
                if occupant is not None and occupant[0] != fleet:
                    strength += THREAT_BONUS * SHIP_VALUE[ships[occupant[0]][occupant[1]].kind]
            if distances is not None:
                row = distances[square]
                strength -= APPROACH * (min(row[t] for t in targets) - 1)
    # a harbour base makes a Pirate only with a second ship to join it
    if harbour_base and len(ships[fleet]) > 1 and state.upgrades[fleet].get("Pirate", 0) < UPGRADE_LIMIT:
        pirates += HARBOUR_PIRATE
    return strength + HUNT_SHARE * enemy_anchored * hunting_power(pirates)


def _flight(state: PirateChessState, fleet: int) -> int:
    """Squares a hunted `fleet` could sail to next turn that no enemy ship could reach in its own
    (an anchored ship weighs and sails in one turn); 0 for a fleet not hunted."""
    ships = state.ships
    on_board = [ship for ship in ships[fleet].values() if ship.square != RESERVE]
    if len(on_board) > HUNTED or len(on_board) < len(ships[fleet]):
        return 0
    enemies = [ship for ship in ships[1 - fleet].values() if ship.square != RESERVE]
    reached = {square for ship in enemies for square in _sailing(state, ship)}
    board = state.board
    return sum(
        1
        for ship in on_board
        for square in _sailing(state, ship)
        if square not in reached and (board[square] is None or board[square][0] != fleet)
    )


def _sailing(state: PirateChessState, ship: Ship) -> list[int]:
    """The squares along `ship`'s lines up to and including the first ship on each (sliding ships
    stop there; a Pirate's leap is a line of one square)."""
    board = state.board
    squares: list[int] = []
    for line in state.geometry.lines[ship.kind][ship.square]:
        for square in line:
            squares.append(square)
            if board[square] is not None:
                break
    return squares


@cache
def _knight_distances(size: int) -> tuple[tuple[int, ...], ...]:
    """Leaps a Pirate needs from each square to each other square of the torus (breadth first)."""
    leaps = geometry(size).lines["Pirate"]
    squares = size * size
    table = []
    for start in range(squares):
        distance = [-1] * squares
        distance[start] = 0
        frontier = [start]
        while frontier:
            following = []
            for square in frontier:
                for line in leaps[square]:
                    target = line[0]
                    if distance[target] < 0:
                        distance[target] = distance[square] + 1
                        following.append(target)
            frontier = following
        table.append(tuple(distance))
    return tuple(table)
