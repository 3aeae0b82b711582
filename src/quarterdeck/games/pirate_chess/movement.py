"""Placing and moving ships, sinking and capturing (seed 004, "How different ships MOVE", "How to
MOVE", "How to SINK or CAPTURE an opponent's ship", and for placing from the reserve "The Blue fleet
STARTS the game by placing any ship on the board, and anchoring it").

A placement or a move is a turn's one fleet action. The board is a torus ("the board is
continuous ... The north edge is joined to the south edge, and the east edge is joined to the west
edge"): `BoardGeometry` precomputes, per board size, every line a ship type can sail from every
square, wrapped at the edges, so move generation is a walk along ready-made tuples. Sliding ships
stop at the first ship in the way; the Pirate leaps (rulings of shared/design/rules-decisions.md,
"Pirate Chess"). A move that ends on an enemy ship attacks it: the enemy is sunk, or captured when
it outranks the attacker. A placement goes on an empty square, or onto a harbour ship for an
upgrade (upgrade.py). The functions take the state and are called from state.py; the turn's own
checks (the opening, one fleet action a turn) are made there first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ...core.errors import IllegalAction
from ...core.events import Anchored, Captured, Eliminated, Event, Moved, Placed, Sunk
from ...core.geometry import TorusGrid
from ...core.protocol import Action
from .actions import CAPTURE, SINK, Move, Place, new_move, new_place
from .scenario import PLAYERS, RANK, RESERVE, SHIP_TYPES
from .upgrade import check_join, join, upgrade_bases, upgrade_kinds_left

if TYPE_CHECKING:
    from .state import PirateChessState, Ship


class BoardGeometry:
    """Squares of one torus size as indices `y * size + x`, with names, harbour and move lines."""

    def __init__(self, size: int):
        self.size = size
        grid = TorusGrid(size, size)
        self.names: tuple[str, ...] = tuple(grid.name((i % size, i // size)) for i in range(size * size))
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        middle = size // 2
        self.harbour = frozenset(y * size + x for x in (middle - 1, middle) for y in (middle - 1, middle))
        # lines[kind][square]: one tuple of squares per step direction, nearest first, wrapped
        self.lines: dict[str, tuple[tuple[tuple[int, ...], ...], ...]] = {}
        # On a small torus two lines of one ship can reach the same square (an 8x8 Frigate sailing
        # 4 east or 4 west); move generation removes such duplicates only for those ship types.
        self.crossing: dict[str, bool] = {}
        for kind, ship_type in SHIP_TYPES.items():
            per_square = []
            for square in range(size * size):
                x, y = square % size, square // size
                per_square.append(
                    tuple(
                        tuple(((y + dy * k) % size) * size + (x + dx * k) % size for k in range(1, ship_type.reach + 1))
                        for dx, dy in ship_type.steps
                    )
                )
            self.lines[kind] = tuple(per_square)
            self.crossing[kind] = any(
                len({s for line in lines for s in line}) < sum(len(line) for line in lines) for lines in per_square
            )


@cache
def geometry(size: int) -> BoardGeometry:
    return BoardGeometry(size)


@dataclass(frozen=True)
class Recommissioned(Event):
    """A captured ship sails on in the captor's colours, under a name of the captor's fleet."""

    kind: ClassVar[str] = "recommissioned"
    piece: str
    square: str
    name: str

    def describe(self) -> str:
        return f"{self.piece} sails on from {self.square} as {self.name}"


def placements(state: PirateChessState, p: int, with_upgrades: bool) -> list[Action]:
    """A reserve ship on any empty square; after the opening, also onto a harbour upgrade base."""
    reserve = state.reserve(p)
    if not reserve:
        return []
    board = state.board
    empty = [square for square, occupant in enumerate(board) if occupant is None]
    actions: list[Action] = [new_place((ship_id, square, "")) for ship_id in reserve for square in empty]
    if with_upgrades:
        kinds = upgrade_kinds_left(state, p)
        if kinds:
            for base_square in upgrade_bases(state, p):
                actions += [Place(ship_id, base_square, kind) for ship_id in reserve for kind in kinds]
    return actions


def check_place(state: PirateChessState, p: int, action: Place) -> None:
    """The reserve ship and the square it goes to."""
    ship = state.ships[p].get(action.ship)
    if ship is None or ship.square != RESERVE:
        raise IllegalAction("not-in-reserve", f"{action.ship} is not in the {PLAYERS[p]} reserve")
    state.check_square(action.square)
    if state.in_opening(p) and action.upgrade:
        raise IllegalAction("opening-placement", "the opening places ships on empty squares; upgrades come later")
    occupant = state.board[action.square]
    if occupant is None:
        if action.upgrade:
            raise IllegalAction("harbour-upgrade", "an upgrade joins a ship already anchored in the harbour")
        return
    fleet, other_id = occupant
    if fleet != p or not action.upgrade:
        raise IllegalAction(
            "occupied",
            f"{state.square_name(action.square)} is occupied; a ship is placed on an empty square",
        )
    check_join(state, p, other_id, action.upgrade)


def place(state: PirateChessState, p: int, action: Place) -> list[Event]:
    """Carry out a checked placement, or join a harbour ship from the reserve for an upgrade."""
    ship_id, square = action.ship, action.square
    ship = state.ships[p][ship_id]
    events: list[Event] = [Placed(state.ship_name(p, ship_id), state.square_name(square))]
    state.fleet_done = True
    state.eventful = True
    if action.upgrade:
        join(state, p, ship_id, square, action.upgrade, events)
        return events
    # an opening placement is anchored at once (decision: no separate anchor action is asked for)
    anchored = state.in_opening(p) and SHIP_TYPES[ship.kind].anchors
    state.set_ship(p, ship_id, ship._replace(square=square, anchored=anchored))
    if anchored:
        events.append(Anchored(state.ship_name(p, ship_id), state.square_name(square), True))
    return events


def moves(state: PirateChessState, p: int, actions: list[Action]) -> None:
    """Append every legal move of fleet `p`'s ships on the board to `actions`."""
    board = state.board
    ships = state.ships
    lines_by_kind = state.geometry.lines
    kinds = upgrade_kinds_left(state, p)
    bases = upgrade_bases(state, p) if kinds else ()
    append = actions.append
    for ship_id, ship in ships[p].items():
        origin = ship.square
        if origin == RESERVE or ship.anchored:
            continue
        kind = ship.kind
        strikes_anchored = SHIP_TYPES[kind].strikes_anchored
        rank = RANK[kind]
        first = len(actions)
        for line in lines_by_kind[kind][origin]:
            for target in line:
                occupant = board[target]
                if occupant is None:
                    append(new_move((ship_id, origin, target, "", "")))
                    continue
                fleet, other_id = occupant
                if fleet != p:
                    enemy = ships[fleet][other_id]
                    if strikes_anchored or not enemy.anchored:
                        append(new_move((ship_id, origin, target, SINK, "")))
                        if RANK[enemy.kind] > rank:
                            append(new_move((ship_id, origin, target, CAPTURE, "")))
                elif target in bases:
                    actions += [new_move((ship_id, origin, target, "", k)) for k in kinds]
                break  # no ship sails through another
        if state.geometry.crossing[kind]:
            actions[first:] = list(dict.fromkeys(actions[first:]))


def has_move(state: PirateChessState, p: int) -> bool:
    found: list[Action] = []
    moves(state, p, found)
    return bool(found)


def check_move(state: PirateChessState, p: int, action: Move) -> None:
    """The ship, its course and what it meets on arrival; the turn's own checks come first (state.py)."""
    ship = state.own_ship_on_board(p, action.ship)
    if ship.square != action.origin:
        raise IllegalAction("wrong-origin", f"{action.ship} is on {state.square_name(ship.square)}")
    state.check_square(action.destination)
    if ship.anchored:
        raise IllegalAction("anchored-cannot-move", f"{action.ship} is anchored; weigh anchor first")
    _check_course(state, ship, action.destination)
    occupant = state.ship_at(action.destination)
    if occupant is None:
        if action.attack:
            raise IllegalAction(
                "attack-choice", f"there is no ship to attack on {state.square_name(action.destination)}"
            )
        if action.upgrade:
            raise IllegalAction("harbour-upgrade", "an upgrade joins a ship already anchored in the harbour")
        return
    fleet, other_id, other = occupant
    if fleet == p:
        if action.attack or not action.upgrade:
            raise IllegalAction("friendly-square", "a ship never ends its move on another ship of its fleet")
        check_join(state, p, other_id, action.upgrade)
        return
    if other.anchored and not SHIP_TYPES[ship.kind].strikes_anchored:
        raise IllegalAction("anchored-immunity", f"{other_id} is anchored: only a Pirate may attack it")
    if action.upgrade:
        raise IllegalAction("harbour-upgrade", "an upgrade joins a ship of your own fleet")
    if action.attack not in (SINK, CAPTURE):
        raise IllegalAction("attack-choice", "an attack must say sink or capture")
    if action.attack == CAPTURE and RANK[other.kind] <= RANK[ship.kind]:
        raise IllegalAction(
            "capture-rank",
            f"only a ship that outranks the attacker may be captured ({other.kind} vs {ship.kind})",
        )


def _check_course(state: PirateChessState, ship: Ship, destination: int) -> None:
    """Some line of the ship's move must reach `destination` with no ship before it."""
    reachable = False
    for line in state.geometry.lines[ship.kind][ship.square]:
        if destination in line:
            reachable = True
            if all(state.board[s] is None for s in line[: line.index(destination)]):
                return
    if reachable:
        raise IllegalAction("blocked", f"another ship is in the way to {state.square_name(destination)}")
    raise IllegalAction("ship-move", f"a {ship.kind} moves {SHIP_TYPES[ship.kind].moves}")


def sail(state: PirateChessState, p: int, action: Move) -> list[Event]:
    """Carry out a checked move: sail, sink, capture, or join a harbour ship for an upgrade."""
    ship_id, origin, destination = action.ship, action.origin, action.destination
    ship = state.ships[p][ship_id]
    name = state.ship_name(p, ship_id)
    where = state.square_name(destination)
    events: list[Event] = [Moved(name, state.square_name(origin), where)]
    state.fleet_done = True
    state.vacate(origin)
    if action.upgrade:
        state.eventful = True
        join(state, p, ship_id, destination, action.upgrade, events)
        return events
    if not action.attack:
        state.set_ship(p, ship_id, ship._replace(square=destination))
        return events
    state.eventful = True
    enemy, enemy_id = state.board[destination]
    enemy_kind = state.ships[enemy][enemy_id].kind
    state.retire(enemy, enemy_id)
    if action.attack == SINK:
        events.append(Sunk(state.ship_name(enemy, enemy_id), where, name))
        state.set_ship(p, ship_id, ship._replace(square=destination))
    else:
        # the book: "your ship will be replaced by the enemy's ship in your colour"
        state.retire(p, ship_id)
        prize_id = state.commission(p, enemy_kind, destination, anchored=False)
        events.append(Captured(state.ship_name(enemy, enemy_id), where, name))
        events.append(Eliminated(name, where))
        events.append(Recommissioned(state.ship_name(enemy, enemy_id), where, state.ship_name(p, prize_id)))
    return events
