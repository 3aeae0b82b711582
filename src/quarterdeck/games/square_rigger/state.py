"""Square Rigger Chess (seed 000): the state of one game and whose decision it is.

The book's turn ("General notes on scenarios and tactics": "Play takes place by alternate moves")
is played as small decisions (actions.py): the side to move moves its ships (movement.py, checked
by non_adjacency.py), fires (fire.py), the enemy defends (fire.py), all hits land together
(damage.py), victory is checked (victory.py) and the next side's turn begins (turn.py). This module
holds the position and joins them: legal actions, validation, applying, copies and JSON.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator
from copy import deepcopy
from typing import Any

from ...core.dice import Dice
from ...core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from ...core.events import Event
from ...core.geometry import Compass, Square
from ...core.protocol import TERMINAL, Action, Game, Outcome, State
from . import actions, fire, movement, non_adjacency, turn, victory
from .actions import AssignDefence, AssignFire, EndDefence, EndFire, EndMove, EscapeShip, MoveShip
from .fire import FireLine
from .scenario import LAND, Setup, build_setup
from .turn import DEFENCE, FIRE, MOVE


class SquareRiggerState(State):
    def __init__(self, game: Game, setup: Setup, seed: int = 0):
        self.game = game
        self.setup = setup
        self.dice = Dice(seed)  # the game has no chance; kept so every state carries its dice
        self.outcome: Outcome | None = None
        self.hits: dict[str, int] = {name: 0 for name in (*setup.ships, *setup.batteries)}
        # Hits that strike a piece: the last entry of its damage track (shared, never changes).
        self.striking_hits: dict[str, int] = {
            name: len(info.track) - 1 for name, info in (*setup.ships.items(), *setup.batteries.items())
        }
        self.square: dict[str, Square] = {name: ship.start for name, ship in setup.ships.items()}
        self.heading: dict[str, Compass] = {name: ship.heading for name, ship in setup.ships.items()}
        self.escaped: set[str] = set()
        self.occupant: dict[Square, str] = {sq: name for name, sq in self.square.items()}
        self.occupant.update({b.square: name for name, b in setup.batteries.items()})
        self.wind_from = setup.wind_from
        self.wind_strength = setup.wind_strength
        self.side = 0
        self.turn = 1
        self.phase = MOVE
        self.seat = 0
        self.moved: set[str] = set()  # ships that have made their move this turn
        self.fire: list[FireLine] = []
        self.defence: dict[tuple[str, int], int] = {}
        self.seen: dict[str, int] = {}  # repetition counts of positions at the start of a side's turn
        turn.start_side_turn(self)

    # --- pieces ---------------------------------------------------------------------------
    def factors(self, name: str) -> tuple[int, int, int]:
        info = self.setup.ships.get(name) or self.setup.batteries[name]
        return info.track[self.hits[name]]  # hits stop at the track's end (damage.resolve, state_from_json)

    def side_of(self, name: str) -> str:
        return (self.setup.ships.get(name) or self.setup.batteries[name]).side

    def squadron_of(self, name: str) -> str:
        return (self.setup.ships.get(name) or self.setup.batteries[name]).squadron

    def is_battery(self, name: str) -> bool:
        return name in self.setup.batteries

    def location(self, name: str) -> Square | None:
        if name in self.setup.batteries:
            return self.setup.batteries[name].square
        return None if name in self.escaped else self.square[name]

    def is_active(self, name: str) -> bool:
        """Afloat (or standing) and not struck (silenced): able to fire, defend and be fired on."""
        return self.hits[name] < self.striking_hits[name] and name not in self.escaped

    def is_struck(self, name: str) -> bool:
        return self.hits[name] >= self.striking_hits[name] and name not in self.escaped

    def pieces(self, side: str | None = None, squadron: str | None = None) -> Iterator[str]:
        for name in (*self.setup.ships, *self.setup.batteries):
            if side is not None and self.side_of(name) != side:
                continue
            if squadron is not None and self.squadron_of(name) != squadron:
                continue
            yield name

    # Questions about a position that the rule modules answer, offered as methods as well:
    # `state.cap(name, bearing)` is `fire.cap(state, name, bearing)`.
    cap = fire.cap
    direction_of = fire.direction_of
    fire_target = fire.fire_target
    fire_used = fire.fire_used
    incoming = fire.incoming
    hits_on = fire.hits_on
    squares_per_point = movement.squares_per_point
    reachable = movement.reachable
    points = victory.points

    # --- seats and phases -------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.setup.seat_name(i) for i in range(len(self.setup.seats)))

    def team_of(self, player: int) -> str:
        return self.setup.seats[player][0]

    def current_player(self) -> int:
        return TERMINAL if self.outcome is not None else self.seat

    @property
    def side_name(self) -> str:
        return self.setup.sides[self.side]

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[Action]:
        """The decisions open now.

        Decision (non-adjacency while moving): the full list offers only moves that keep every pair
        of friends apart at every step, so any sequence of listed actions can be committed and search
        never paints itself into a corner. Asked for one ship, the list is complete: it also holds end
        positions next to a friend that has not moved yet (she must then sail away before the commit).
        """
        if self.outcome is not None or (player is not None and player != self.seat):
            return []
        if piece is not None and piece not in self.hits:
            return []
        side, squadron = self.setup.seats[self.seat]
        names = [piece] if piece is not None else list(self.pieces(side, squadron))
        found: list[Action] = []
        if self.phase == MOVE:
            for name in names:
                if name in self.setup.ships and movement.may_move(self, name):
                    found.extend(movement.options(self, name, strict=piece is None))
            if piece is None and non_adjacency.violation(self, side) is None:
                found.append(EndMove())
            return found
        options = fire.fire_options if self.phase == FIRE else fire.defence_options
        for name in names:
            if self.side_of(name) == side and self.squadron_of(name) == squadron:
                found.extend(options(self, name))
        if piece is None:
            found.append(EndFire() if self.phase == FIRE else EndDefence())
        return found

    # --- validation and applying ----------------------------------------------------------
    def _validate(self, action: Action, player: int) -> None:
        side, squadron = self.setup.seats[self.seat]
        if isinstance(action, (MoveShip, EscapeShip)):
            self._require_phase(MOVE, "moving")
            self._own_piece(action.ship, side, squadron)
            movement.validate(self, action)
        elif isinstance(action, EndMove):
            self._require_phase(MOVE, "end-move")
            non_adjacency.validate(self, side)
        elif isinstance(action, AssignFire):
            self._require_phase(FIRE, "fire")
            self._own_piece(action.piece, side, squadron)
            fire.validate_fire(self, action, side)
        elif isinstance(action, EndFire):
            self._require_phase(FIRE, "end-fire")
        elif isinstance(action, AssignDefence):
            self._require_phase(DEFENCE, "defence")
            self._own_piece(action.piece, side, squadron)
            fire.validate_defence(self, action)
        elif isinstance(action, EndDefence):
            self._require_phase(DEFENCE, "end-defence")
        else:
            raise IllegalAction("notation", f"not a Square Rigger Chess action: {action!r}")

    def _require_phase(self, phase: str, what: str) -> None:
        if self.phase != phase:
            raise IllegalAction("turn-sequence", f"{what} belongs to the {phase} phase; this is the {self.phase} phase")

    def _own_piece(self, name: str, side: str, squadron: str) -> None:
        if name not in self.hits:
            raise IllegalAction("unknown-piece", f"there is no ship or battery called {name}")
        if self.side_of(name) != side:
            raise IllegalAction("own-pieces-only", f"{name} belongs to {self.side_of(name)}")
        if self.squadron_of(name) != squadron:
            raise IllegalAction("squadron-command", f"{name} is in the {self.squadron_of(name)} squadron")

    def _apply(self, action: Action, player: int) -> list[Event]:
        if isinstance(action, MoveShip):
            return movement.move(self, action)
        if isinstance(action, EscapeShip):
            return movement.escape(self, action)
        if isinstance(action, EndMove):
            return turn.end_phase(self, MOVE)
        if isinstance(action, AssignFire):
            return fire.assign_fire(self, action)
        if isinstance(action, EndFire):
            return turn.end_phase(self, FIRE)
        if isinstance(action, AssignDefence):
            return fire.assign_defence(self, action)
        return turn.end_phase(self, DEFENCE)

    # --- notation (actions.py) -----------------------------------------------------------------
    action_piece = staticmethod(actions.action_piece)
    action_to_text = actions.to_text
    parse_action = actions.parse

    # --- copies and JSON ------------------------------------------------------------------------
    def clone(self) -> SquareRiggerState:
        copy = object.__new__(SquareRiggerState)
        copy.__dict__.update(self.__dict__)
        copy.dice = self.dice.clone()
        copy.hits = dict(self.hits)
        copy.square = dict(self.square)
        copy.heading = dict(self.heading)
        copy.escaped = set(self.escaped)
        copy.occupant = dict(self.occupant)
        copy.moved = set(self.moved)
        copy.fire = list(self.fire)
        copy.defence = dict(self.defence)
        copy.seen = dict(self.seen)
        return copy

    def repetition_key(self) -> str:
        """The position as the repetition rule sees it: side to move, every piece, the wind."""
        ships = [
            None if n in self.escaped else [*self.square[n], int(self.heading[n]), self.hits[n]]
            for n in self.setup.ships
        ]
        batteries = [self.hits[n] for n in self.setup.batteries]
        return json.dumps([self.side, ships, batteries, int(self.wind_from), self.wind_strength])

    def position_key(self) -> Hashable:
        return (self.repetition_key(), self.phase, self.seat, frozenset(self.moved), tuple(self.fire),
                tuple(sorted(self.defence.items())))

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        grid = self.setup.grid
        return {
            "game": self.game.name,
            # Copies: the setup is shared by every state of the game, and the caller may edit the data.
            "setup": deepcopy(self.setup.source),
            "options": deepcopy(self.setup.options),
            # the rolls to come are nobody's to know: only the whole saved state carries the dice
            "dice": self.dice.to_json() if viewer is None else None,
            "turn": self.turn,
            "side": self.side_name,
            "phase": self.phase,
            "seat": self.players[self.seat],
            "wind": {"from": self.wind_from.name, "strength": self.wind_strength},
            "ships": {
                name: {
                    "side": info.side,
                    "class": info.ship_class,
                    "role": info.role,
                    "squadron": info.squadron,
                    "square": None if name in self.escaped else grid.name(self.square[name]),
                    "heading": self.heading[name].name,
                    "hits": self.hits[name],
                    "factors": list(self.factors(name)),
                    "struck": self.is_struck(name),
                    "escaped": name in self.escaped,
                }
                for name, info in self.setup.ships.items()
            },
            "batteries": {
                name: {
                    "side": info.side,
                    "square": grid.name(info.square),
                    "field": sorted(d.name for d in info.field),
                    "hits": self.hits[name],
                    "F": self.factors(name)[0],
                    "silenced": self.is_struck(name),
                }
                for name, info in self.setup.batteries.items()
            },
            "moved": sorted(self.moved),
            "fire": [
                {"piece": f.piece, "bearing": actions.bearing_label(self, f.piece, f.bearing), "amount": f.amount,
                 "target": f.target, "distance": f.distance, "effect": f.effect,
                 "arrives": actions.bearing_label(self, f.target, f.target_bearing)}
                for f in self.fire
            ],
            "defence": [
                {"piece": piece, "bearing": actions.bearing_label(self, piece, bearing), "amount": amount}
                for (piece, bearing), amount in self.defence.items()
            ],
            "seen": dict(self.seen),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


def state_from_json(game: Game, data: dict[str, Any]) -> SquareRiggerState:
    """Rebuild a state from `to_json()` output; RecordError names what is wrong."""
    try:
        return _state_from_json(game, data)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, NotationError, ScenarioError) as exc:
        raise RecordError(f"corrupt Square Rigger Chess state: {type(exc).__name__}: {exc}") from None


def _state_from_json(game: Game, data: dict[str, Any]) -> SquareRiggerState:
    setup = build_setup(data["setup"], data.get("options") or {})
    state = SquareRiggerState(game, setup, 0)
    grid = setup.grid

    def known(names, what: str) -> set[str]:
        names = set(names)
        unknown = names - set(state.hits)
        if unknown:
            raise RecordError(f"{what}: unknown pieces {', '.join(sorted(unknown))}")
        return names

    if set(data["ships"]) != set(setup.ships) or set(data["batteries"]) != set(setup.batteries):
        raise RecordError("ships and batteries must be exactly those of the setup")
    state.dice = Dice.from_json(data["dice"])
    state.turn = int(data["turn"])
    state.side = setup.sides.index(data["side"])
    state.phase = data["phase"]
    if state.phase not in (MOVE, FIRE, DEFENCE):
        raise RecordError(f"unknown phase {state.phase!r}")
    state.seat = list(state.players).index(data["seat"])
    seat_side = setup.seats[state.seat][0]
    if data["outcome"] is None and (seat_side == state.side_name) == (state.phase == DEFENCE):
        raise RecordError(f"seat {data['seat']} cannot act in {state.side_name}'s {state.phase} phase")
    state.wind_from = Compass.parse(data["wind"]["from"])
    state.wind_strength = data["wind"]["strength"]
    if state.wind_strength not in setup.wind_table:
        raise RecordError(f"unknown wind strength {state.wind_strength!r}")
    state.occupant = {info.square: name for name, info in setup.batteries.items()}
    for name, piece in (*data["ships"].items(), *data["batteries"].items()):
        hits = int(piece["hits"])
        if not 0 <= hits <= state.striking_hits[name]:
            raise RecordError(f"{name}: {hits} hits is outside 0..{state.striking_hits[name]}")
        state.hits[name] = hits
    for name, ship in data["ships"].items():
        state.heading[name] = Compass.parse(ship["heading"])
        if ship["escaped"]:
            state.escaped.add(name)
            continue
        square = grid.parse(ship["square"])
        if setup.terrain_at(square) == LAND or square in state.occupant:
            raise RecordError(f"{name}: {ship['square']} is land or taken")
        state.square[name] = square
        state.occupant[square] = name
    state.moved = known(data["moved"], "moved")
    state.fire = []
    for line in data["fire"]:
        piece, target = line["piece"], line["target"]
        known([piece, target], "fire")
        bearing = actions.parse_bearing(state, piece, line["bearing"], "")
        arrives = actions.parse_bearing(state, target, line["arrives"], "")
        state.fire.append(FireLine(piece, bearing, int(line["amount"]), target, int(line["distance"]),
                                   int(line["effect"]), arrives))
    state.defence = {}
    for entry in data["defence"]:
        known([entry["piece"]], "defence")
        bearing = actions.parse_bearing(state, entry["piece"], entry["bearing"], "")
        state.defence[(entry["piece"], bearing)] = int(entry["amount"])
    state.seen = {str(key): int(count) for key, count in data["seen"].items()}
    state.outcome = Outcome.from_json(data["outcome"])
    return state
