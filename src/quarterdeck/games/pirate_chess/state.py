"""A Pirate Chess position and its turn (seed 004: "Each turn normally consists of two actions",
"Each side must place at least 3 ships on the board before any attacking moves can be made" and
"How to WIN the GAME").

A turn is a short sequence of small actions by one fleet: at most one fleet action (`Place` a ship
from the reserve, or `Move` one on the board) and at most one anchor action (`Anchor`, which also
weighs anchor), in either order, then `End` when the player declines what is left. The turn passes
by itself as soon as the player has nothing left to decide (see `_turn_is_over`). Here: the turn,
the opening, the end of the game (a fleet with no ship on the board loses; the draws of
shared/design/rules-decisions.md) and the position's bookkeeping. Placing and moving are in
movement.py, anchoring in anchoring.py, upgrades in upgrade.py, the notation in actions.py.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core.errors import IllegalAction, RecordError, ScenarioError
from ...core.events import Event, GameOver, PhaseChanged
from ...core.protocol import TERMINAL, Action, Game, Outcome, State
from ...core.words import counted
from .actions import END, Anchor, End, Move, Place, action_text, checked_ship_id, parse_action
from .anchoring import anchor, anchor_actions, check_anchor, has_anchor_action
from .movement import check_move, check_place, geometry, has_move, moves, place, placements, sail
from .scenario import (
    OPENING_TURNS,
    PLAYERS,
    RESERVE,
    SHIP_TYPES,
    UPGRADE_KINDS,
    UPGRADE_LIMIT,
    Options,
    ship_kind,
    ship_number,
)


class Ship(NamedTuple):
    kind: str
    square: int  # RESERVE, or a square index
    anchored: bool


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
            actions = placements(self, p, with_upgrades=False)
        else:
            fleet_actions = [] if self.fleet_done else self._fleet_actions(p)
            actions = list(fleet_actions)
            if not self.anchor_done:
                actions += anchor_actions(self, p, fleet_actions)
            if self.fleet_done or not fleet_actions:
                actions.append(END)
        if piece is not None:
            actions = [a for a in actions if self.action_piece(a) == piece]
        return actions

    def action_piece(self, action: Action) -> str | None:
        return None if isinstance(action, End) else action.ship

    def _fleet_actions(self, p: int) -> list[Action]:
        actions = placements(self, p, with_upgrades=True)
        moves(self, p, actions)
        return actions

    def _has_fleet_action(self, p: int) -> bool:
        # A reserve ship can always be placed: at most 16 ships sail on at least 36 squares.
        return bool(self.reserve(p)) or has_move(self, p)

    # --- validation: every refusal names its rule ------------------------------------------------
    def _validate(self, action: Action, player: int) -> None:
        if isinstance(action, Place):
            self._check_turn_for_fleet_action()
            check_place(self, player, action)
        elif isinstance(action, Move):
            self._check_turn_for_move(action, player)
            check_move(self, player, action)
        elif isinstance(action, Anchor):
            self._check_turn_for_anchor(player)
            check_anchor(self, player, action)
        elif isinstance(action, End):
            self._check_end(player)
        else:
            raise IllegalAction("action", f"{action!r} is not a Pirate Chess action")

    def _check_turn_for_move(self, action: Move, p: int) -> None:
        if self.in_opening(p):
            target = self.board[action.destination] if 0 <= action.destination < len(self.board) else None
            if target is not None and target[0] != p:
                raise IllegalAction("no-attack-in-opening", "no attack until both players have placed three ships")
            raise IllegalAction("opening-placement", "each of a player's first three turns must place a ship")
        self._check_turn_for_fleet_action()

    def _check_turn_for_fleet_action(self) -> None:
        if self.fleet_done:
            raise IllegalAction("one-fleet-action", "this turn has already placed or moved a ship")

    def _check_turn_for_anchor(self, p: int) -> None:
        if self.in_opening(p):
            raise IllegalAction("opening-placement", "in the opening the placed ship is anchored with the placement")
        if self.anchor_done:
            raise IllegalAction("one-anchor-action", "this turn has already anchored or weighed a ship")

    def _check_end(self, p: int) -> None:
        if self.in_opening(p):
            raise IllegalAction("opening-placement", "each of a player's first three turns must place a ship")
        if not self.fleet_done and self._has_fleet_action(p):
            raise IllegalAction("fleet-action-required", "a ship can still be placed or moved, so the turn must do it")

    def own_ship_on_board(self, p: int, ship_id: str) -> Ship:
        """Fleet `p`'s ship `ship_id`, refused unless it exists and is on the board."""
        ship = self.ships[p].get(ship_id)
        if ship is None:
            raise IllegalAction("no-such-ship", f"the {PLAYERS[p]} fleet has no ship called {ship_id}")
        if ship.square == RESERVE:
            raise IllegalAction("not-on-board", f"{ship_id} is still in the reserve")
        return ship

    def check_square(self, square: int) -> None:
        if not 0 <= square < len(self.board):
            raise IllegalAction("square", f"there is no square {square} on this board")

    # --- applying --------------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> list[Event]:
        p = self.to_move
        if isinstance(action, Move):
            events = sail(self, p, action)
            if action.attack:
                self._check_win(p, events)
        elif isinstance(action, Place):
            events = place(self, p, action)
        elif isinstance(action, Anchor):
            events = anchor(self, p, action)
        else:
            events = []
        if self.outcome is None and (isinstance(action, End) or self._turn_is_over(p)):
            self._pass_turn(events)
        return events

    # Changes the rule modules make through the state, so that the board, the position codes and
    # the per-fleet tuples that clones share stay consistent.
    def retire(self, fleet: int, ship_id: str) -> None:
        """The ship leaves the game (sunk, or spent in a capture or an upgrade)."""
        ship = self.ships[fleet].pop(ship_id)
        if ship.square != RESERVE:
            # Its square is empty or still its own: an attacker or joining ship is retired from the
            # origin its move has already left, and whatever ends on the square is set there after.
            self.vacate(ship.square)
        self.lost = _replaced(self.lost, fleet, (*self.lost[fleet], ship_id))

    def commission(self, fleet: int, kind: str, square: int, anchored: bool) -> str:
        """A ship new to the fleet (a prize or an upgrade) gets the next unused number of its type."""
        used = [ship_number(i) for i in (*self.ships[fleet], *self.lost[fleet]) if ship_kind(i) == kind]
        number = max(used, default=0) + 1
        ship_id = kind if number == 1 else f"{kind}{number}"
        self.set_ship(fleet, ship_id, Ship(kind, square, anchored))
        return ship_id

    def set_ship(self, fleet: int, ship_id: str, ship: Ship) -> None:
        """Record a ship's place and anchoring; the board and the position codes follow."""
        self.ships[fleet][ship_id] = ship
        if ship.square != RESERVE:
            self.board[ship.square] = (fleet, ship_id)
            self.codes[ship.square] = _SHIP_CODES[fleet, ship.kind, ship.anchored]

    def vacate(self, square: int) -> None:
        self.board[square] = None
        self.codes[square] = "."

    # --- the turn and the end of the game --------------------------------------------------------
    def _turn_is_over(self, p: int) -> bool:
        """The turn passes by itself once the player has nothing left to decide."""
        if self.in_opening(p):
            return self.fleet_done
        if self.fleet_done:
            return self.anchor_done or not has_anchor_action(self, p)
        return self.anchor_done and not self._has_fleet_action(p)

    def _check_win(self, p: int, events: list[Event]) -> None:
        """The book: "When your enemy has no ships left on the board then you are the winner"."""
        enemy = 1 - p
        if not self.on_board(enemy) and self.opening_over():
            self._finish(p, f"{PLAYERS[enemy]} has no ship left on the board", events)

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
            turns = counted(options.quiet_turn_limit, "turn")
            self._finish(None, f"{turns} without an attack, placement or upgrade", events)

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

    def position_key(self) -> tuple:
        # A tuple, not one string: the search keys every position it evaluates, and joining the parts
        # into text took as long as the evaluation itself.
        reserves = tuple("".join(sorted(ship_kind(i) for i in self.reserve(p))) for p in range(len(PLAYERS)))
        upgrades = tuple(tuple(u.values()) for u in self.upgrades)
        # actions name ships, and two ships of one type may carry either name (Frigate, Frigate2):
        # the names on the board belong in the key, or a search would offer one position's moves in the other
        names = ",".join(entry[1] for entry in self.board if entry is not None)
        return (self.repetition_key(), names, reserves, upgrades, self.turns_played, self.quiet_turns,
                self.fleet_done, self.anchor_done, self.anchored_now)

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
                    state.add_ship(p, checked_ship_id(entry["id"]), square, bool(entry["anchored"]))
                lost.append(tuple(checked_ship_id(i) for i in fleet["lost"]))
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
        self.set_ship(fleet, ship_id, Ship(ship_kind(ship_id), square, anchored))

    # --- notation --------------------------------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        return action_text(action, self.geometry.names)

    def parse_action(self, text: str, player: int | None = None) -> Action:
        return parse_action(text, self.geometry)


def _replaced(items: tuple, index: int, value: Any) -> tuple:
    """A copy of a per-fleet tuple with one entry replaced (those tuples are shared by clones)."""
    return (*items[:index], value, *items[index + 1 :])
