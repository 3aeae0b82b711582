"""A battle in progress (seed 002, "Standard Scenario": "Each side moves alternately and settles
all resulting attacks"): whose decision it is, the legal actions, applying them, the outcome, views
and saved states. The rules themselves are in the modules named after the book's sections:
deployment.py, movement.py, combat.py, terrain.py and victory.py.

A turn of army A is a queue of steps, each one decision-maker's phase:

    (move, A) (attack, A) (attack, ally of A)... (support, enemy)... (resolve) (advance, A)

A phase ends with its `end-<phase>` action, or by itself as soon as nothing is left to decide in it
(only the end action would be legal); a phase with nothing to decide is skipped. Every unit acts at
most once per phase, so a turn is always a finite sequence and `end-<phase>` is always legal: play
never dead-ends.

Attack at Dawn deploys with the protocol's SIMULTANEOUS decider (deployment.py): until every army
has committed, `observe(p)` and `to_json(viewer=p)` show p nothing of the others' placements.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from quarterdeck.core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from quarterdeck.core.events import Event, PhaseChanged
from quarterdeck.core.geometry import Square
from quarterdeck.core.protocol import SIMULTANEOUS, TERMINAL, Game, Outcome, State

from . import combat, deployment, movement, terrain, victory
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
from .combat import Engagement, engagements
from .deployment import DEPLOYMENT, SECRET_DEPLOYMENT
from .scenario import Scenario, scenario_from_data
from .units import Unit

RESOLVE = "resolve"

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
        deployment.deploy(state)
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

    def own_units(self, player: int) -> list[tuple[Square, Unit]]:
        """The player's units in square order, so that legal actions come in a fixed order."""
        return sorted((square, unit) for square, unit in self.board.items() if unit.army == player)

    # --- checking and applying an action ----------------------------------------------------------
    def _validate(self, action: Any, player: int) -> None:
        if isinstance(action, EndPhase):
            if action.phase != self.phase:
                raise IllegalAction("phase", f"it is the {self.phase} phase; end-{action.phase} is not due")
            return
        rule = _RULES.get(type(action))
        if rule is None:
            raise IllegalAction("action", f"{action!r} is not a Napoleonic Chess action")
        phases, verb, check, _ = rule
        if self.phase not in phases:
            raise IllegalAction("phase", f"it is the {self.phase} phase: no {verb} now")
        check(self, action, player)

    def unit_of(self, player: int, square: Square) -> Unit:
        """The unit on `square`, which must be `player`'s own."""
        unit = self.board.get(square)
        if unit is None:
            raise IllegalAction("no-unit", f"there is no unit on {self.square_name(square)}")
        if unit.army != player:
            raise IllegalAction(
                "ownership", f"the unit on {self.square_name(square)} belongs to {self.players[unit.army]}"
            )
        return unit

    def _apply(self, action: Any, player: int) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, Place):
            deployment.place(self, action, player, events)  # begins the battle itself after the last one
            return events
        if isinstance(action, EndPhase):
            self.steps = self.steps[1:]
        else:
            _RULES[type(action)][3](self, action, player, events)
        self._proceed(events)
        return events

    # --- the flow of a turn -----------------------------------------------------------------------
    def begin_battle(self, events: list[Event]) -> None:
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
                combat.resolve(self, events)
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
        victory.count_position(self, events)

    def _end_turn(self, events: list[Event]) -> None:
        terrain.dig_in(self, events)
        victory.count_quiet_turn(self, events)
        if self.outcome is None:
            self._start_turn(self.next_army(self.active, lambda army: army not in self.defeated), events)

    def next_army(self, army: int, eligible: Callable[[int], bool]) -> int:
        """The next army after `army` in turn order that is `eligible` (itself if no other is)."""
        order = self.scenario.turn_order
        start = order.index(army)
        for candidate in order[start + 1 :] + order[:start]:
            if eligible(candidate):
                return candidate
        return army

    # --- questions the views and agents ask -------------------------------------------------------
    def engagements(self) -> list[Engagement]:
        """The declared attacks of this turn, per target, with attack and defence totals so far."""
        if self.phase not in (ATTACK, SUPPORT):
            return []
        return engagements(self.scenario, self.board, self.attacks, self.supports, self.redoubts)

    def unit_at(self, square: Square) -> Unit | None:
        return self.board.get(square)

    def squares_by_id(self) -> dict[str, Square]:
        return {unit.id: square for square, unit in self.board.items()}

    def high_ground(self) -> frozenset[Square]:
        return terrain.high_ground(self.scenario, self.redoubts)

    def square_name(self, square: Square) -> str:
        return self.scenario.grid.name(square)

    def repetition_key(self) -> str:
        return victory.repetition_key(self, self.active)

    def position_key(self) -> tuple:
        # A tuple, not text: the search keys every position it meets, and writing it out took a
        # tenth of a decision.
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
        return (victory.repetition_parts(self, self.active), progress)

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
        deployment.conceal(view, player)
        return view

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        state = self.observe(viewer) if viewer is not None and self.phase == SECRET_DEPLOYMENT else self
        return state._data()

    def _data(self) -> dict[str, Any]:
        name, army = self.square_name, self.players
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
            _check_declarations(state)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, ScenarioError, NotationError) as exc:
            raise RecordError(f"not a saved Napoleonic Chess state: {type(exc).__name__}: {exc}") from None
        return state


def _check_declarations(state: NapoleonicState) -> None:
    """Until they resolve (the attack and support phases), attacks and supports are declared by units
    on the board at units on the board, and the board stands still (combat.engagements relies on
    it); after it, the squares left to advance into are empty and their attackers on the board
    (combat.advances). A saved state that says otherwise is corrupt."""
    on_board = {unit.id for unit in state.board.values()}
    for vacated, attacker_ids in state.fallen.items():
        if vacated in state.board or any(unit_id not in on_board for unit_id in attacker_ids):
            raise RecordError(f"fallen: {state.square_name(vacated)} is not a vacated square its attackers may take")
    if state.phase not in (ATTACK, SUPPORT):
        return
    for what, declared in (("attacks", state.attacks), ("supports", state.supports)):
        for unit_id, target in declared.items():
            if unit_id not in on_board:
                raise RecordError(f"{what}: {unit_id} is not a unit on the board")
            if target not in state.board:
                raise RecordError(f"{what}: {unit_id} is declared at {state.square_name(target)}, where no unit stands")


# phase -> the legal actions of the deciding army in it, other than ending the phase
_GENERATORS: dict[str, Callable[[NapoleonicState, int], Iterator[NapoleonicAction]]] = {
    DEPLOYMENT: deployment.placements,
    SECRET_DEPLOYMENT: deployment.placements,
    MOVE: movement.moves,
    ATTACK: combat.attacks,
    SUPPORT: combat.supports,
    ADVANCE: combat.advances,
}
# action type -> (the phases it belongs to, the word for it in a refusal, its check, its effect)
_RULES: dict[type, tuple[tuple[str, ...], str, Callable[..., None], Callable[..., None]]] = {
    Place: ((DEPLOYMENT, SECRET_DEPLOYMENT), "placing", deployment.check_place, deployment.place),
    Move: ((MOVE,), "moving", movement.check_move, movement.apply_move),
    Attack: ((ATTACK,), "attacking", combat.check_attack, combat.apply_attack),
    Support: ((SUPPORT,), "supporting", combat.check_support, combat.apply_support),
    Advance: ((ADVANCE,), "advancing", combat.check_advance, combat.apply_advance),
}
_ACTING_SQUARE = {Move: "origin", Advance: "origin", Attack: "attacker", Support: "supporter"}
