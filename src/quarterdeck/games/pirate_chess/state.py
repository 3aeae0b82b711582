"""A Pirate Chess position: the actions, their notation, their legality and their effects.

A turn is a short sequence of small actions by one fleet: at most one fleet action (`Place` a ship
from the reserve, or `Move` one on the board) and at most one anchor action (`Anchor`, which also
weighs anchor), in either order, then `End` when the player declines what is left. The turn passes
by itself as soon as the player has nothing left to decide (see `_turn_is_over`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, NamedTuple

from ...core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from ...core.events import (
    Anchored,
    Captured,
    Eliminated,
    Event,
    GameOver,
    Moved,
    PhaseChanged,
    Placed,
    Sunk,
    Upgraded,
)
from ...core.protocol import TERMINAL, Action, Game, Outcome, State
from .rules import (
    OPENING_TURNS,
    RANK,
    SHIP_TYPES,
    UPGRADE_KINDS,
    UPGRADE_LIMIT,
    Options,
    geometry,
    ship_kind,
    ship_number,
)

PLAYERS = ("blue", "red")
RESERVE = -1  # the square of a ship still waiting in its fleet's reserve
SINK = "sink"
CAPTURE = "capture"


class Ship(NamedTuple):
    kind: str
    square: int  # RESERVE, or a square index
    anchored: bool = False


# Actions are plain tuples; each kind has a different length, so no two kinds ever compare equal.
class Place(NamedTuple):
    ship: str
    square: int
    upgrade: str = ""  # "Frigate" or "Pirate" when joining an anchored ship in the harbour


class Move(NamedTuple):
    ship: str
    origin: int
    destination: int
    attack: str = ""  # SINK or CAPTURE when the destination holds an enemy ship
    upgrade: str = ""  # "Frigate" or "Pirate" when joining an anchored ship in the harbour


class Anchor(NamedTuple):
    ship: str
    anchored: bool  # True: let go the anchor; False: weigh it


class End(NamedTuple):
    """Declines the rest of the turn (the anchor action, or a turn with no fleet action to take)."""


END = End()
# Generation builds the many moves and placements straight from field tuples, skipping the
# keyword-handling __new__ of NamedTuple (a tenth of the time of a random playout).
_new_move = partial(tuple.__new__, Move)
_new_place = partial(tuple.__new__, Place)


@dataclass(frozen=True)
class Recommissioned(Event):
    """A captured ship sails on in the captor's colours, under a name of the captor's fleet."""

    kind: ClassVar[str] = "recommissioned"
    piece: str
    square: str
    name: str

    def describe(self) -> str:
        return f"{self.piece} sails on from {self.square} as {self.name}"


_SHIP_ID = re.compile(r"^([A-Za-z]+)([1-9][0-9]*)?$")
_SAIL = re.compile(r"^([a-z][0-9]+)([-x])([a-z][0-9]+)$")
_UPGRADE_NAMES = {kind.lower(): kind for kind in UPGRADE_KINDS}
_KIND_NAMES = {kind.lower(): kind for kind in SHIP_TYPES}
# Position keys write a ship as its symbol, lower case for Red, with * when anchored; "." is open sea.
_SHIP_CODES = {
    (fleet, kind, anchored): (ship.symbol if fleet == 0 else ship.symbol.lower()) + ("*" if anchored else "")
    for fleet in range(len(PLAYERS))
    for kind, ship in SHIP_TYPES.items()
    for anchored in (False, True)
}


class PirateChessState(State):
    """Mutable position. `clone` copies only the small containers that `apply` changes in place."""

    def __init__(self, game: Game, options: Options):
        self.game = game
        self.options = options
        self.geometry = geometry(options.size)
        self.board: list[tuple[int, str] | None] = [None] * (options.size * options.size)
        self.codes: list[str] = ["."] * (options.size * options.size)  # per square, for position keys
        self.ships: list[dict[str, Ship]] = [{}, {}]  # per fleet: id -> ship, reserve and board
        # Replaced, never changed in place, so clones may share them:
        self.lost: tuple[tuple[str, ...], ...] = ((), ())  # ids of ships that left the game
        self.turns_played: tuple[int, ...] = (0, 0)
        self.upgrades: tuple[dict[str, int], ...] = tuple({kind: 0 for kind in UPGRADE_KINDS} for _ in PLAYERS)
        self.to_move = 0
        self.fleet_done = False
        self.anchor_done = False
        self.anchored_now: str | None = None  # anchored by this turn's anchor action: no upgrade base yet
        self.eventful = False  # this turn placed, attacked or upgraded
        self.quiet_turns = 0
        self.history: list[str] = []  # repetition keys at turn starts since the last eventful turn
        self.outcome: Outcome | None = None

    # --- who decides -----------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    def current_player(self) -> int:
        return TERMINAL if self.outcome is not None else self.to_move

    def in_opening(self, player: int) -> bool:
        return self.turns_played[player] < OPENING_TURNS

    def opening_over(self) -> bool:
        return min(self.turns_played) >= OPENING_TURNS

    # --- reading the position --------------------------------------------------------------------
    def square_name(self, square: int) -> str:
        return self.geometry.names[square]

    def ship_at(self, square: int) -> tuple[int, str, Ship] | None:
        """(fleet, id, ship) on a square, or None when it is empty."""
        occupant = self.board[square]
        if occupant is None:
            return None
        fleet, ship_id = occupant
        return fleet, ship_id, self.ships[fleet][ship_id]

    def reserve(self, player: int) -> list[str]:
        return [ship_id for ship_id, ship in self.ships[player].items() if ship.square == RESERVE]

    def on_board(self, player: int) -> list[str]:
        return [ship_id for ship_id, ship in self.ships[player].items() if ship.square != RESERVE]

    def upgrades_left(self, player: int) -> dict[str, int]:
        return {kind: UPGRADE_LIMIT - used for kind, used in self.upgrades[player].items()}

    def ship_name(self, player: int, ship_id: str) -> str:
        return f"{PLAYERS[player]} {ship_id}"

    # --- legal actions ---------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[Action]:
        if self.outcome is not None or (player is not None and player != self.to_move):
            return []
        p = self.to_move
        if self.in_opening(p):
            actions = self._placements(p, with_upgrades=False)
        else:
            fleet_actions = [] if self.fleet_done else self._fleet_actions(p)
            actions = list(fleet_actions)
            if not self.anchor_done:
                actions += self._anchor_actions(p, fleet_actions)
            if self.fleet_done or not fleet_actions:
                actions.append(END)
        if piece is not None:
            actions = [a for a in actions if self.action_piece(a) == piece]
        return actions

    def action_piece(self, action: Action) -> str | None:
        return None if isinstance(action, End) else action.ship

    def _fleet_actions(self, p: int) -> list[Action]:
        actions = self._placements(p, with_upgrades=True)
        self._moves(p, actions)
        return actions

    def _placements(self, p: int, with_upgrades: bool) -> list[Action]:
        reserve = self.reserve(p)
        if not reserve:
            return []
        board = self.board
        empty = [square for square, occupant in enumerate(board) if occupant is None]
        actions: list[Action] = [_new_place((ship_id, square, "")) for ship_id in reserve for square in empty]
        if with_upgrades:
            kinds = self._upgrade_kinds_left(p)
            if kinds:
                for base_square in self._upgrade_bases(p):
                    actions += [Place(ship_id, base_square, kind) for ship_id in reserve for kind in kinds]
        return actions

    def _moves(self, p: int, actions: list[Action]) -> None:
        """Append every legal move of fleet `p`'s ships on the board to `actions`."""
        board = self.board
        ships = self.ships
        lines_by_kind = self.geometry.lines
        kinds = self._upgrade_kinds_left(p)
        bases = self._upgrade_bases(p) if kinds else ()
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
                        append(_new_move((ship_id, origin, target, "", "")))
                        continue
                    fleet, other_id = occupant
                    if fleet != p:
                        enemy = ships[fleet][other_id]
                        if strikes_anchored or not enemy.anchored:
                            append(_new_move((ship_id, origin, target, SINK, "")))
                            if RANK[enemy.kind] > rank:
                                append(_new_move((ship_id, origin, target, CAPTURE, "")))
                    elif target in bases:
                        actions += [_new_move((ship_id, origin, target, "", k)) for k in kinds]
                    break  # no ship sails through another
            if self.geometry.crossing[kind]:
                actions[first:] = list(dict.fromkeys(actions[first:]))

    def _upgrade_bases(self, p: int) -> set[int]:
        """Harbour squares where an own ship lies at anchor since an earlier turn."""
        harbour = self.geometry.harbour
        return {
            ship.square
            for ship_id, ship in self.ships[p].items()
            if ship.anchored and ship.square in harbour and ship_id != self.anchored_now
        }

    def _upgrade_kinds_left(self, p: int) -> list[str]:
        return [kind for kind, used in self.upgrades[p].items() if used < UPGRADE_LIMIT]

    def _anchor_actions(self, p: int, fleet_actions: list[Action]) -> list[Action]:
        actions = [
            Anchor(ship_id, not ship.anchored)
            for ship_id, ship in self.ships[p].items()
            if ship.square != RESERVE and SHIP_TYPES[ship.kind].anchors
        ]
        if self.fleet_done or not fleet_actions or self.reserve(p):
            return actions  # nothing required, or a placement that no anchoring can take away
        movers = {a.ship for a in fleet_actions}
        return [a for a in actions if self._keeps_a_fleet_action(p, a, movers)]

    def _keeps_a_fleet_action(self, p: int, anchor: Anchor, movers: set[str]) -> bool:
        """Whether a move stays legal after `anchor`, taken before this turn's fleet action.

        The fleet action is required while one is legal, so an anchor action may not remove the
        last one. Called when the reserve is empty and `movers` (the ships with a move) is not.
        """
        if anchor.anchored:
            # an anchored ship cannot move; anchored this turn, it is no upgrade base yet either
            return bool(movers - {anchor.ship})
        ship = self.ships[p][anchor.ship]
        if ship.square not in self._upgrade_bases(p):
            return True  # weighing frees one more ship and takes nothing from the others
        self.ships[p][anchor.ship] = ship._replace(anchored=False)  # a trial, undone at once
        remaining: list[Action] = []
        self._moves(p, remaining)
        self.ships[p][anchor.ship] = ship
        return bool(remaining)

    def _has_fleet_action(self, p: int) -> bool:
        # A reserve ship can always be placed: at most 16 ships sail on at least 36 squares.
        if self.reserve(p):
            return True
        moves: list[Action] = []
        self._moves(p, moves)
        return bool(moves)

    def _has_anchor_action(self, p: int) -> bool:
        return any(ship.square != RESERVE and SHIP_TYPES[ship.kind].anchors for ship in self.ships[p].values())

    # --- validation: every refusal names its rule ------------------------------------------------
    def _validate(self, action: Action, player: int) -> None:
        if isinstance(action, Place):
            self._check_place(action, player)
        elif isinstance(action, Move):
            self._check_move(action, player)
        elif isinstance(action, Anchor):
            self._check_anchor(action, player)
        elif isinstance(action, End):
            self._check_end(player)
        else:
            raise IllegalAction("action", f"{action!r} is not a Pirate Chess action")

    def _check_place(self, action: Place, p: int) -> None:
        if self.fleet_done:
            raise IllegalAction("one-fleet-action", "this turn has already placed or moved a ship")
        ship = self.ships[p].get(action.ship)
        if ship is None or ship.square != RESERVE:
            raise IllegalAction("not-in-reserve", f"{action.ship} is not in the {PLAYERS[p]} reserve")
        self._check_square(action.square)
        if self.in_opening(p) and action.upgrade:
            raise IllegalAction("opening-placement", "the opening places ships on empty squares; upgrades come later")
        occupant = self.board[action.square]
        if occupant is None:
            if action.upgrade:
                raise IllegalAction("harbour-upgrade", "an upgrade joins a ship already anchored in the harbour")
            return
        fleet, other_id = occupant
        if fleet != p or not action.upgrade:
            raise IllegalAction(
                "occupied",
                f"{self.square_name(action.square)} is occupied; a ship is placed on an empty square",
            )
        self._check_join(p, other_id, action.upgrade)

    def _check_move(self, action: Move, p: int) -> None:
        if self.in_opening(p):
            target = self.board[action.destination] if 0 <= action.destination < len(self.board) else None
            if target is not None and target[0] != p:
                raise IllegalAction("no-attack-in-opening", "no attack until both players have placed three ships")
            raise IllegalAction("opening-placement", "each of a player's first three turns must place a ship")
        if self.fleet_done:
            raise IllegalAction("one-fleet-action", "this turn has already placed or moved a ship")
        ship = self._own_ship_on_board(p, action.ship)
        if ship.square != action.origin:
            raise IllegalAction("wrong-origin", f"{action.ship} is on {self.square_name(ship.square)}")
        self._check_square(action.destination)
        if ship.anchored:
            raise IllegalAction("anchored-cannot-move", f"{action.ship} is anchored; weigh anchor first")
        self._check_course(ship, action.destination)
        occupant = self.ship_at(action.destination)
        if occupant is None:
            if action.attack:
                raise IllegalAction(
                    "attack-choice", f"there is no ship to attack on {self.square_name(action.destination)}"
                )
            if action.upgrade:
                raise IllegalAction("harbour-upgrade", "an upgrade joins a ship already anchored in the harbour")
            return
        fleet, other_id, other = occupant
        if fleet == p:
            if action.attack or not action.upgrade:
                raise IllegalAction("friendly-square", "a ship never ends its move on another ship of its fleet")
            self._check_join(p, other_id, action.upgrade)
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

    def _check_course(self, ship: Ship, destination: int) -> None:
        """Some line of the ship's move must reach `destination` with no ship before it."""
        reachable = False
        for line in self.geometry.lines[ship.kind][ship.square]:
            if destination in line:
                reachable = True
                if all(self.board[s] is None for s in line[: line.index(destination)]):
                    return
        if reachable:
            raise IllegalAction("blocked", f"another ship is in the way to {self.square_name(destination)}")
        raise IllegalAction("ship-move", f"a {ship.kind} moves {SHIP_TYPES[ship.kind].moves}")

    def _check_join(self, p: int, base_id: str, into: str) -> None:
        base = self.ships[p][base_id]
        if into not in UPGRADE_KINDS:
            raise IllegalAction("harbour-upgrade", f"an upgrade makes a {' or a '.join(UPGRADE_KINDS)}")
        if base.square not in self.geometry.harbour:
            raise IllegalAction(
                "harbour-upgrade", "ships join for an upgrade only in the harbour (the centre four squares)"
            )
        if not base.anchored:
            raise IllegalAction("harbour-upgrade", f"{base_id} must lie at anchor in the harbour to be joined")
        if base_id == self.anchored_now:
            raise IllegalAction("harbour-upgrade", f"{base_id} anchored this turn; it can be joined in a later turn")
        if self.upgrades[p][into] >= UPGRADE_LIMIT:
            raise IllegalAction("upgrade-limit", f"{PLAYERS[p]} has used both {into} upgrades")

    def _check_anchor(self, action: Anchor, p: int) -> None:
        if self.in_opening(p):
            raise IllegalAction("opening-placement", "in the opening the placed ship is anchored with the placement")
        if self.anchor_done:
            raise IllegalAction("one-anchor-action", "this turn has already anchored or weighed a ship")
        ship = self._own_ship_on_board(p, action.ship)
        if not SHIP_TYPES[ship.kind].anchors:
            raise IllegalAction("pirate-never-anchors", f"a {ship.kind} can never anchor")
        if ship.anchored == action.anchored:
            rule, state = ("already-anchored", "at anchor") if ship.anchored else ("not-anchored", "under way")
            raise IllegalAction(rule, f"{action.ship} is already {state}")
        if not self.fleet_done and not self.reserve(p):
            moves: list[Action] = []
            self._moves(p, moves)
            if moves and not self._keeps_a_fleet_action(p, action, {a.ship for a in moves}):
                raise IllegalAction(
                    "fleet-action-required",
                    "that would leave no ship to move, and a fleet action is required",
                )

    def _check_end(self, p: int) -> None:
        if self.in_opening(p):
            raise IllegalAction("opening-placement", "each of a player's first three turns must place a ship")
        if not self.fleet_done and self._has_fleet_action(p):
            raise IllegalAction("fleet-action-required", "a ship can still be placed or moved, so the turn must do it")

    def _own_ship_on_board(self, p: int, ship_id: str) -> Ship:
        ship = self.ships[p].get(ship_id)
        if ship is None:
            raise IllegalAction("no-such-ship", f"the {PLAYERS[p]} fleet has no ship called {ship_id}")
        if ship.square == RESERVE:
            raise IllegalAction("not-on-board", f"{ship_id} is still in the reserve")
        return ship

    def _check_square(self, square: int) -> None:
        if not 0 <= square < len(self.board):
            raise IllegalAction("square", f"there is no square {square} on this board")

    # --- applying --------------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> list[Event]:
        p = self.to_move
        if isinstance(action, Move):
            events = self._sail(p, action)
        elif isinstance(action, Place):
            events = self._place(p, action)
        elif isinstance(action, Anchor):
            events = self._anchor(p, action)
        else:
            events = []
        if self.outcome is None and (isinstance(action, End) or self._turn_is_over(p)):
            self._pass_turn(events)
        return events

    def _place(self, p: int, action: Place) -> list[Event]:
        ship_id, square = action.ship, action.square
        ship = self.ships[p][ship_id]
        events: list[Event] = [Placed(self.ship_name(p, ship_id), self.square_name(square))]
        self.fleet_done = True
        self.eventful = True
        if action.upgrade:
            self._join(p, ship_id, square, action.upgrade, events)
            return events
        # an opening placement is anchored at once (decision: no separate anchor action is asked for)
        anchored = self.in_opening(p) and SHIP_TYPES[ship.kind].anchors
        self._set(p, ship_id, Ship(ship.kind, square, anchored))
        if anchored:
            events.append(Anchored(self.ship_name(p, ship_id), self.square_name(square), True))
        return events

    def _sail(self, p: int, action: Move) -> list[Event]:
        ship_id, origin, destination = action.ship, action.origin, action.destination
        ship = self.ships[p][ship_id]
        name = self.ship_name(p, ship_id)
        where = self.square_name(destination)
        events: list[Event] = [Moved(name, self.square_name(origin), where)]
        self.fleet_done = True
        self._vacate(origin)
        if action.upgrade:
            self.eventful = True
            self._join(p, ship_id, destination, action.upgrade, events)
            return events
        if not action.attack:
            self._set(p, ship_id, ship._replace(square=destination))
            return events
        self.eventful = True
        enemy, enemy_id = self.board[destination]
        enemy_kind = self.ships[enemy][enemy_id].kind
        self._retire(enemy, enemy_id)
        if action.attack == SINK:
            events.append(Sunk(self.ship_name(enemy, enemy_id), where, name))
            self._set(p, ship_id, ship._replace(square=destination))
        else:
            self._retire(p, ship_id)
            prize_id = self._commission(p, enemy_kind, destination, anchored=False)
            events.append(Captured(self.ship_name(enemy, enemy_id), where, name))
            events.append(Eliminated(name, where))
            events.append(Recommissioned(self.ship_name(enemy, enemy_id), where, self.ship_name(p, prize_id)))
        if not self.on_board(enemy) and self.opening_over():
            self._finish(p, f"{PLAYERS[enemy]} has no ship left on the board", events)
        return events

    def _join(self, p: int, ship_id: str, square: int, into: str, events: list[Event]) -> None:
        """Harbour upgrade: the joining and the anchored ship leave; a new Frigate or Pirate stands there."""
        base_id = self.board[square][1]
        self._retire(p, base_id)
        self._retire(p, ship_id)
        anchored = SHIP_TYPES[into].anchors  # a new Frigate lies at anchor, a new Pirate cannot
        new_id = self._commission(p, into, square, anchored)
        used = self.upgrades[p]
        self.upgrades = _replaced(self.upgrades, p, {**used, into: used[into] + 1})
        where = self.square_name(square)
        events.append(
            Upgraded((self.ship_name(p, base_id), self.ship_name(p, ship_id)), where, self.ship_name(p, new_id))
        )
        if anchored:
            events.append(Anchored(self.ship_name(p, new_id), where, True))

    def _anchor(self, p: int, action: Anchor) -> list[Event]:
        ship = self.ships[p][action.ship]
        self._set(p, action.ship, ship._replace(anchored=action.anchored))
        self.anchor_done = True
        if action.anchored:
            self.anchored_now = action.ship
        return [Anchored(self.ship_name(p, action.ship), self.square_name(ship.square), action.anchored)]

    def _retire(self, fleet: int, ship_id: str) -> None:
        """The ship leaves the game (sunk, or spent in a capture or an upgrade)."""
        ship = self.ships[fleet].pop(ship_id)
        if ship.square != RESERVE and self.board[ship.square] == (fleet, ship_id):
            self._vacate(ship.square)
        self.lost = _replaced(self.lost, fleet, (*self.lost[fleet], ship_id))

    def _commission(self, fleet: int, kind: str, square: int, anchored: bool) -> str:
        """A ship new to the fleet (a prize or an upgrade) gets the next unused number of its type."""
        used = [ship_number(i) for i in (*self.ships[fleet], *self.lost[fleet]) if ship_kind(i) == kind]
        number = max(used, default=0) + 1
        ship_id = kind if number == 1 else f"{kind}{number}"
        self._set(fleet, ship_id, Ship(kind, square, anchored))
        return ship_id

    def _set(self, fleet: int, ship_id: str, ship: Ship) -> None:
        """Record a ship's place and anchoring; the board and the position codes follow."""
        self.ships[fleet][ship_id] = ship
        if ship.square != RESERVE:
            self.board[ship.square] = (fleet, ship_id)
            self.codes[ship.square] = _SHIP_CODES[fleet, ship.kind, ship.anchored]

    def _vacate(self, square: int) -> None:
        self.board[square] = None
        self.codes[square] = "."

    def _turn_is_over(self, p: int) -> bool:
        """The turn passes by itself once the player has nothing left to decide."""
        if self.in_opening(p):
            return self.fleet_done
        if self.fleet_done:
            return self.anchor_done or not self._has_anchor_action(p)
        return self.anchor_done and not self._has_fleet_action(p)

    def _pass_turn(self, events: list[Event]) -> None:
        p = self.to_move
        self.turns_played = _replaced(self.turns_played, p, self.turns_played[p] + 1)
        if self.eventful:
            self.quiet_turns = 0
            self.history = []  # an eventful turn can never be undone, so older positions cannot recur
        else:
            self.quiet_turns += 1
        self.to_move = 1 - p
        self.fleet_done = self.anchor_done = self.eventful = False
        self.anchored_now = None
        key = self.repetition_key()
        self.history.append(key)
        events.append(PhaseChanged(PLAYERS[self.to_move], "play", sum(self.turns_played) + 1))
        options = self.options
        if options.repetition_draw and self.history.count(key) >= 3:
            self._finish(None, "the same position arose for the third time", events)
        elif options.quiet_turn_draw and self.quiet_turns >= options.quiet_turn_limit:
            self._finish(None, f"{options.quiet_turn_limit} turns without an attack, placement or upgrade", events)

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
        if winner is None:
            self.outcome = Outcome((0.0, 0.0), "draw", reason)
        else:
            returns = tuple(1.0 if f == winner else -1.0 for f in range(len(PLAYERS)))
            self.outcome = Outcome(returns, PLAYERS[winner], reason)
        events.append(GameOver(self.outcome.result, reason))

    # --- keys ------------------------------------------------------------------------------------
    def repetition_key(self) -> str:
        """The ships on the board (type, colour, anchoring) and the player to move.

        Within the repetition window (since the last placement, attack or upgrade) reserves,
        upgrade counts and the opening cannot differ, so the board is enough.
        """
        return PLAYERS[self.to_move][0] + "".join(self.codes)

    def position_key(self) -> str:
        reserves = ",".join("".join(sorted(ship_kind(i) for i in self.reserve(p))) for p in range(2))
        upgrades = ",".join(str(tuple(u.values())) for u in self.upgrades)
        turn = f"{self.fleet_done:d}{self.anchor_done:d}{self.anchored_now or ''}"
        return f"{self.repetition_key()}|{reserves}|{upgrades}|{self.turns_played}|{turn}"

    # --- copies and JSON -------------------------------------------------------------------------
    def clone(self) -> PirateChessState:
        copy = PirateChessState.__new__(PirateChessState)
        copy.__dict__.update(self.__dict__)
        copy.board = self.board.copy()
        copy.codes = self.codes.copy()
        copy.ships = [self.ships[0].copy(), self.ships[1].copy()]
        copy.history = self.history.copy()
        return copy

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        names = self.geometry.names
        return {
            "game": self.game.name,
            "options": self.options.to_json(),
            "to_move": PLAYERS[self.to_move],
            "fleets": {
                PLAYERS[p]: {
                    "ships": [
                        {
                            "id": ship_id,
                            "square": None if ship.square == RESERVE else names[ship.square],
                            "anchored": ship.anchored,
                        }
                        for ship_id, ship in self.ships[p].items()
                    ],
                    "lost": list(self.lost[p]),
                    "turns_played": self.turns_played[p],
                    "upgrades": dict(self.upgrades[p]),
                }
                for p in range(len(PLAYERS))
            },
            "turn": {
                "fleet_action": self.fleet_done,
                "anchor_action": self.anchor_done,
                "anchored_now": self.anchored_now,
                "eventful": self.eventful,
            },
            "quiet_turns": self.quiet_turns,
            "history": list(self.history),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> PirateChessState:
        """Inverse of to_json; RecordError when the data is corrupt or impossible."""
        try:
            state = cls(game, Options.parse(data["options"]))
            state.to_move = PLAYERS.index(data["to_move"])
            lost, turns, upgrades = [], [], []
            for p, player in enumerate(PLAYERS):
                fleet = data["fleets"][player]
                for entry in fleet["ships"]:
                    square = RESERVE if entry["square"] is None else state.geometry.index[entry["square"]]
                    state.add_ship(p, _checked_id(entry["id"]), square, bool(entry["anchored"]))
                lost.append(tuple(_checked_id(i) for i in fleet["lost"]))
                turns.append(int(fleet["turns_played"]))
                upgrades.append({kind: int(fleet["upgrades"][kind]) for kind in UPGRADE_KINDS})
            state.lost, state.turns_played, state.upgrades = tuple(lost), tuple(turns), tuple(upgrades)
            turn = data["turn"]
            state.fleet_done = bool(turn["fleet_action"])
            state.anchor_done = bool(turn["anchor_action"])
            state.anchored_now = turn["anchored_now"]
            state.eventful = bool(turn["eventful"])
            state.quiet_turns = int(data["quiet_turns"])
            state.history = [str(key) for key in data["history"]]
            state.outcome = Outcome.from_json(data["outcome"])
        except RecordError:
            raise
        except ScenarioError as exc:
            raise RecordError(f"not a Pirate Chess state: bad options: {exc}") from None
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise RecordError(f"not a Pirate Chess state: {type(exc).__name__} {exc}") from None
        for p, player in enumerate(PLAYERS):
            if set(state.ships[p]) & set(state.lost[p]):
                raise RecordError(f"a {player} ship is both in the game and lost")
        return state

    def add_ship(self, fleet: int, ship_id: str, square: int, anchored: bool = False) -> None:
        """Set up one ship (reserve or board); used when building positions, not during play."""
        if ship_id in self.ships[fleet]:
            raise RecordError(f"the {PLAYERS[fleet]} fleet has two ships called {ship_id}")
        if square != RESERVE:
            if self.board[square] is not None:
                raise RecordError(f"two ships on {self.square_name(square)}")
            if anchored and not SHIP_TYPES[ship_kind(ship_id)].anchors:
                raise RecordError(f"a {ship_kind(ship_id)} cannot be anchored")
        elif anchored:
            raise RecordError(f"{ship_id} is in the reserve and cannot be anchored")
        self._set(fleet, ship_id, Ship(ship_kind(ship_id), square, anchored))

    # --- notation --------------------------------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        names = self.geometry.names
        if isinstance(action, Place):
            upgrade = f" upgrade {action.upgrade}" if action.upgrade else ""
            return f"place {action.ship} {names[action.square]}{upgrade}"
        if isinstance(action, Move):
            course = f"{names[action.origin]}{'x' if action.attack else '-'}{names[action.destination]}"
            attack = f" {action.attack}" if action.attack else ""
            upgrade = f" upgrade {action.upgrade}" if action.upgrade else ""
            return f"move {action.ship} {course}{attack}{upgrade}"
        if isinstance(action, Anchor):
            return f"{'anchor' if action.anchored else 'weigh'} {action.ship}"
        if isinstance(action, End):
            return "end"
        raise NotationError("action", f"{action!r} is not a Pirate Chess action")

    def parse_action(self, text: str, player: int | None = None) -> Action:
        words = text.split()
        if not words:
            raise NotationError("verb", "an action starts with place, move, anchor, weigh or end", text)
        verb, arguments = words[0].lower(), words[1:]
        if verb == "end":
            _expect_words(arguments, 0, text)
            return END
        if verb in ("anchor", "weigh"):
            _expect_words(arguments, 1, text)
            return Anchor(_parse_ship(arguments[0], text), verb == "anchor")
        if verb == "place":
            upgrade = _parse_upgrade(arguments[2:], text)
            _expect_words(arguments, 4 if upgrade else 2, text)
            return Place(_parse_ship(arguments[0], text), self._parse_square(arguments[1], "square", text), upgrade)
        if verb == "move":
            if len(arguments) < 2:
                raise NotationError("arguments", "a move reads like 'move Barque c3-d4'", text)
            ship = _parse_ship(arguments[0], text)
            course = _SAIL.match(arguments[1].lower())
            if not course:
                raise NotationError("course", "a course reads like c3-d4, or c3xe4 for an attack", text)
            origin = self._parse_square(course.group(1), "origin", text)
            destination = self._parse_square(course.group(3), "destination", text)
            rest = arguments[2:]
            attack = ""
            if course.group(2) == "x":
                if not rest or rest[0].lower() not in (SINK, CAPTURE):
                    raise NotationError("attack", "an attack ends with 'sink' or 'capture'", text)
                attack, rest = rest[0].lower(), rest[1:]
            upgrade = _parse_upgrade(rest, text)
            if len(rest) != (2 if upgrade else 0):
                raise NotationError("arguments", f"unexpected {' '.join(rest)!r}", text)
            return Move(ship, origin, destination, attack, upgrade)
        raise NotationError("verb", "an action starts with place, move, anchor, weigh or end", text)

    def _parse_square(self, word: str, field: str, text: str) -> int:
        square = self.geometry.index.get(word.lower())
        if square is None:
            size = self.options.size
            raise NotationError(field, f"not a square of the {size}x{size} board: {word!r}", text)
        return square


def _replaced(items: tuple, index: int, value: Any) -> tuple:
    """A copy of a per-fleet tuple with one entry replaced (those tuples are shared by clones)."""
    return (*items[:index], value, *items[index + 1 :])


def _parse_ship(word: str, text: str) -> str:
    match = _SHIP_ID.match(word)
    kind = _KIND_NAMES.get(match.group(1).lower()) if match else None
    if kind is None:
        raise NotationError("ship", f"a ship is a type name with an optional number 2 or more: {word!r}", text)
    number = match.group(2)
    if number == "1":
        raise NotationError("ship", f"the first {kind} is written without a number", text)
    return kind + (number or "")


def _parse_upgrade(words: list[str], text: str) -> str:
    """'upgrade Frigate' / 'upgrade Pirate' at the end of a place or move, else ''."""
    if not words or words[0].lower() != "upgrade":
        return ""
    if len(words) < 2 or words[1].lower() not in _UPGRADE_NAMES:
        raise NotationError("upgrade", f"an upgrade makes a {' or a '.join(UPGRADE_KINDS)}", text)
    return _UPGRADE_NAMES[words[1].lower()]


def _expect_words(arguments: list[str], count: int, text: str) -> None:
    if len(arguments) != count:
        raise NotationError("arguments", f"expected {count} word(s) after the verb, got {len(arguments)}", text)


def _checked_id(value: Any) -> str:
    if not isinstance(value, str) or not _SHIP_ID.match(value) or ship_kind(value) not in SHIP_TYPES:
        raise RecordError(f"not a ship id: {value!r}")
    return value
