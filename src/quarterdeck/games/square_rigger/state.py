"""Square Rigger Chess (seed 000): the state and every rule of play.

A side's turn is a sequence of small decisions (see docs/rules/square-rigger.md):

1. movement, squadron by squadron: ``move <ship> <square> <heading>`` or ``escape <ship> <edge>``
   for any ships, then ``end-move`` (checked against the non-adjacency rule);
2. fire, squadron by squadron: ``fire <piece> <bearing> <amount>`` assignments, then ``end-fire``;
3. defence by the other side, squadron by squadron, for every piece fired on:
   ``defend <piece> <bearing> <amount>``, then ``end-defence``;
4. resolution, all at once, then the next side's turn.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from ...core.dice import Dice
from ...core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from ...core.events import (
    Defended,
    Escaped,
    Event,
    Fired,
    GameOver,
    Hit,
    Moved,
    PhaseChanged,
    Silenced,
    Struck,
    Turned,
    WindChanged,
)
from ...core.geometry import Compass, Square
from ...core.protocol import TERMINAL, Action, Game, Outcome, State
from .scenario import HARBOUR, LAND, Setup, build_setup

MOVE, FIRE, DEFENCE = "move", "fire", "defence"
BEARINGS = ("fore", "stbd-bow", "stbd-beam", "stbd-quarter", "aft", "port-quarter", "port-beam", "port-bow")
EDGE_OF = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
STARBOARD_OF = {heading: heading.turned(1) for heading in Compass}  # a turn point, precomputed
PORT_OF = {heading: heading.turned(-1) for heading in Compass}


# --- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveShip:
    ship: str
    square: Square
    heading: Compass


@dataclass(frozen=True, slots=True)
class EscapeShip:
    ship: str
    edge: str


@dataclass(frozen=True, slots=True)
class EndMove:
    pass


@dataclass(frozen=True, slots=True)
class AssignFire:
    piece: str
    bearing: int  # ships: relative to the heading (0 fore ... 7 port bow); batteries: a compass point
    amount: int


@dataclass(frozen=True, slots=True)
class EndFire:
    pass


@dataclass(frozen=True, slots=True)
class AssignDefence:
    piece: str
    bearing: int
    amount: int


@dataclass(frozen=True, slots=True)
class EndDefence:
    pass


@dataclass(frozen=True, slots=True)
class FireLine:
    """One fire assignment as resolved: who fires, along which line, at whom, with what effect."""

    piece: str
    bearing: int
    amount: int
    target: str
    distance: int
    effect: int
    target_bearing: int  # the bearing of the target on which this fire arrives


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
        self.settled: set[str] = set()  # ships of squadrons that have committed their movement
        self.moved: set[str] = set()  # ships that have made their move this turn
        self.fire: list[FireLine] = []
        self.defence: dict[tuple[str, int], int] = {}
        self.seen: dict[str, int] = {}  # repetition counts of positions at the start of a side's turn
        self._start_side_turn(first=True)

    # --- pieces ---------------------------------------------------------------------------
    def factors(self, name: str) -> tuple[int, int, int]:
        info = self.setup.ships.get(name) or self.setup.batteries[name]
        return info.track[min(self.hits[name], len(info.track) - 1)]

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

    def cap(self, name: str, bearing: int) -> int:
        """The fire chart: most firepower a piece may fire or defend with on one bearing."""
        firepower = self.factors(name)[0]
        if self.is_battery(name):
            return firepower if Compass(bearing) in self.setup.batteries[name].field else 0
        return max(0, firepower - self.setup.cap_reduction[bearing])

    def direction_of(self, name: str, bearing: int) -> Compass:
        """The compass direction of a bearing (batteries' bearings are compass points already)."""
        if self.is_battery(name):
            return Compass(bearing)
        return self.heading[name].turned(bearing)

    def bearing_towards(self, name: str, direction: Compass) -> int:
        if self.is_battery(name):
            return int(direction)
        return (direction - self.heading[name]) % 8

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

    def _seats_of(self, side: str) -> list[int]:
        return [i for i, (s, _) in enumerate(self.setup.seats) if s == side]

    def _seat_has_work(self, seat: int, phase: str) -> bool:
        side, squadron = self.setup.seats[seat]
        if phase == MOVE:
            return any(self.is_active(n) and not self.is_battery(n) for n in self.pieces(side, squadron))
        if phase == FIRE:
            return any(self._fire_options(n) for n in self.pieces(side, squadron))
        return any(line.target in set(self.pieces(side, squadron)) for line in self.fire)

    def _next_seat(self, side: str, phase: str, after: int = -1) -> int | None:
        for seat in self._seats_of(side):
            if seat > after and self._seat_has_work(seat, phase):
                return seat
        return None

    def _start_side_turn(self, first: bool = False) -> list[Event]:
        events: list[Event] = []
        self.phase = MOVE
        self.settled = set()
        self.moved = set()
        self.fire = []
        self.defence = {}
        if self.setup.repetition_draw:
            key = self.repetition_key()
            self.seen[key] = self.seen.get(key, 0) + 1
            if self.seen[key] >= 3:
                return events + self._finish(None, "the same position arose three times with the same side to move")
        seat = self._next_seat(self.side_name, MOVE)
        if seat is None:
            seat = self._next_seat(self.side_name, FIRE)
            if seat is None:
                # Nothing of this side can move or fire now (batteries without a target): it passes.
                if not any(self._seat_has_work(s, phase) for s in range(len(self.setup.seats))
                           for phase in (MOVE, FIRE)):
                    return events + self._end_at_turn_limit("no side has anything left that can move or fire")
                return events + self._next_side()
            self.phase = FIRE
        self.seat = seat
        events.append(PhaseChanged(self.players[self.seat], self.phase, self.turn))
        return events

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
        actions: list[Action] = []
        if self.phase == MOVE:
            for name in names:
                if name in self.setup.ships and self._may_move(name):
                    actions.extend(self._move_options(name, strict=piece is None))
            if piece is None and self._spacing_violation(side, squadron) is None:
                actions.append(EndMove())
        elif self.phase == FIRE:
            for name in names:
                if self.side_of(name) == side and self.squadron_of(name) == squadron:
                    actions.extend(self._fire_options(name))
            if piece is None:
                actions.append(EndFire())
        else:
            for name in names:
                if self.side_of(name) == side and self.squadron_of(name) == squadron:
                    actions.extend(self._defence_options(name))
            if piece is None:
                actions.append(EndDefence())
        return actions

    def _may_move(self, name: str) -> bool:
        info = self.setup.ships[name]
        side, squadron = self.setup.seats[self.seat]
        return info.side == side and info.squadron == squadron and self.is_active(name) and name not in self.moved

    # --- movement ------------------------------------------------------------------------------
    def squares_per_point(self, heading: Compass) -> int:
        """The wind chart: squares one move point carries a ship on this heading."""
        off_wind = min((heading - self.wind_from) % 8, (self.wind_from - heading) % 8)
        return self.setup.wind_table[self.wind_strength][off_wind]

    def reachable(self, name: str) -> tuple[set[tuple[Square, Compass]], set[str]]:
        """Every end position (square, heading) and exit edge a ship can reach with its S and T."""
        _, speed, turning = self.factors(name)
        start = (self.square[name], self.heading[name], speed, turning)
        exits = self.setup.ships[name].exits
        ends: set[tuple[Square, Compass]] = set()
        edges: set[str] = set()
        seen = {start}
        queue = deque([start])
        while queue:
            square, heading, s_left, t_left = queue.popleft()
            ends.add((square, heading))
            following: list[tuple[Square, Compass, int, int]] = []
            if t_left:
                following.append((square, STARBOARD_OF[heading], s_left, t_left - 1))
                following.append((square, PORT_OF[heading], s_left, t_left - 1))
            if s_left:
                run = self.squares_per_point(heading)
                landing, edge = self._sail(name, square, heading, run, exits) if run else (None, None)
                if edge:
                    edges.add(edge)
                elif landing is not None:
                    following.append((landing, heading, s_left - 1, t_left))
            for node in following:
                if node not in seen:
                    seen.add(node)
                    queue.append(node)
        return ends, edges

    def _sail(self, name: str, square: Square, heading: Compass, run: int, exits: frozenset[str]):
        """Sail `run` squares straight ahead: (landing square, None), (None, exit edge) or (None, None)."""
        dx, dy = heading.delta
        x, y = square
        grid = self.setup.grid
        for _ in range(run):
            x, y = x + dx, y + dy
            if not grid.contains((x, y)):
                crossed = [e for e in ("E", "W") if (x >= grid.width if e == "E" else x < 0)]
                crossed += [e for e in ("N", "S") if (y >= grid.height if e == "N" else y < 0)]
                edge = next((e for e in crossed if e in exits), None)
                return None, edge
            if self.setup.terrain[y][x] == LAND or self.occupant.get((x, y), name) != name:
                return None, None
        return (x, y), None

    def _spacing_guard(self, name: str, strict: bool) -> dict[Square, str]:
        """Squares where `name` would touch a same-side ship (the non-adjacency rule): square -> ship.

        Struck ships do not count, nor two harbour squares. `strict` guards every active friend where
        she stands now; otherwise friends of the same squadron that have not moved yet are left out
        (they may still sail off; other squadrons' ships are fixed for this commander).
        """
        side = self.setup.ships[name].side
        terrain = self.setup.terrain
        width, height = self.setup.grid.width, self.setup.grid.height
        guard: dict[Square, str] = {}
        for other, info in self.setup.ships.items():
            if other == name or info.side != side or not self.is_active(other):
                continue
            waiting = other not in self.settled and other not in self.moved
            if not strict and waiting and info.squadron == self.setup.ships[name].squadron:
                continue  # a friend of this squadron that has not moved yet may still sail away
            ox, oy = self.square[other]
            in_harbour = terrain[oy][ox] == HARBOUR
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    x, y = ox + dx, oy + dy
                    if (dx or dy) and 0 <= x < width and 0 <= y < height:
                        if not (in_harbour and terrain[y][x] == HARBOUR):
                            guard.setdefault((x, y), other)
        return guard

    def _move_options(self, name: str, strict: bool) -> list[Action]:
        ends, edges = self.reachable(name)
        here = (self.square[name], self.heading[name])
        guard = self._spacing_guard(name, strict)
        options: list[Action] = [
            MoveShip(name, square, heading)
            for square, heading in sorted(ends)
            if (square, heading) != here and square not in guard
        ]
        options.extend(EscapeShip(name, edge) for edge in sorted(edges))
        return options

    # --- fire ---------------------------------------------------------------------------------
    def line_of_fire(self, name: str, bearing: int) -> tuple[str | None, int]:
        """The first piece on a bearing's line and its distance; land stops the line (None, 0)."""
        origin = self.location(name)
        if origin is None:
            return None, 0
        dx, dy = self.direction_of(name, bearing).delta
        x, y = origin
        distance = 0
        grid = self.setup.grid
        while True:
            x, y = x + dx, y + dy
            distance += 1
            if not grid.contains((x, y)):
                return None, 0
            occupant = self.occupant.get((x, y))
            if occupant is not None:
                return occupant, distance
            if self.setup.terrain[y][x] == LAND:
                return None, 0

    def fire_used(self, name: str) -> int:
        return sum(line.amount for line in self.fire if line.piece == name)

    def _can_fire(self, name: str) -> bool:
        if not self.is_active(name):
            return False
        return self.is_battery(name) or self.setup.ships[name].armed

    def fire_target(self, name: str, bearing: int) -> tuple[str | None, int]:
        """The piece a bearing may be aimed at (an active enemy first on the line) and its distance."""
        target, distance = self.line_of_fire(name, bearing)
        if target is None or self.side_of(target) == self.side_of(name) or not self.is_active(target):
            return None, 0
        return target, distance

    def _fire_options(self, name: str) -> list[Action]:
        if not self._can_fire(name):
            return []
        remaining = self.factors(name)[0] - self.fire_used(name)
        taken = {line.bearing for line in self.fire if line.piece == name}
        options: list[Action] = []
        for bearing in range(8):
            if bearing in taken:
                continue
            top = min(self.cap(name, bearing), remaining)
            if top <= 0:
                continue
            target, distance = self.fire_target(name, bearing)
            if target is None:
                continue
            # Distance fire chart: the effect is the amount less one per square beyond the first.
            options.extend(AssignFire(name, bearing, amount) for amount in range(distance, top + 1))
        return options

    def _fire_line(self, action: AssignFire) -> FireLine:
        target, distance = self.fire_target(action.piece, action.bearing)
        assert target is not None
        travel = self.direction_of(action.piece, action.bearing)
        arrival = self.bearing_towards(target, travel.opposite())
        effect = action.amount - (distance - 1)
        return FireLine(action.piece, action.bearing, action.amount, target, distance, effect, arrival)

    def incoming(self, name: str) -> dict[int, int]:
        """Effect of the assigned fire arriving on each bearing of a piece."""
        result: dict[int, int] = {}
        for line in self.fire:
            if line.target == name:
                result[line.target_bearing] = result.get(line.target_bearing, 0) + line.effect
        return result

    def defence_used(self, name: str) -> int:
        return sum(amount for (piece, _), amount in self.defence.items() if piece == name)

    def _defence_options(self, name: str) -> list[Action]:
        if not self.is_active(name):
            return []
        remaining = self.factors(name)[0] - self.defence_used(name)
        options: list[Action] = []
        for bearing, arriving in sorted(self.incoming(name).items()):
            if (name, bearing) in self.defence:
                continue
            top = min(self.cap(name, bearing), remaining, arriving)
            options.extend(AssignDefence(name, bearing, amount) for amount in range(1, top + 1))
        return options

    def hits_on(self, name: str) -> dict[int, int]:
        """Hits per bearing from the fire and defence assigned so far."""
        return {
            bearing: arriving - self.defence.get((name, bearing), 0)
            for bearing, arriving in self.incoming(name).items()
            if arriving > self.defence.get((name, bearing), 0)
        }

    # --- validation ---------------------------------------------------------------------------
    def _validate(self, action: Action, player: int) -> None:
        side, squadron = self.setup.seats[self.seat]
        if isinstance(action, (MoveShip, EscapeShip)):
            self._validate_move(action, side, squadron)
        elif isinstance(action, EndMove):
            self._require_phase(MOVE, "end-move")
            self._validate_spacing(side, squadron)
        elif isinstance(action, AssignFire):
            self._validate_fire(action, side, squadron)
        elif isinstance(action, EndFire):
            self._require_phase(FIRE, "end-fire")
        elif isinstance(action, AssignDefence):
            self._validate_defence(action, side, squadron)
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

    def _validate_move(self, action: MoveShip | EscapeShip, side: str, squadron: str) -> None:
        self._require_phase(MOVE, "moving")
        name = action.ship
        self._own_piece(name, side, squadron)
        if self.is_battery(name):
            raise IllegalAction("batteries-fixed", f"{name} is a shore battery and cannot move")
        if name in self.escaped:
            raise IllegalAction("escaped", f"{name} has left the battle")
        if self.is_struck(name):
            raise IllegalAction("struck-inert", f"{name} has struck her colours and cannot move")
        if name in self.moved:
            raise IllegalAction("one-move-per-turn", f"{name} has already moved this turn")
        ends, edges = self.reachable(name)
        if isinstance(action, EscapeShip):
            if action.edge not in self.setup.ships[name].exits:
                raise IllegalAction("exit-edges", f"{name} may not leave the board by the {action.edge} edge")
            if action.edge not in edges:
                raise IllegalAction("movement", f"{name} cannot reach the {action.edge} edge this turn")
            return
        if (action.square, action.heading) == (self.square[name], self.heading[name]):
            raise IllegalAction("movement", f"{name} is already there; a ship that stays needs no move")
        if (action.square, action.heading) not in ends:
            raise IllegalAction("movement", self._why_unreachable(name, action))
        other = self._spacing_guard(name, strict=False).get(action.square)
        if other is not None:
            raise IllegalAction(
                "non-adjacency",
                f"{name} would end next to {other}, which has already moved; own ships keep a square apart",
            )

    def _why_unreachable(self, name: str, action: MoveShip) -> str:
        where = self.setup.grid.name(action.square)
        if self.setup.terrain_at(action.square) == LAND:
            return f"{where} is land"
        if self.occupant.get(action.square, name) != name:
            return f"{where} is occupied by {self.occupant[action.square]}"
        _, speed, turning = self.factors(name)
        wind = f"wind {self.wind_strength} from {self.wind_from.name}"
        return f"{name} (S{speed} T{turning}, {wind}) cannot reach {where} heading {action.heading.name} this turn"

    def _validate_spacing(self, side: str, squadron: str) -> None:
        violation = self._spacing_violation(side, squadron)
        if violation is not None:
            a, b = violation
            grid = self.setup.grid
            raise IllegalAction(
                "non-adjacency",
                f"{a} ({grid.name(self.square[a])}) and {b} ({grid.name(self.square[b])}) would end the move "
                "on touching squares",
            )

    def _spacing_violation(self, side: str, squadron: str) -> tuple[str, str] | None:
        """Two active ships of `side` on touching squares (outside harbour), if any.

        Checked when a squadron commits its movement, over the whole side: its own ships where they
        ended, and the other squadrons' ships where they stand.
        """
        ships = [n for n, info in self.setup.ships.items() if info.side == side and self.is_active(n)]
        terrain = self.setup.terrain
        for i, a in enumerate(ships):
            ax, ay = self.square[a]
            for b in ships[i + 1 :]:
                bx, by = self.square[b]
                if max(abs(ax - bx), abs(ay - by)) == 1 and not (terrain[ay][ax] == HARBOUR == terrain[by][bx]):
                    return a, b
        return None

    def _validate_fire(self, action: AssignFire, side: str, squadron: str) -> None:
        self._require_phase(FIRE, "fire")
        name = action.piece
        self._own_piece(name, side, squadron)
        if not self.is_active(name):
            raise IllegalAction("struck-inert", f"{name} has struck (or is silenced) and cannot fire")
        if not self._can_fire(name):
            raise IllegalAction("merchants-unarmed", f"{name} is unarmed: her firepower counts for defence only")
        if not 0 <= action.bearing < 8:
            raise IllegalAction("fire-chart", f"no bearing {action.bearing}")
        if any(line.piece == name and line.bearing == action.bearing for line in self.fire):
            raise IllegalAction("one-target-per-bearing", f"{name} has already assigned fire on that bearing")
        cap = self.cap(name, action.bearing)
        label = self.bearing_label(name, action.bearing)
        if action.amount < 1:
            raise IllegalAction("fire-chart", "assign at least 1 firepower")
        if action.amount > cap:
            raise IllegalAction("fire-chart", f"{name} may fire at most {cap} off the {label}")
        left = self.factors(name)[0] - self.fire_used(name)
        if action.amount > left:
            raise IllegalAction("firepower-total", f"{name} has only {left} firepower left to assign")
        target, distance = self.line_of_fire(name, action.bearing)
        if target is None:
            raise IllegalAction("line-of-fire", f"there is no target off the {label} of {name}")
        if self.side_of(target) == side:
            raise IllegalAction("line-of-fire", f"{target}, first on the line, is a friend; fire stops there")
        if not self.is_active(target):
            raise IllegalAction("struck-inert", f"{target} has struck and cannot be fired on")
        if action.amount - (distance - 1) <= 0:
            raise IllegalAction(
                "distance-fire",
                f"{target} is {distance} squares off: {action.amount} firepower would have no effect there",
            )

    def _validate_defence(self, action: AssignDefence, side: str, squadron: str) -> None:
        self._require_phase(DEFENCE, "defence")
        name = action.piece
        self._own_piece(name, side, squadron)
        if not self.is_active(name):
            raise IllegalAction("struck-inert", f"{name} has struck and cannot defend")
        arriving = self.incoming(name).get(action.bearing, 0)
        label = self.bearing_label(name, action.bearing) if 0 <= action.bearing < 8 else str(action.bearing)
        if arriving == 0:
            raise IllegalAction("defence", f"no fire arrives off the {label} of {name}")
        if (name, action.bearing) in self.defence:
            raise IllegalAction("defence", f"{name} has already assigned defence off the {label}")
        cap = self.cap(name, action.bearing)
        if action.amount < 1 or action.amount > cap:
            raise IllegalAction("fire-chart", f"{name} may defend with 1 to {cap} off the {label}")
        left = self.factors(name)[0] - self.defence_used(name)
        if action.amount > left:
            raise IllegalAction("firepower-total", f"{name} has only {left} firepower left to defend with")
        if action.amount > arriving:
            raise IllegalAction("defence", f"only {arriving} fire arrives off the {label}; defend with at most that")

    # --- applying ------------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> list[Event]:
        grid = self.setup.grid
        if isinstance(action, MoveShip):
            name = action.ship
            origin = self.square[name]
            del self.occupant[origin]
            self.occupant[action.square] = name
            self.square[name] = action.square
            self.heading[name] = action.heading
            self.moved.add(name)
            if origin == action.square:
                return [Turned(name, grid.name(origin), action.heading.name)]
            return [Moved(name, grid.name(origin), grid.name(action.square), action.heading.name)]
        if isinstance(action, EscapeShip):
            name = action.ship
            origin = self.square[name]
            del self.occupant[origin]
            self.escaped.add(name)
            self.moved.add(name)
            return [Escaped(name, grid.name(origin), action.edge)]
        if isinstance(action, EndMove):
            side, squadron = self.setup.seats[self.seat]
            self.settled |= {n for n in self.pieces(side, squadron) if n in self.setup.ships}
            return self._advance(MOVE)
        if isinstance(action, AssignFire):
            line = self._fire_line(action)
            self.fire.append(line)
            label = self.bearing_label(line.piece, line.bearing)
            return [Fired(line.piece, label, line.amount, line.target, line.effect)]
        if isinstance(action, EndFire):
            return self._advance(FIRE)
        if isinstance(action, AssignDefence):
            self.defence[(action.piece, action.bearing)] = action.amount
            return [Defended(action.piece, self.bearing_label(action.piece, action.bearing), action.amount)]
        return self._advance(DEFENCE)

    def _advance(self, finished: str) -> list[Event]:
        """After a seat ends a phase: the next seat, the next phase, or resolution."""
        side = self.side_name
        if finished in (MOVE, FIRE):
            nxt = self._next_seat(side, finished, after=self.seat)
            if nxt is None and finished == MOVE:
                nxt, self.phase = self._next_seat(side, FIRE), FIRE
            if nxt is not None:
                self.seat = nxt
                return [PhaseChanged(self.players[nxt], self.phase, self.turn)]
            return self._start_defence()
        nxt = None
        for seat in self._defending_seats():
            if seat > self.seat:
                nxt = seat
                break
        if nxt is not None:
            self.seat = nxt
            return [PhaseChanged(self.players[nxt], DEFENCE, self.turn)]
        return self._resolve()

    def _defending_seats(self) -> list[int]:
        return [s for s in range(len(self.setup.seats)) if self.setup.seats[s][0] != self.side_name
                and self._seat_has_work(s, DEFENCE)]

    def _start_defence(self) -> list[Event]:
        seats = self._defending_seats() if self.fire else []
        if not seats:
            return self._resolve()
        self.phase = DEFENCE
        self.seat = seats[0]
        return [PhaseChanged(self.players[self.seat], DEFENCE, self.turn)]

    def _resolve(self) -> list[Event]:
        """All fire lands at once: hits per bearing = incoming - defence; each hit lowers a factor."""
        events: list[Event] = []
        targets = sorted({line.target for line in self.fire}, key=list(self.hits).index)
        for name in targets:
            for bearing, damage in sorted(self.hits_on(name).items()):
                counted = min(damage, self.striking_hits[name] - self.hits[name])  # beyond 0 0 0: void
                if counted <= 0:
                    continue
                self.hits[name] += counted
                f, s, t = self.factors(name)
                events.append(Hit(name, counted, self.bearing_label(name, bearing), f"F{f} S{s} T{t}"))
            if self.is_struck(name) and self.hits_on(name):
                square = self.setup.grid.name(self.location(name))  # type: ignore[arg-type]
                events.append(Silenced(name, square) if self.is_battery(name) else Struck(name, square))
        events.extend(self._check_victory())
        if self.outcome is None:
            events.extend(self._next_side())
        return events

    def _next_side(self) -> list[Event]:
        events: list[Event] = []
        self.side = (self.side + 1) % len(self.setup.sides)
        if self.side == 0:
            self.turn += 1
            if self.setup.turn_limit is not None and self.turn > self.setup.turn_limit:
                return self._end_at_turn_limit()
            for turn, direction, strength in self.setup.wind_changes:
                if turn == self.turn:
                    self.wind_from, self.wind_strength = direction, strength
                    events.append(WindChanged(direction.name, strength))
        return events + self._start_side_turn()

    # --- victory --------------------------------------------------------------------------
    def points(self, side: str) -> int:
        """Value of the enemy ships struck and batteries silenced by `side`."""
        total = 0
        for name in self.hits:
            info = self.setup.ships.get(name) or self.setup.batteries[name]
            if info.side != side and self.is_struck(name):
                total += info.value
        return total

    def _condition_met(self, condition) -> bool:
        ships = self.setup.ships.values()
        enemies = [s for s in ships if s.side != condition.side]
        if condition.type == "annihilation":
            warships = [s for s in enemies if s.armed]
            return bool(warships) and all(self.is_struck(s.name) for s in warships)
        if condition.type == "strike":
            return sum(1 for s in enemies if condition.matches(s) and self.is_struck(s.name)) >= condition.count
        own = [s for s in ships if s.side == condition.side]
        return sum(1 for s in own if condition.matches(s) and s.name in self.escaped) >= condition.count

    def _check_victory(self) -> list[Event]:
        winners = sorted({c.side for c in self.setup.victory if self._condition_met(c)})
        if len(winners) == 1:
            return self._finish(winners[0], f"{winners[0]} has met its victory condition")
        if len(winners) > 1:
            return self._finish(None, "both sides met their victory conditions together")
        fighting = [side for side in self.setup.sides if any(self.is_active(n) for n in self.pieces(side))]
        if len(fighting) == 1:
            return self._finish(fighting[0], f"{fighting[0]} is the only side left in the fight")
        if not fighting:
            return self._end_at_turn_limit("no side has a ship or battery left in the fight")
        return []

    def _end_at_turn_limit(self, why: str | None = None) -> list[Event]:
        why = why or f"the turn limit ({self.setup.turn_limit}) is reached"
        rule = self.setup.at_limit
        if rule == "draw":
            return self._finish(None, why)
        if rule != "points":
            return self._finish(rule, f"{why}; the scenario awards it to {rule}")
        scores = {side: self.points(side) for side in self.setup.sides}
        best = max(scores.values())
        leaders = [side for side, score in scores.items() if score == best]
        detail = ", ".join(f"{side} {score}" for side, score in scores.items())
        if len(leaders) > 1:
            return self._finish(None, f"{why}; points level ({detail})")
        return self._finish(leaders[0], f"{why}; on points ({detail})")

    def _finish(self, winner: str | None, reason: str) -> list[Event]:
        returns = tuple(
            0.0 if winner is None else (1.0 if self.team_of(seat) == winner else -1.0)
            for seat in range(len(self.setup.seats))
        )
        self.outcome = Outcome(returns, winner or "draw", reason)
        return [GameOver(self.outcome.result, reason)]

    # --- notation ----------------------------------------------------------------------------
    def bearing_label(self, name: str, bearing: int) -> str:
        return Compass(bearing).name if self.is_battery(name) else BEARINGS[bearing]

    def action_piece(self, action: Action) -> str | None:
        for attribute in ("ship", "piece"):
            if hasattr(action, attribute):
                return getattr(action, attribute)
        return None

    def action_to_text(self, action: Action) -> str:
        grid = self.setup.grid
        if isinstance(action, MoveShip):
            return f"move {action.ship} {grid.name(action.square)} {action.heading.name}"
        if isinstance(action, EscapeShip):
            return f"escape {action.ship} {action.edge}"
        if isinstance(action, AssignFire):
            text = f"fire {action.piece} {self.bearing_label(action.piece, action.bearing)} {action.amount}"
            target, _ = self.fire_target(action.piece, action.bearing) if action.piece in self.hits else (None, 0)
            return f"{text} at {target}" if target else text
        if isinstance(action, AssignDefence):
            return f"defend {action.piece} {self.bearing_label(action.piece, action.bearing)} {action.amount}"
        if isinstance(action, EndMove):
            return "end-move"
        if isinstance(action, EndFire):
            return "end-fire"
        if isinstance(action, EndDefence):
            return "end-defence"
        raise NotationError("action", f"not a Square Rigger Chess action: {action!r}")

    def parse_action(self, text: str, player: int | None = None) -> Action:
        words = text.split()
        if not words:
            raise NotationError("action", "empty action", text)
        verb, args = words[0].lower(), words[1:]
        simple = {"end-move": EndMove(), "end-fire": EndFire(), "end-defence": EndDefence()}
        if verb in simple:
            if args:
                raise NotationError("action", f"{verb} takes nothing after it", text)
            return simple[verb]
        if verb == "move":
            if len(args) != 3:
                raise NotationError("action", "move <ship> <square> <heading>, e.g. 'move Victory d4 NE'", text)
            name = self._parse_piece(args[0], text)
            return MoveShip(name, self.setup.grid.parse(args[1]), Compass.parse(args[2]))
        if verb == "escape":
            if len(args) != 2 or args[1].upper() not in EDGE_OF:
                raise NotationError("edge", "escape <ship> <N|E|S|W>", text)
            return EscapeShip(self._parse_piece(args[0], text), args[1].upper())
        if verb in ("fire", "defend"):
            if len(args) not in (3, 5) or (len(args) == 5 and args[3] != "at"):
                raise NotationError("action", f"{verb} <piece> <bearing> <amount>, e.g. '{verb} Victory stbd-beam 3'",
                                    text)
            name = self._parse_piece(args[0], text)
            bearing = self._parse_bearing(name, args[1], text)
            if not (args[2].isascii() and args[2].isdigit()):
                raise NotationError("amount", "the amount is a whole number", text)
            if verb == "defend":
                if len(args) == 5:
                    raise NotationError("action", "defend takes no target", text)
                return AssignDefence(name, bearing, int(args[2]))
            action = AssignFire(name, bearing, int(args[2]))
            if len(args) == 5:
                target, _ = self.fire_target(name, bearing)
                if target != args[4]:
                    raise NotationError("target", f"the first target off that bearing is {target or 'nothing'}", text)
            return action
        raise NotationError("verb", "actions: move, escape, end-move, fire, end-fire, defend, end-defence", text)

    def _parse_piece(self, word: str, text: str) -> str:
        if word not in self.hits:
            raise NotationError("piece", f"no ship or battery called {word!r}", text)
        return word

    def _parse_bearing(self, name: str, word: str, text: str) -> int:
        if self.is_battery(name):
            return int(Compass.parse(word))
        if word.lower() not in BEARINGS:
            raise NotationError("bearing", f"a ship's bearing is one of {', '.join(BEARINGS)}", text)
        return BEARINGS.index(word.lower())

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
        copy.settled = set(self.settled)
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
            "setup": self.setup.source,
            "options": self.setup.options,
            "dice": self.dice.to_json(),
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
            "settled": sorted(self.settled),
            "fire": [
                {"piece": f.piece, "bearing": self.bearing_label(f.piece, f.bearing), "amount": f.amount,
                 "target": f.target, "distance": f.distance, "effect": f.effect,
                 "arrives": self.bearing_label(f.target, f.target_bearing)}
                for f in self.fire
            ],
            "defence": [
                {"piece": piece, "bearing": self.bearing_label(piece, bearing), "amount": amount}
                for (piece, bearing), amount in self.defence.items()
            ],
            "seen": self.seen,
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
    state.settled = known(data["settled"], "settled")
    state.fire = []
    for line in data["fire"]:
        piece, target = line["piece"], line["target"]
        known([piece, target], "fire")
        bearing = state._parse_bearing(piece, line["bearing"], "")
        arrives = state._parse_bearing(target, line["arrives"], "")
        state.fire.append(FireLine(piece, bearing, int(line["amount"]), target, int(line["distance"]),
                                   int(line["effect"]), arrives))
    state.defence = {}
    for entry in data["defence"]:
        known([entry["piece"]], "defence")
        bearing = state._parse_bearing(entry["piece"], entry["bearing"], "")
        state.defence[(entry["piece"], bearing)] = int(entry["amount"])
    state.seen = {str(key): int(count) for key, count in data["seen"].items()}
    state.outcome = Outcome.from_json(data["outcome"])
    return state
