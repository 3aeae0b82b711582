"""An independent model of the Pirate Chess rules, written from the rule book for checking the engine.

It shares no code with quarterdeck.games.pirate_chess: positions are plain dicts keyed by (x, y),
moves are stepped out with modulo arithmetic, and whole turns are enumerated by brute force.
It covers positions after the opening (what `PirateChess.layout` builds).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

COMPASS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _lines(*directions: str) -> tuple[tuple[int, int], ...]:
    return tuple(COMPASS[d] for d in directions)


# "How different ships MOVE" with the reaches of rules-decisions.md: (step vectors, squares per line)
MOVES = {
    "Frigate": (_lines("N", "NE", "E", "SE", "S", "SW", "W", "NW"), 4),
    "Pirate": (KNIGHT, 1),
    "Dhow": (_lines("N", "E", "S", "W"), 1),
    "Junk": (_lines("N", "E", "S", "W"), 2),
    "Barque": (_lines("N", "E", "NE"), 4),
    "Schooner": (_lines("E", "S", "SE"), 4),
    "Brig": (_lines("S", "W", "SW"), 4),
    "Caravel": (_lines("N", "W", "NW"), 4),
}
RANK = {"Frigate": 4, "Pirate": 3, "Barque": 2, "Schooner": 2, "Brig": 2, "Caravel": 2, "Junk": 1, "Dhow": 0}
UPGRADES = ("Frigate", "Pirate")
UPGRADE_LIMIT = 2

Square = tuple[int, int]


def square_of(name: str) -> Square:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def name_of(square: Square) -> str:
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def harbour(size: int) -> set[Square]:
    middle = size // 2
    return {(x, y) for x in (middle - 1, middle) for y in (middle - 1, middle)}


@dataclass(frozen=True)
class Position:
    size: int
    ships: dict[Square, tuple[int, str, bool]]  # square -> (fleet, kind, anchored)
    to_move: int = 0
    reserves: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    upgrades: dict[tuple[int, str], int] = field(default_factory=dict)
    winner: int | None = None


def position(size: int, ships: dict[str, str], to_move: int = 0, reserves=((), ()), upgrades=None) -> Position:
    """Same input as PirateChess.layout: {"c3": "blue Junk anchored", ...}."""
    board = {}
    for name, text in ships.items():
        words = text.split()
        board[square_of(name)] = (("blue", "red").index(words[0]), words[1], words[-1] == "anchored")
    return Position(size, board, to_move, tuple(tuple(r) for r in reserves), dict(upgrades or {}))


def reachable(size: int, ships: dict, kind: str, start: Square) -> set[Square]:
    """Squares a ship of `kind` on `start` can sail to: each line stops at the first ship, which is included."""
    steps, reach = MOVES[kind]
    found = set()
    for dx, dy in steps:
        for k in range(1, reach + 1):
            target = ((start[0] + dx * k) % size, (start[1] + dy * k) % size)
            found.add(target)
            if target in ships:
                break
    return found


def _moved(pos: Position, ships: dict, **changes) -> Position:
    return replace(pos, ships=ships, **changes)


def _upgraded(pos: Position, p: int, ships: dict, square: Square, into: str) -> Position:
    ships[square] = (p, into, into == "Frigate")
    upgrades = dict(pos.upgrades)
    upgrades[(p, into)] = upgrades.get((p, into), 0) + 1
    return replace(pos, ships=ships, upgrades=upgrades)


def upgrade_kinds(pos: Position, p: int) -> list[str]:
    return [kind for kind in UPGRADES if pos.upgrades.get((p, kind), 0) < UPGRADE_LIMIT]


def is_base(pos: Position, p: int, square: Square, anchored_now: Square | None) -> bool:
    fleet, _, anchored = pos.ships[square]
    return fleet == p and anchored and square in harbour(pos.size) and square != anchored_now


def fleet_options(pos: Position, anchored_now: Square | None) -> Iterator[Position]:
    """Every position one fleet action (placement or move) leads to."""
    p = pos.to_move
    for kind in pos.reserves[p]:
        rest = list(pos.reserves[p])
        rest.remove(kind)
        reserves = tuple(tuple(rest) if f == p else r for f, r in enumerate(pos.reserves))
        for x in range(pos.size):
            for y in range(pos.size):
                square = (x, y)
                if square not in pos.ships:
                    yield _moved(pos, {**pos.ships, square: (p, kind, False)}, reserves=reserves)
                elif is_base(pos, p, square, anchored_now):
                    for into in upgrade_kinds(pos, p):
                        yield _upgraded(replace(pos, reserves=reserves), p, dict(pos.ships), square, into)
    for start, (fleet, kind, anchored) in pos.ships.items():
        if fleet != p or anchored:
            continue
        for target in reachable(pos.size, pos.ships, kind, start):
            ships = dict(pos.ships)
            del ships[start]
            occupant = pos.ships.get(target)
            if occupant is None:
                ships[target] = (p, kind, False)
                yield _moved(pos, ships)
            elif occupant[0] == p:
                if is_base(pos, p, target, anchored_now):
                    for into in upgrade_kinds(pos, p):
                        yield _upgraded(pos, p, dict(ships), target, into)
            elif not occupant[2] or kind == "Pirate":
                outcomes = [(p, kind, False)]  # sink: the attacker takes the square
                if RANK[occupant[1]] > RANK[kind]:
                    outcomes.append((p, occupant[1], False))  # capture: the prize changes sides
                for result in outcomes:
                    after = {**ships, target: result}
                    enemy_left = any(f != p for f, _, _ in after.values())
                    yield _moved(pos, after, winner=None if enemy_left else p)


def anchor_options(pos: Position) -> list[tuple[Position, Square | None]]:
    """(position, square anchored this turn or None) for each anchor or weigh."""
    p = pos.to_move
    results = []
    for square, (fleet, kind, anchored) in pos.ships.items():
        if fleet == p and kind != "Pirate":
            ships = {**pos.ships, square: (fleet, kind, not anchored)}
            results.append((_moved(pos, ships), None if anchored else square))
    return results


def turn_ends(pos: Position, fleet_done=False, anchor_done=False, anchored_now=None) -> list[Position]:
    """The position at the end of every distinct action sequence that completes the current turn."""
    fleet = [] if fleet_done else list(fleet_options(pos, anchored_now))
    anchors = [] if anchor_done else anchor_options(pos)
    if fleet:  # the fleet action is required: an anchor action first must leave one
        anchors = [(q, now) for q, now in anchors if next(fleet_options(q, now), None)]
    ends = []
    for q in fleet:
        ends += [q] if q.winner is not None else turn_ends(q, True, anchor_done, anchored_now)
    for q, now in anchors:
        ends += turn_ends(q, fleet_done, True, now)
    if fleet_done or not fleet:
        ends.append(pos)  # end the turn (declining the anchor action, or nothing left to do)
    return ends


def brute_force_perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    if pos.winner is not None:
        return 0
    total = 0
    for end in turn_ends(pos):
        following = end if end.winner is not None else replace(end, to_move=1 - end.to_move)
        total += brute_force_perft(following, depth - 1)
    return total
