"""A battle in progress: deployment, then turns of move, attack, support, resolution and advance.

A turn of army A is a queue of steps, each one decision-maker's phase:

    (move, A) (attack, A) (attack, ally of A)... (support, enemy)... (resolve) (advance, A)

A phase ends with its `end-<phase>` action, or by itself as soon as nothing is left to decide in it
(only the end action would be legal); a phase with nothing to decide is skipped. Every unit acts at
most once per phase, so a turn is always a finite sequence and `end-<phase>` is always legal: play
never dead-ends.

Attack at Dawn deploys with the protocol's SIMULTANEOUS decider: each army places its units one at a
time in secret; an army whose last unit is placed has committed, and when every army has committed
all placements are revealed together. Until then `observe(p)` and `to_json(viewer=p)` show p nothing
of the others' placements (not even how many are made), and a secret placement's events say nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from quarterdeck.core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from quarterdeck.core.events import (
    Attacked,
    Eliminated,
    Event,
    GameOver,
    Moved,
    PhaseChanged,
    Placed,
    Revealed,
    Submitted,
    Supported,
    Survived,
)
from quarterdeck.core.geometry import Square
from quarterdeck.core.protocol import SIMULTANEOUS, TERMINAL, Game, Outcome, State

from .actions import (
    ADVANCE,
    ATTACK,
    MOVE,
    SUPPORT,
    Advance,
    Attack,
    EndPhase,
    Move,
    NapoleonicAction,
    Place,
    Support,
    action_text,
    parse_action_text,
)
from .combat import Engagement, Unit, attack_value, engagements, high_ground
from .scenario import FIXED, REPETITION_LIMIT, SECRET, Scenario, scenario_from_data
from .units import UnitType

DEPLOYMENT = "deployment"
SECRET_DEPLOYMENT = "secret-deployment"
RESOLVE = "resolve"
OVER = "over"


@dataclass(frozen=True)
class RedoubtBuilt(Event):
    kind: ClassVar[str] = "redoubt-built"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} has dug a redoubt on {self.square}"


Step = tuple[str, int]  # (phase, army that decides in it)


class NapoleonicState(State):
    def __init__(self, game: Game, scenario: Scenario):
        self.game = game
        self.scenario = scenario
        self.outcome: Outcome | None = None
        self.board: dict[Square, Unit] = {}
        self.phase = ""
        self.active = scenario.turn_order[0]  # whose turn it is
        self.decider = self.active  # who decides in the current phase
        self.turn = 0
        self.steps: tuple[Step, ...] = ()
        self.moved: dict[str, tuple[Square, ...]] = {}  # unit id -> squares passed this turn
        self.attacks: dict[str, Square] = {}  # attacker id -> target square
        self.supports: dict[str, Square] = {}  # supporter id -> supported square
        self.fallen: dict[Square, tuple[str, ...]] = {}  # vacated square -> attackers that may advance
        self.to_place: dict[int, dict[str, int]] = {}  # during deployment: units still to place
        self.hidden: dict[int, tuple[tuple[Square, str], ...]] = {}  # secret placements, unrevealed
        self.placed_in_row = 0
        self.works: dict[Square, tuple[str, int]] = {}  # redoubt digging: square -> (unit id, turns)
        self.redoubts: frozenset[Square] = scenario.redoubts_built
        self.quiet_turns = 0
        self.turn_eliminations = 0
        self.history: dict[str, int] = {}  # positions at the start of turns since the last elimination
        self.defeated: frozenset[int] = frozenset()
        self.viewer: int | None = None  # set on an observation: whose eyes it is seen through

    @classmethod
    def start(cls, game: Game, scenario: Scenario) -> NapoleonicState:
        state = cls(game, scenario)
        if scenario.deployment == FIXED:
            for spec in scenario.units:
                assert spec.square is not None  # the scenario check guarantees it
                state._create(spec.army, spec.kind, spec.square)
            state._begin_battle([])
        else:
            state.to_place = {army: scenario.roster(army) for army in range(len(scenario.armies))}
            if scenario.deployment == SECRET:
                state.phase = SECRET_DEPLOYMENT
                state.hidden = {army: () for army in state.to_place}
            else:
                state.phase = DEPLOYMENT
        return state

    # --- who decides ------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.scenario.army_names

    def team_of(self, player: int) -> str:
        return self.scenario.armies[player].alliance

    def current_player(self) -> int:
        if self.outcome is not None:
            return TERMINAL
        return SIMULTANEOUS if self.phase == SECRET_DEPLOYMENT else self.decider

    def acting_players(self) -> list[int]:
        if self.outcome is not None:
            return []
        if self.phase == SECRET_DEPLOYMENT:
            return [army for army, left in self.to_place.items() if left]
        return [self.decider]

    def describe(self) -> str:
        if self.outcome is not None:
            return super().describe()
        names = " and ".join(self.players[p] for p in self.acting_players())
        if self.phase in (DEPLOYMENT, SECRET_DEPLOYMENT):
            return f"{self.phase}: {names} to place"
        return f"turn {self.turn}: {names} to {self.phase}"

    # --- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[NapoleonicAction]:
        """`piece` is a unit id (see `action_piece`), the square a unit stands on, or a unit type
        (for placements)."""
        if self.outcome is not None:
            return []
        if player is None:
            player = self._resolve_player(None)
        elif player not in self.acting_players():
            return []
        actions: list[NapoleonicAction] = list(self._choices(player))
        if self.phase in (MOVE, ATTACK, SUPPORT, ADVANCE):
            actions.append(EndPhase(self.phase))
        if piece is not None:
            wanted = self._unit_named(piece)
            actions = [action for action in actions if self.action_piece(action) == wanted]
        return actions

    def _unit_named(self, piece: str) -> str:
        """The id of the unit on a square given by name, or `piece` itself."""
        try:
            unit = self.board.get(self.scenario.grid.parse(piece))
        except NotationError:
            return piece
        return unit.id if unit else piece

    def _choices(self, player: int) -> Iterator[NapoleonicAction]:
        """The legal actions of the current phase other than ending it."""
        generator = _GENERATORS.get(self.phase)
        return generator(self, player) if generator else iter(())

    def _own_units(self, player: int) -> list[tuple[Square, Unit]]:
        """The player's units in square order, so that legal actions come in a fixed order."""
        return sorted((square, unit) for square, unit in self.board.items() if unit.army == player)

    def _placements(self, player: int) -> Iterator[Place]:
        left = self.to_place.get(player)
        if not left:
            return
        taken = {square for square, _ in self.hidden.get(player, ())}
        free = [s for s in sorted(self.scenario.armies[player].zone) if s not in self.board and s not in taken]
        for kind in left:
            for square in free:
                yield Place(kind, square)

    def _moves(self, player: int) -> Iterator[Move]:
        board, moved, rays = self.board, self.moved, self.scenario.rays  # the hottest loop of a playout
        high = self._high_ground()
        for origin, unit in self._own_units(player):
            if unit.id in moved:
                continue
            for ray in rays(unit.kind, origin):
                for reached, square in enumerate(ray, start=1):
                    if square in board:
                        break
                    if high and _enters_and_leaves(high, (origin, *ray[:reached])):
                        continue
                    yield Move(origin, square)

    def _attacks(self, player: int) -> Iterator[Attack]:
        for origin, unit in self._own_units(player):
            if unit.id in self.attacks:
                continue
            for square in self.scenario.reach(unit.kind, "attack", origin):
                target = self.board.get(square)
                if target is not None and not self.scenario.allied(target.army, player):
                    yield Attack(origin, square)

    def _supports(self, player: int) -> Iterator[Support]:
        under_attack = set(self.attacks.values())
        for origin, unit in self._own_units(player):
            if unit.id in self.supports or origin in under_attack:
                continue
            for square in self.scenario.reach(unit.kind, "support", origin):
                if square in under_attack and self.scenario.allied(self.board[square].army, player):
                    yield Support(origin, square)

    def _advances(self, player: int) -> Iterator[Advance]:
        where = self._squares_by_id()
        for vacated, attacker_ids in sorted(self.fallen.items()):
            for unit_id in attacker_ids:
                origin = where[unit_id]
                if self._advance_problem(self.board[origin], origin, vacated) is None:
                    yield Advance(origin, vacated)

    # --- checking an action -----------------------------------------------------------------------
    def _validate(self, action: Any, player: int) -> None:
        if isinstance(action, EndPhase):
            if action.phase != self.phase:
                raise IllegalAction("phase", f"it is the {self.phase} phase; end-{action.phase} is not due")
            return
        check = _CHECKS.get(type(action))
        if check is None:
            raise IllegalAction("action", f"{action!r} is not a Napoleonic Chess action")
        phases, verb = _PHASES_OF[type(action)]
        if self.phase not in phases:
            raise IllegalAction("phase", f"it is the {self.phase} phase: no {verb} now")
        check(self, action, player)

    def _unit_of(self, player: int, square: Square) -> Unit:
        unit = self.board.get(square)
        if unit is None:
            raise IllegalAction("no-unit", f"there is no unit on {self._name(square)}")
        if unit.army != player:
            raise IllegalAction("ownership", f"the unit on {self._name(square)} belongs to {self.players[unit.army]}")
        return unit

    def _check_place(self, action: Place, player: int) -> None:
        if self.to_place[player].get(action.kind, 0) == 0:
            raise IllegalAction("deployment-roster", f"{self.players[player]} has no {action.kind} left to place")
        if action.square not in self.scenario.armies[player].zone:
            raise IllegalAction(
                "deployment-zone", f"{self._name(action.square)} is outside {self.players[player]}'s deployment ranks"
            )
        taken = {square for square, _ in self.hidden.get(player, ())}
        if action.square in self.board or action.square in taken:
            raise IllegalAction("no-sharing", f"a unit already stands on {self._name(action.square)}")

    def _check_move(self, action: Move, player: int) -> None:
        unit = self._unit_of(player, action.origin)
        if unit.id in self.moved:
            raise IllegalAction("one-move-per-turn", f"{unit.id} has already moved this turn")
        path = self._path(unit.kind, action.origin, action.destination)
        if path is None:
            raise IllegalAction("movement", unit.kind.describe_move())
        if any(square in self.board for square in path[1:-1]):
            raise IllegalAction("blocked-path", f"the first square of a two-square move must be empty ({unit.id})")
        if action.destination in self.board:
            raise IllegalAction("no-sharing", f"a unit already stands on {self._name(action.destination)}")
        if _enters_and_leaves(self._high_ground(), path):
            raise IllegalAction("hill-movement", "a unit may not move on and off a hill in a single move")

    def _check_attack(self, action: Attack, player: int) -> None:
        unit = self._unit_of(player, action.attacker)
        if unit.id in self.attacks:
            raise IllegalAction("one-attack-per-turn", f"{unit.id} has already attacked this turn")
        target = self.board.get(action.target)
        if target is None:
            raise IllegalAction("attack-target", f"there is no unit on {self._name(action.target)} to attack")
        if self.scenario.allied(target.army, player):
            raise IllegalAction("attack-target", f"{target.id} is not an enemy")
        if action.target not in self.scenario.reach(unit.kind, "attack", action.attacker):
            raise IllegalAction("attack-direction", unit.kind.describe_reach("attack"))

    def _check_support(self, action: Support, player: int) -> None:
        unit = self._unit_of(player, action.supporter)
        if unit.id in self.supports:
            raise IllegalAction("one-support-per-turn", f"{unit.id} has already supported this turn")
        under_attack = set(self.attacks.values())
        if action.supporter in under_attack:
            raise IllegalAction("under-attack-cannot-support", f"{unit.id} is under attack and cannot support")
        target = self.board.get(action.target)
        if target is None or action.target not in under_attack:
            raise IllegalAction(
                "support-target", f"only a unit under attack can be supported ({self._name(action.target)})"
            )
        if not self.scenario.allied(target.army, player):
            raise IllegalAction("support-target", f"{target.id} is not a friendly unit")
        if action.target not in self.scenario.reach(unit.kind, "support", action.supporter):
            raise IllegalAction("support-direction", unit.kind.describe_reach("support"))

    def _check_advance(self, action: Advance, player: int) -> None:
        unit = self._unit_of(player, action.origin)
        attackers = self.fallen.get(action.destination)
        if attackers is None:
            raise IllegalAction(
                "advance-vacated", f"{self._name(action.destination)} is not a square vacated by an elimination"
            )
        if unit.id not in attackers:
            raise IllegalAction("advance-attacker", f"{unit.id} did not attack the unit eliminated there")
        problem = self._advance_problem(unit, action.origin, action.destination)
        if problem is not None:
            raise IllegalAction(*problem)

    def _advance_problem(self, unit: Unit, origin: Square, destination: Square) -> tuple[str, str] | None:
        if unit.kind.artillery and destination in self.redoubts:
            return "redoubt-advance", "artillery cannot enter an enemy redoubt on the turn it falls"
        path = (*self.moved.get(unit.id, (origin,)), destination)
        if _enters_and_leaves(self._high_ground(), path):
            return "hill-movement", f"{unit.id} came onto a hill this turn and may not leave it by advancing"
        return None

    def _path(self, kind: UnitType, origin: Square, destination: Square) -> tuple[Square, ...] | None:
        """The squares of a move from origin to destination, if the unit type can make it."""
        for ray in self.scenario.rays(kind, origin):
            if destination in ray:
                return (origin, *ray[: ray.index(destination) + 1])
        return None

    # --- applying an action -----------------------------------------------------------------------
    def _apply(self, action: Any, player: int) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, Place):
            self._place(action, player, events)
            return events
        if isinstance(action, EndPhase):
            self.steps = self.steps[1:]
        elif isinstance(action, Move):
            unit = self._relocate(action.origin, action.destination)
            self.moved[unit.id] = self._path(unit.kind, action.origin, action.destination) or ()
            events.append(Moved(unit.id, self._name(action.origin), self._name(action.destination)))
        elif isinstance(action, Attack):
            unit, target = self.board[action.attacker], self.board[action.target]
            self.attacks[unit.id] = action.target
            value = attack_value(self.scenario, self.redoubts, unit.kind, action.attacker, action.target)
            events.append(Attacked(unit.id, target.id, value))
        elif isinstance(action, Support):
            unit, target = self.board[action.supporter], self.board[action.target]
            self.supports[unit.id] = action.target
            events.append(Supported(unit.id, target.id, unit.kind.support))
        elif isinstance(action, Advance):
            path = self.moved.get(self.board[action.origin].id, (action.origin,))
            unit = self._relocate(action.origin, action.destination)
            self.moved[unit.id] = (*path, action.destination)
            del self.fallen[action.destination]
            events.append(Moved(unit.id, self._name(action.origin), self._name(action.destination)))
        self._proceed(events)
        return events

    def _relocate(self, origin: Square, destination: Square) -> Unit:
        unit = self.board.pop(origin)
        self.board[destination] = unit
        return unit

    def _place(self, action: Place, player: int, events: list[Event]) -> None:
        left = dict(self.to_place[player])
        left[action.kind] -= 1
        if not left[action.kind]:
            del left[action.kind]
        self.to_place = {**self.to_place, player: left}
        if self.phase == SECRET_DEPLOYMENT:
            # Nothing public happens until the army's last unit is placed: the placement stays secret.
            self.hidden = {**self.hidden, player: (*self.hidden[player], (action.square, action.kind))}
            if not left:
                events.append(Submitted(self.players[player]))
            if not any(self.to_place.values()):
                self._reveal(events)
            return
        unit = self._create(player, self.scenario.unit_types[action.kind], action.square)
        events.append(Placed(unit.id, self._name(action.square)))
        self.placed_in_row += 1
        if not any(self.to_place.values()):
            self.to_place = {}
            self._begin_battle(events)
        elif not left or self.placed_in_row >= self.scenario.placements_per_turn:
            self.placed_in_row = 0
            self.decider = self._next_army(player, lambda army: bool(self.to_place[army]))
            events.append(PhaseChanged(self.players[self.decider], DEPLOYMENT, 0))

    def _reveal(self, events: list[Event]) -> None:
        events.append(Revealed(self.players))
        for army in self.scenario.turn_order:
            for square, kind in self.hidden[army]:
                unit = self._create(army, self.scenario.unit_types[kind], square)
                events.append(Placed(unit.id, self._name(square)))
        self.hidden = {}
        self.to_place = {}
        self._begin_battle(events)

    def _create(self, army: int, kind: UnitType, square: Square) -> Unit:
        # Numbered per army and type, as the book suggests: "1st, 2nd and 3rd infantry etc."
        number = 1 + sum(1 for unit in self.board.values() if unit.army == army and unit.kind is kind)
        unit = Unit(f"{self.players[army]}-{kind.name}-{number}", army, kind)
        self.board[square] = unit
        return unit

    # --- the flow of a turn -----------------------------------------------------------------------
    def _begin_battle(self, events: list[Event]) -> None:
        self._start_turn(self.scenario.turn_order[0], events)
        self._proceed(events)

    def _turn_steps(self, army: int) -> tuple[Step, ...]:
        order = self.scenario.turn_order
        start = order.index(army)
        others = [a for a in order[start + 1 :] + order[:start] if a not in self.defeated]
        allies = [a for a in others if self.scenario.allied(a, army)] if self.scenario.allied_attacks else []
        enemies = [a for a in others if not self.scenario.allied(a, army)]
        return (
            (MOVE, army),
            (ATTACK, army),
            *((ATTACK, ally) for ally in allies),
            *((SUPPORT, enemy) for enemy in enemies),
            (RESOLVE, army),
            (ADVANCE, army),
        )

    def _proceed(self, events: list[Event]) -> None:
        """Run what needs no decision (resolution, turn changes, empty phases) until one is due."""
        while self.outcome is None:
            if not self.steps:
                self._end_turn(events)
                continue
            phase, army = self.steps[0]
            if phase == RESOLVE:
                self.steps = self.steps[1:]
                self._resolve(events)
                continue
            entering = (phase, army) != (self.phase, self.decider)
            self.phase, self.decider = phase, army
            if next(self._choices(army), None) is not None:
                if entering:
                    events.append(PhaseChanged(self.players[army], phase, self.turn))
                return
            self.steps = self.steps[1:]

    def _start_turn(self, army: int, events: list[Event]) -> None:
        self.active = self.decider = army
        self.turn += 1
        self.phase = ""
        self.steps = self._turn_steps(army)
        self.moved, self.attacks, self.supports, self.fallen = {}, {}, {}, {}
        self.turn_eliminations = 0
        key = self.repetition_key()
        self.history[key] = self.history.get(key, 0) + 1
        if self.history[key] >= REPETITION_LIMIT:
            self._finish_drawn(f"the same position for the {REPETITION_LIMIT}rd time (threefold repetition)", events)

    def _end_turn(self, events: list[Event]) -> None:
        self._dig_in(events)
        if self.turn_eliminations:
            self.quiet_turns = 0
            self.history = {}  # no earlier position can come back once a unit is gone
        else:
            self.quiet_turns += 1
        if self.quiet_turns >= self.scenario.quiet_turn_limit:
            self._finish_drawn(f"{self.quiet_turns} turns without an elimination", events)
        else:
            self._start_turn(self._next_army(self.active, lambda army: army not in self.defeated), events)

    def _next_army(self, army: int, eligible: Any) -> int:
        """The next army after `army` in turn order that is `eligible` (itself if no other is)."""
        order = self.scenario.turn_order
        start = order.index(army)
        for candidate in order[start + 1 :] + order[: start + 1]:
            if eligible(candidate):
                return candidate
        return army

    def _resolve(self, events: list[Event]) -> None:
        """All declared attacks at once: a unit falls when the attack exceeds its defence."""
        fallen: dict[Square, tuple[str, ...]] = {}
        for engagement in engagements(self.scenario, self.board, self.attacks, self.supports, self.redoubts):
            name = self._name(engagement.target)
            if engagement.falls:
                events.append(Eliminated(engagement.defender.id, name, engagement.attack, engagement.defence))
                fallen[engagement.target] = tuple(u.id for _, u, _ in engagement.attackers if u.army == self.active)
            else:
                events.append(Survived(engagement.defender.id, name, engagement.attack, engagement.defence))
        for square in fallen:
            del self.board[square]
        self.fallen = {square: ids for square, ids in fallen.items() if ids}
        self.turn_eliminations += len(fallen)
        if fallen:
            self._check_defeats(events)

    def _check_defeats(self, events: list[Event]) -> None:
        """An army whose Guards are all eliminated is beaten; the battle ends when one alliance is left."""
        with_guards = {unit.army for unit in self.board.values() if unit.kind.guard}
        beaten = [army for army in range(len(self.players)) if army not in self.defeated and army not in with_guards]
        if not beaten:
            return
        self.defeated = self.defeated | set(beaten)
        standing = {self.team_of(army) for army in range(len(self.players)) if army not in self.defeated}
        beaten_names = ", ".join(self.players[army] for army in beaten)
        if len(standing) == 1:
            winner = standing.pop()
            returns = tuple(1.0 if self.team_of(p) == winner else -1.0 for p in range(len(self.players)))
            self._finish(Outcome(returns, winner, f"the Guards of {beaten_names} eliminated"), events)
            return
        # A beaten army routs and leaves the field while its allies fight on.
        for square, unit in sorted(self.board.items()):
            if unit.army in beaten:
                del self.board[square]
                events.append(Eliminated(unit.id, self._name(square)))
        self.steps = tuple(step for step in self.steps if step[1] not in beaten)

    def _dig_in(self, events: list[Event]) -> None:
        """Count the active army's turns of uninterrupted occupation on redoubt sites."""
        scenario = self.scenario
        if not scenario.redoubts_enabled:
            return
        works = {
            square: (unit_id, turns)
            for square, (unit_id, turns) in self.works.items()
            if (occupant := self.board.get(square)) is not None and occupant.id == unit_id
        }
        for square, unit in sorted(self.board.items()):
            if unit.army != self.active or square in self.redoubts:
                continue
            if scenario.redoubt_sites is not None and square not in scenario.redoubt_sites:
                continue
            turns = works[square][1] + 1 if square in works else 1
            if turns >= scenario.redoubt_turns:
                self.redoubts = self.redoubts | {square}
                works.pop(square, None)
                events.append(RedoubtBuilt(unit.id, self._name(square)))
            else:
                works[square] = (unit.id, turns)
        self.works = works

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self.outcome = outcome
        self.phase = OVER
        self.steps = ()
        events.append(GameOver(outcome.result, outcome.reason))

    def _finish_drawn(self, reason: str, events: list[Event]) -> None:
        self._finish(Outcome((0.0,) * len(self.players), "draw", reason), events)

    # --- questions the views and agents ask -------------------------------------------------------
    def engagements(self) -> list[Engagement]:
        """The declared attacks of this turn, per target, with attack and defence totals so far."""
        if self.phase not in (ATTACK, SUPPORT):
            return []
        return engagements(self.scenario, self.board, self.attacks, self.supports, self.redoubts)

    def unit_at(self, square: Square) -> Unit | None:
        return self.board.get(square)

    def _squares_by_id(self) -> dict[str, Square]:
        return {unit.id: square for square, unit in self.board.items()}

    def _high_ground(self) -> frozenset[Square]:
        return high_ground(self.scenario, self.redoubts)

    def _name(self, square: Square) -> str:
        return self.scenario.grid.name(square)

    def repetition_key(self) -> str:
        """The position for the repetition rule: who moves, every unit, redoubts and their digging."""
        units = tuple(sorted((square, unit.army, unit.kind.name) for square, unit in self.board.items()))
        works = tuple(sorted((square, turns) for square, (_, turns) in self.works.items()))
        return repr((self.active, units, tuple(sorted(self.redoubts)), works))

    def position_key(self) -> str:
        progress = (
            self.phase,
            self.decider,
            tuple(sorted(self.moved)),
            tuple(sorted(self.attacks.items())),
            tuple(sorted(self.supports.items())),
            tuple(sorted(self.fallen.items())),
            tuple(sorted((army, tuple(left.items())) for army, left in self.to_place.items())),
            tuple(sorted(self.hidden.items())),
        )
        return f"{self.repetition_key()}|{progress!r}"

    def action_piece(self, action: Any) -> str | None:
        if isinstance(action, Place):
            return action.kind
        field = _ACTING_SQUARE.get(type(action))
        unit = self.board.get(getattr(action, field)) if field else None
        return unit.id if unit else None

    # --- notation ---------------------------------------------------------------------------------
    def action_to_text(self, action: Any) -> str:
        return action_text(action, self.scenario.grid)

    def parse_action(self, text: str, player: int | None = None) -> NapoleonicAction:
        return parse_action_text(text, self.scenario.grid, self.scenario.unit_types)

    # --- copies, views, JSON ----------------------------------------------------------------------
    def clone(self) -> NapoleonicState:
        twin = NapoleonicState.__new__(NapoleonicState)
        twin.__dict__.update(self.__dict__)
        # Everything else is immutable (tuples, frozensets) or replaced rather than changed.
        twin.board = dict(self.board)
        twin.moved = dict(self.moved)
        twin.attacks = dict(self.attacks)
        twin.supports = dict(self.supports)
        twin.fallen = dict(self.fallen)
        twin.works = dict(self.works)
        twin.history = dict(self.history)
        return twin

    def observe(self, player: int) -> NapoleonicState:
        """A copy without the other armies' secret placements; a hidden army shows its whole roster
        still to place, or none once it has committed, so not even its progress shows."""
        view = self.clone()
        view.viewer = player
        if self.phase == SECRET_DEPLOYMENT:
            for army in self.hidden:
                if army != player:
                    view.hidden = {**view.hidden, army: ()}
                    view.to_place = {**view.to_place, army: self.scenario.roster(army) if self.to_place[army] else {}}
        return view

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        state = self.observe(viewer) if viewer is not None and self.phase == SECRET_DEPLOYMENT else self
        return state._data()

    def _data(self) -> dict[str, Any]:
        name, army = self._name, self.players
        return {
            "game": self.game.name,
            "scenario": {"name": self.scenario.name, "data": copy.deepcopy(self.scenario.data)},
            "options": dict(self.scenario.options),
            "phase": self.phase,
            "active": army[self.active],
            "decider": army[self.decider],
            "turn": self.turn,
            "steps": [[phase, army[a]] for phase, a in self.steps],
            "units": [
                {"id": unit.id, "army": army[unit.army], "type": unit.kind.name, "square": name(square)}
                for square, unit in sorted(self.board.items())
            ],
            "moved": {unit_id: [name(s) for s in path] for unit_id, path in self.moved.items()},
            "attacks": {unit_id: name(s) for unit_id, s in self.attacks.items()},
            "supports": {unit_id: name(s) for unit_id, s in self.supports.items()},
            "fallen": {name(s): list(ids) for s, ids in self.fallen.items()},
            "to_place": {army[a]: dict(left) for a, left in self.to_place.items()},
            "hidden": {army[a]: [[name(s), kind] for s, kind in placed] for a, placed in self.hidden.items()},
            "placed_in_row": self.placed_in_row,
            "works": {name(s): [unit_id, turns] for s, (unit_id, turns) in self.works.items()},
            "redoubts": sorted(name(s) for s in self.redoubts),
            "quiet_turns": self.quiet_turns,
            "turn_eliminations": self.turn_eliminations,
            "history": dict(self.history),
            "defeated": sorted(army[a] for a in self.defeated),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> NapoleonicState:
        try:
            if data.get("game") != game.name:
                raise RecordError(f"this is a saved state of {data.get('game')!r}, not {game.name!r}")
            scenario = scenario_from_data(data["scenario"]["data"], data["scenario"]["name"], data["options"])
            state = cls(game, scenario)
            seat = {name: i for i, name in enumerate(scenario.army_names)}
            square = scenario.grid.parse
            for entry in data["units"]:
                kind = scenario.unit_types[entry["type"]]
                state.board[square(entry["square"])] = Unit(entry["id"], seat[entry["army"]], kind)
            state.phase = str(data["phase"])
            state.active, state.decider = seat[data["active"]], seat[data["decider"]]
            state.turn = int(data["turn"])
            state.steps = tuple((str(phase), seat[a]) for phase, a in data["steps"])
            state.moved = {i: tuple(square(s) for s in path) for i, path in data["moved"].items()}
            state.attacks = {i: square(s) for i, s in data["attacks"].items()}
            state.supports = {i: square(s) for i, s in data["supports"].items()}
            state.fallen = {square(s): tuple(ids) for s, ids in data["fallen"].items()}
            state.to_place = {
                seat[a]: {str(k): int(n) for k, n in left.items()} for a, left in data["to_place"].items()
            }
            state.hidden = {
                seat[a]: tuple((square(s), str(k)) for s, k in placed) for a, placed in data["hidden"].items()
            }
            state.placed_in_row = int(data["placed_in_row"])
            state.works = {square(s): (str(i), int(t)) for s, (i, t) in data["works"].items()}
            state.redoubts = frozenset(square(s) for s in data["redoubts"])
            state.quiet_turns = int(data["quiet_turns"])
            state.turn_eliminations = int(data["turn_eliminations"])
            state.history = {str(k): int(n) for k, n in data["history"].items()}
            state.defeated = frozenset(seat[a] for a in data["defeated"])
            state.outcome = Outcome.from_json(data["outcome"])
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, ScenarioError) as exc:
            raise RecordError(f"not a saved Napoleonic Chess state: {type(exc).__name__}: {exc}") from None
        return state


def _enters_and_leaves(high: frozenset[Square], path: tuple[Square, ...]) -> bool:
    """Whether a path comes onto high ground and later goes off it again."""
    if not high:
        return False
    entered = False
    for before, after in zip(path, path[1:], strict=False):
        if after in high and before not in high:
            entered = True
        elif entered and before in high and after not in high:
            return True
    return False


_GENERATORS = {
    DEPLOYMENT: NapoleonicState._placements,
    SECRET_DEPLOYMENT: NapoleonicState._placements,
    MOVE: NapoleonicState._moves,
    ATTACK: NapoleonicState._attacks,
    SUPPORT: NapoleonicState._supports,
    ADVANCE: NapoleonicState._advances,
}
_CHECKS = {
    Place: NapoleonicState._check_place,
    Move: NapoleonicState._check_move,
    Attack: NapoleonicState._check_attack,
    Support: NapoleonicState._check_support,
    Advance: NapoleonicState._check_advance,
}
_ACTING_SQUARE = {Move: "origin", Advance: "origin", Attack: "attacker", Support: "supporter"}
_PHASES_OF: dict[type, tuple[tuple[str, ...], str]] = {
    Place: ((DEPLOYMENT, SECRET_DEPLOYMENT), "placing"),
    Move: ((MOVE,), "moving"),
    Attack: ((ATTACK,), "attacking"),
    Support: ((SUPPORT,), "supporting"),
    Advance: ((ADVANCE,), "advancing"),
}
