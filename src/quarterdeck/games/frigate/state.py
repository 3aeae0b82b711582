"""A Frigate battle in progress: the six-phase game-turn of seed 001's SEQUENCE OF PLAY, step by step.

    sail        before play, both sides at once: fighting sail or full sail for each ship (seed, Movement 5)
    wind        chance: direction and velocity (wind.py)
    declare     Movement Declaration: each ship's MA (movement.py); cutting loose, striking, destroying
                prizes, changes of formation; in the open (one side, then the other) or, with SiMove, in
                secret, revealed together
    command     chance: Command Control for ships away from their flag (command.py)
    initiative  chance: a die each, the higher (ties re-rolled) chooses who moves first in each segment
    segment 1-4 fire windows at the start; movement (the first side ship by ship, then the other; or,
                with SiMove, secret plots executed together point by point); a fire window after every
                point for each ship that gained a target; an end round of fire and melee; then all the
                segment's damage lands
    end of turn drift, sag (optional), Damage Control (chance), Preservation Level, prizes destroyed,
                formations, victory

`to_json()` (what the browser draws from; every field):

* ``game``, ``scenario`` ({name, title, data}), ``options``, ``tables`` (the tables in use, as read),
  ``seed_dice`` (the dice state), ``turn``, ``turns`` (the last game-turn), ``phase`` (sail, wind,
  declare, command, initiative, order, segment, end-of-turn, over), ``segment`` (1-4, 0 outside the
  execution phase), ``stage`` (inside a segment: start, move, plot, execute, end, close),
  ``wind`` ({from: N..NW, number: 1-6, velocity}), ``order`` (who moves first in segments 1-4),
  ``initiative`` (the side choosing the order), ``mover`` (the side moving now, non-SiMove),
  ``declarer``, ``ready`` (sides done with the current simultaneous or declaration step),
  ``windows`` (ships owed a fire decision, first is now), ``end_round`` (the segment's last fire
  round), ``rolls`` ([purpose, subject, dice] chance decisions due), ``attack`` (the attack whose
  dice are rolling), ``pending`` ([target, kind, firer] hits that land at the segment's end),
  ``signatures`` (per ship, the [battery, target, aim] attacks she had after the last point: a
  window opens when she gains one),
  ``fired_upon``, ``fired_on_by``, ``melees`` (afoul pairs that meleed this segment), ``destroy``
  and ``form`` (announcements not yet revealed), ``formations`` ({squadron: [shape, pending]}),
  ``forces`` ([{efficiency, crt, drops, withdrawing, lost}] for blue and red), ``exec`` (SiMove
  execution steps: [[ship, step], ...] per step) and ``exec_index``, ``plotted`` (points plotted
  per ship this segment), ``agenda`` (steps still to run this turn), ``score`` (victory points so
  far, blue and red), ``outcome``.
* ``ships``: per ship ``name``, ``side`` and ``owner`` (0 blue, 1 red; a prize's owner is her
  captor), ``status`` (active, sunk, escaped), ``rating``, ``class``, ``hex`` (CCRR), ``facing``
  (N NE SE S SW NW), ``hull``/``crew``/``guns``/``masts`` (hits), ``fighting_sail``, ``last_ma``,
  ``ma``, ``declared``, ``cut``, ``afoul`` (the ship alongside) and ``afoul_side``, ``fired``
  (batteries fired this turn), ``first_fire_turn``, ``fired_on_turn``, ``course`` (Command Control),
  ``free_turn``, ``penalty`` (mast penalty per later segment), ``left`` (points left this segment),
  ``debt``, ``turned_here``, ``must_leave``, ``passed``, ``started``, ``captured_turn``,
  ``destroying``, ``plot`` (SiMove steps; hidden from the other side until the reveal), ``edge``,
  ``striking``, plus the derived ``gs``, ``ds``, ``hull_boxes``, ``max_ma`` and ``allowed``
  ([low, high, why] during Declaration).
"""

from __future__ import annotations

import copy
from typing import Any

from quarterdeck.core.dice import Dice
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from quarterdeck.core.events import (
    Captured,
    CourseOrdered,
    Crippled,
    CutLoose,
    DieRolled,
    Dismasted,
    Escaped,
    Event,
    Fired,
    ForceChanged,
    GameOver,
    Hit,
    Meleed,
    Moved,
    PhaseChanged,
    RanAfoul,
    Revealed,
    Struck,
    Submitted,
    Sunk,
    Turned,
    WindChanged,
)
from quarterdeck.core.hexes import Hex, HexDir, HexGrid, neighbour
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Game, Outcome, State

from . import combat, command, movement, prizes, simove, victory, wind
from .actions import (
    PORT,
    STARBOARD,
    Cut,
    Declare,
    Destroy,
    EndDeclare,
    Fire,
    Form,
    FrigateAction,
    Hold,
    Melee,
    Move,
    Order,
    Pass,
    Plot,
    Roll,
    Sail,
    Stand,
    Strike,
    Turn,
    action_text,
    parse_action_text,
)
from .scenario import SIDES, Scenario, Squadron, scenario_from_data
from .ships import ESCAPED, SUNK, Ship

SAIL, WIND, DECLARE, COMMAND, INITIATIVE, ORDER, SEGMENT, END_OF_TURN, OVER = (
    "sail", "wind", "declare", "command", "initiative", "order", "segment", "end-of-turn", "over"
)
START, MOVE, PLOT, EXECUTE, END, CLOSE = "start", "move", "plot", "execute", "end", "close"
TURN_AGENDA = ("wind", "declare", "declared", "command", "initiative", "segment", "segment", "segment", "segment",
               "drift", "sag", "repair", "preserve", "end-turn")
ALL_ORDERS = tuple((a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1))


class FrigateState(State):
    def __init__(self, game: Game, scenario: Scenario, seed: int = 0):
        self.game = game
        self.scenario = scenario
        self.tables = scenario.tables
        self.grid: HexGrid = scenario.grid
        self.outcome: Outcome | None = None
        self.dice = Dice(seed)
        self.ship_list = [Ship(spec, scenario.row(spec)) for spec in scenario.ships]
        self.ships = {ship.name: ship for ship in self.ship_list}
        self.turn = 0
        self.phase = SAIL
        self.segment = 0
        self.stage = ""
        self.wind_from = scenario.wind_direction or HexDir.N
        self.velocity = scenario.wind_velocity or "moderate"
        self.agenda: list[str] = []
        self.rolls: list[tuple[str, str, int]] = []  # (purpose, subject, number of dice)
        self.attack: dict[str, Any] | None = None
        self.ready: set[int] = set()
        self.declarer = 0
        self.initiative = -1
        self.order: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.mover = 0
        self.windows: list[str] = []
        self.end_round = False
        self.signatures: dict[str, frozenset[tuple[str, str, str]]] = {}
        self.pending: list[tuple[str, str, str]] = []
        self.fired_upon: set[str] = set()
        self.fired_on_by: dict[str, set[str]] = {}
        self.melees: set[tuple[str, str]] = set()
        self.destroy: dict[int, set[str]] = {0: set(), 1: set()}
        self.form: dict[str, str] = {}
        self.formations: dict[str, tuple[str, str]] = {q.name: (q.formation, "") for q in scenario.squadrons}
        self.force_state = [command.ForceState(f.efficiency, f.crt) for f in scenario.forces]
        self.exec_steps: list[list[tuple[str, str]]] = []
        self.exec_index = 0
        self.plotted: dict[str, int] = {}
        self.viewer: int | None = None
        self._occupied: dict[Hex, list[Ship]] | None = None

    @classmethod
    def start(cls, game: Game, scenario: Scenario, seed: int) -> FrigateState:
        state = cls(game, scenario, seed)
        state._proceed([])
        return state

    # --- who decides ---------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return SIDES

    def current_player(self) -> int:
        if self.outcome is not None:
            return TERMINAL
        if self.rolls:
            return CHANCE
        if self.windows:
            return self.ships[self.windows[0]].owner
        if self.phase == SAIL or (self.phase == DECLARE and self.simove) or self.stage == PLOT:
            return SIMULTANEOUS
        if self.phase == DECLARE:
            return self.declarer
        if self.phase == ORDER:
            return self.initiative
        return self.mover

    def acting_players(self) -> list[int]:
        player = self.current_player()
        if player != SIMULTANEOUS:
            return [player] if player >= 0 else []
        if self.stage == PLOT:
            return [side for side in (0, 1) if self._plotting(side)]
        return [side for side in (0, 1) if side not in self.ready]

    @property
    def simove(self) -> bool:
        return bool(self.scenario.option("simove"))

    def describe(self) -> str:
        if self.outcome is not None:
            return super().describe()
        where = f"turn {self.turn}, {self.phase}" + (f" {self.segment} ({self.stage})" if self.segment else "")
        if self.current_player() == CHANCE:
            return f"{where}: rolling for {self.rolls[0][0]}"
        names = " and ".join(self.players[p] for p in self.acting_players())
        return f"{where}: {names} to decide"

    # --- questions about the position ----------------------------------------------------------------
    def _occupancy(self) -> dict[Hex, list[Ship]]:
        if self._occupied is None:
            occupied: dict[Hex, list[Ship]] = {}
            for ship in self.ship_list:
                if ship.afloat:
                    occupied.setdefault(ship.hex, []).append(ship)
            self._occupied = occupied
        return self._occupied

    def occupied_hexes(self) -> dict[Hex, list[Ship]]:
        return self._occupancy()

    def ships_at(self, h: Hex) -> list[Ship]:
        return self._occupancy().get(h, [])

    def _moved(self) -> None:
        self._occupied = None

    def squadron_of(self, ship: Ship) -> Squadron | None:
        for squadron in self.scenario.squadrons:
            if squadron.name == ship.spec.squadron and squadron.side == ship.side:
                return squadron
        return None

    def fighting(self, side: int) -> list[Ship]:
        """Her ships still in the fight under their own colours."""
        return [s for s in self.ship_list if s.afloat and s.side == side and s.owner == side]

    def own(self, side: int) -> list[Ship]:
        """The ships a side sails now (its own and its prizes)."""
        return [s for s in self.ship_list if s.afloat and s.owner == side]

    # --- legal actions -------------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[FrigateAction]:
        if self.outcome is not None:
            return []
        if player is None:
            player = self._resolve_player(None)
        elif player == CHANCE:
            if self.current_player() != CHANCE:
                return []
        elif player not in self.acting_players():
            return []
        if player == CHANCE:
            actions: list[FrigateAction] = [outcome for outcome, _ in self.chance_outcomes()]
        else:
            actions = self._choices(player)
        if piece is not None:
            name = self._ship_name(piece)
            actions = [a for a in actions if self.action_piece(a) == name]
        return actions

    def _ship_name(self, text: str) -> str:
        lower = text.lower()
        for name in self.ships:
            if name.lower() == lower:
                return name
        return text

    def _choices(self, player: int) -> list[FrigateAction]:
        if self.windows:
            ship = self.ships[self.windows[0]]
            return self._window_actions(ship) if ship.owner == player else []
        if self.phase == SAIL:
            return [Sail(s.name, f) for s in self.own(player) if not s.sail_chosen for f in (False, True)]
        if self.phase == DECLARE:
            return self._declarations(player)
        if self.phase == ORDER:
            return [Order(o) for o in ALL_ORDERS] if player == self.initiative else []
        if self.stage == PLOT:
            return simove.plot_choices(self, player)
        if self.stage == MOVE and player == self.mover:
            return self._movement(player)
        return []

    def _window_actions(self, ship: Ship) -> list[FrigateAction]:
        actions: list[FrigateAction] = list(combat.fire_options(self, ship))
        if self.end_round and self._can_melee(ship):
            actions.append(Melee(ship.name))
        if not actions:
            return []
        actions.append(Hold(ship.name))
        if not self.end_round:
            actions.append(Pass(ship.name))
        return actions

    def _can_melee(self, ship: Ship) -> bool:
        if not ship.afoul or ship.prize:
            return False
        partner = self.ships[ship.afoul]
        return partner.owner != ship.owner and _pair(ship.name, partner.name) not in self.melees

    def _declarations(self, player: int) -> list[FrigateAction]:
        if player in self.ready:
            return []
        actions: list[FrigateAction] = []
        undeclared = [s for s in self.own(player) if not s.declared]
        for ship in undeclared:
            actions.extend(self._declare_options(ship))
        for ship in self.own(player):
            if not ship.prize and not ship.striking and (ship.hull or ship.crew):
                actions.append(Strike(ship.name))
            if self._destroy_problem(ship, player) is None:
                actions.append(Destroy(ship.name))
        for squadron in self.scenario.squadrons:
            shape, pending = self.formations[squadron.name]
            if squadron.side == player and shape and not pending and squadron.name not in self.form:
                other = "line-abreast" if shape == "line-ahead" else "line-ahead"
                if command.members(self, squadron):
                    actions.append(Form(squadron.name, other))
        if not undeclared:
            actions.append(EndDeclare())
        return actions

    def _declare_options(self, ship: Ship) -> list[FrigateAction]:
        if ship.afoul:
            top = movement.cutting_top(self, ship)
            # a freed ship's first point takes her out of the hex, so she cuts loose under way:
            # at MA 0 two ships that are no longer afoul would lie in one hex (Decision (ours))
            return [Declare(ship.name, 0), *(Cut(ship.name, m) for m in range(1, top + 1))]
        if ship.prize and ship.captured_turn >= self.turn:
            return [Declare(ship.name, 0)]
        low, high, _ = movement.declaration_range(self, ship)
        if movement.dead_to_windward(self, ship):
            return [Declare(ship.name, 0), Declare(ship.name, 0, PORT), Declare(ship.name, 0, STARBOARD)]
        if command.cut_off(self, ship):
            low = high
        return [Declare(ship.name, ma) for ma in range(low, high + 1)]

    def _destroy_problem(self, ship: Ship, player: int) -> str | None:
        if not ship.prize or ship.owner != player:
            return f"{ship.name} is not a prize of {self.players[player]}"
        if ship.destroying >= 0 or ship.name in self.destroy[player]:
            return f"{ship.name}'s destruction is already announced"
        if not ship.afoul or self.ships[ship.afoul].owner != player:
            return f"none of {self.players[player]}'s ships is afoul of {ship.name}"
        return None

    def _movable(self, side: int) -> list[Ship]:
        return [s for s in self.own(side) if s.left > 0 and not s.afoul]

    def _movement(self, side: int) -> list[FrigateAction]:
        ships = self._movable(side)
        started = [s for s in ships if s.started]
        actions: list[FrigateAction] = []
        for ship in started[:1] or ships:
            actions.extend(self._ship_moves(ship))
        return actions

    def _ship_moves(self, ship: Ship) -> list[FrigateAction]:
        actions: list[FrigateAction] = []
        if movement.move_problem(self, ship) is None and prizes.entry(self, ship, neighbour(ship.hex, ship.facing))[0]:
            actions.append(Move(ship.name))
        for way in (PORT, STARBOARD):
            if movement.turn_problem(self, ship, movement.WAYS[way]) is None:
                actions.append(Turn(ship.name, way))
        return actions or [Stand(ship.name)]

    # --- checking an action --------------------------------------------------------------------------
    def _validate(self, action: Any, player: int) -> None:
        if player == CHANCE:
            if action not in {outcome for outcome, _ in self.chance_outcomes()}:
                raise IllegalAction("chance", f"{self._text(action)} is not a possible roll now")
            return
        if isinstance(action, Roll):
            raise IllegalAction("chance", "dice are rolled by chance, not by a player")
        if action in self._choices(player):
            return
        raise IllegalAction(*self._why_not(action, player))

    def _text(self, action: Any) -> str:
        try:
            return action_text(action)
        except (AttributeError, KeyError, TypeError):
            return repr(action)

    def _why_not(self, action: Any, player: int) -> tuple[str, str]:
        """The rule an action breaks, for the error message."""
        name = getattr(action, "ship", None)
        ship = self.ships.get(name) if isinstance(name, str) else None
        if name is not None and ship is None:
            return "ship", f"there is no ship called {name!r}"
        if ship is not None and ship.owner != player:
            return "ownership", f"{ship.name} is not {self.players[player]}'s to command"
        if ship is not None and not ship.afloat:
            return "ship", f"{ship.name} is no longer in the battle ({ship.status})"
        if self.windows and isinstance(action, Fire) and ship is not None and ship.name == self.windows[0]:
            return self._fire_problem(ship, action)
        if self.windows:
            return "fire-window", f"{self.windows[0]}'s fire window is open: fire, hold or pass first"
        expected = {SAIL: (Sail,), DECLARE: (Declare, Cut, Strike, Destroy, Form, EndDeclare), ORDER: (Order,)}
        if self.phase in expected and not isinstance(action, expected[self.phase]):
            return "sequence-of-play", f"it is the {self.phase} phase: {self._text(action)} is not due"
        if isinstance(action, Fire | Hold | Pass | Melee):
            return "fire-window", f"{self._text(action)}: no fire window is open for that now"
        if isinstance(action, Declare | Cut) and ship is not None:
            if ship.declared:
                return "declaration", f"{ship.name} has already declared this turn"
            if isinstance(action, Cut):
                if not ship.afoul:
                    return "cutting-loose", f"{ship.name} is not afoul: there is nothing to cut"
                top = movement.cutting_top(self, ship)
                return "cutting-loose", (f"{ship.name} cuts loose under way, at 1 to {top}" if top else
                                         f"{ship.name} cannot get under way to cut loose (dismasted or no wind)")
            low, high, why = movement.declaration_range(self, ship)
            return "momentum", f"{ship.name} may declare {low} to {high}: {why}"
        if isinstance(action, Destroy) and ship is not None:
            return "destroying-prizes", self._destroy_problem(ship, player) or "not now"
        if isinstance(action, Move | Turn | Stand) and ship is not None:
            if self.stage != MOVE or self.mover != player:
                return "sequence-of-play", f"{self.players[player]} is not moving now"
            started = [s for s in self._movable(player) if s.started]
            if started and started[0] is not ship:
                return "one-ship-at-a-time", f"{started[0].name} must finish her points first"
            if isinstance(action, Move):
                problem = movement.move_problem(self, ship)
                if problem is None:
                    kind, _, why = prizes.entry(self, ship, neighbour(ship.hex, ship.facing))
                    problem = ("stacking", why) if not kind else None
                return problem or ("movement", "not now")
            if isinstance(action, Turn):
                return movement.turn_problem(self, ship, movement.WAYS[action.way]) or ("movement", "not now")
            return "stand", f"{ship.name} can still move or turn: she may not stand"
        if isinstance(action, Plot) and ship is not None:
            return simove.plot_problem(self, ship, action.step) or ("simove", "not now")
        return "sequence-of-play", f"{self._text(action)} is not legal now"

    def _fire_problem(self, ship: Ship, action: Fire) -> tuple[str, str]:
        target = self.ships.get(action.target)
        if target is None:
            return "target", f"there is no ship called {action.target!r}"
        broadside = action.battery in combat.BROADSIDES
        problem = (combat.broadside_problem if broadside else combat.chase_problem)(self, ship, action.battery)
        problem = problem or combat.target_problem(self, ship, action.battery, target)
        if problem is None and broadside and target not in combat.nearest_rule(self, ship, [target]):
            problem = ("nearest-target", f"{ship.name} must fire on the nearest enemy not yet fired upon")
        if problem is None and broadside and action.aim not in ("hull", "rigging"):
            problem = ("aim", "a broadside is aimed at the hull or the rigging")
        if problem is None and not broadside and action.aim:
            problem = ("aim", "chase guns are not aimed: leave the aim out")
        if problem is None and broadside:
            problem = ("odds", f"{ship.name}'s {action.battery} broadside cannot harm {target.name} at these odds")
        return problem or ("combat", "not now")

    # --- applying an action --------------------------------------------------------------------------
    def _apply(self, action: Any, player: int) -> list[Event]:
        events: list[Event] = []
        if player == CHANCE:
            self._resolve_roll(action, events)
        elif isinstance(action, Sail):
            ship = self.ships[action.ship]
            ship.fighting_sail, ship.sail_chosen = action.fighting, True
            if all(s.sail_chosen for s in self.own(player)):
                self.ready.add(player)
                events.append(Submitted(self.players[player]))
        elif isinstance(action, Declare):
            ship = self.ships[action.ship]
            ship.ma, ship.free_turn, ship.declared, ship.cut = action.ma, action.turn, True, False
        elif isinstance(action, Cut):
            ship = self.ships[action.ship]
            ship.ma, ship.declared, ship.cut = action.ma, True, True
        elif isinstance(action, Strike):
            self.ships[action.ship].striking = True
        elif isinstance(action, Destroy):
            self.destroy[player].add(action.ship)
        elif isinstance(action, Form):
            self.form[action.squadron] = action.formation
        elif isinstance(action, EndDeclare):
            self.ready.add(player)
            if self.simove:
                events.append(Submitted(self.players[player]))
            else:
                self.declarer = 1 - player
        elif isinstance(action, Order):
            self.order = action.first
            self.phase = SEGMENT
        elif isinstance(action, Move | Turn | Stand):
            self._point(self.ships[action.ship], action, events)
        elif isinstance(action, Plot):
            ship = self.ships[action.ship]
            ship.plot = (*ship.plot, action.step)
            if not self._plotting(player):
                events.append(Submitted(self.players[player]))
        elif isinstance(action, Fire):
            self._fire(self.ships[action.ship], action, events)
        elif isinstance(action, Hold):
            self.windows.pop(0)
        elif isinstance(action, Pass):
            self.ships[action.ship].passed = True
            self.windows.pop(0)
        elif isinstance(action, Melee):
            ship = self.ships[action.ship]
            self.melees.add(_pair(ship.name, ship.afoul))
            self.rolls.insert(0, ("melee", ship.name, 2))
        self._proceed(events)
        return events

    def _point(self, ship: Ship, action: Any, events: list[Event]) -> None:
        """One Movement Point spent by a ship (non-SiMove), then the fire windows it opens."""
        if isinstance(action, Move):
            self.enter(ship, neighbour(ship.hex, ship.facing), events)
        elif isinstance(action, Turn):
            movement.apply_turn(self, ship, movement.WAYS[action.way])
            events.append(Turned(ship.name, self.grid.name(ship.hex), ship.facing.name))
        else:
            movement.spend(ship, 1)
        self.open_windows(self.mover)

    def enter(self, ship: Ship, dest: Hex, events: list[Event]) -> None:
        """She moves one hex ahead into `dest`: sails on, escapes, runs afoul, captures or recaptures."""
        origin = ship.hex
        kind, other, _ = prizes.entry(self, ship, dest)
        movement.spend(ship, 1)
        ship.must_leave = False
        self._moved()
        if kind == prizes.ESCAPE:
            ship.status, ship.edge = ESCAPED, _edge_of(self.grid, dest)
            ship.left = 0
            events.append(Escaped(ship.name, self.grid.name(origin), ship.edge))
            return
        ship.hex = dest
        ship.turned_here = 0
        events.append(Moved(ship.name, self.grid.name(origin), self.grid.name(dest), ship.facing.name))
        if kind in (prizes.CAPTURE, prizes.RECAPTURE) and other is not None:
            other.owner, other.captured_turn = ship.owner, self.turn
            other.left, other.plot = 0, ()
            events.append(Captured(other.name, self.grid.name(dest), ship.name))
        elif kind == prizes.AFOUL and other is not None:
            prizes.conform(ship, other, origin)
            other.plot = ()
            events.append(RanAfoul(ship.name, other.name, self.grid.name(dest)))

    def _fire(self, ship: Ship, action: Fire, events: list[Event]) -> None:
        target = self.ships[action.target]
        ship.fired = ship.fired | {action.battery}
        self.fired_upon.add(target.name)
        self.fired_on_by.setdefault(target.name, set()).add(ship.name)
        target.fired_on_turn = self.turn
        if action.battery in combat.CHASERS:
            self.attack = {"firer": ship.name, "battery": action.battery, "target": target.name, "aim": "mast",
                           "column": "", "gunnery": 0, "hits": 0}
            self.rolls.insert(0, ("chase", ship.name, 1))
            return
        if ship.first_fire_turn == 0:
            ship.first_fire_turn = self.turn
        attack = combat.describe_attack(self, ship, action.battery, target)
        self.attack = {"firer": ship.name, "battery": action.battery, "target": target.name, "aim": action.aim,
                       "column": attack.column, "gunnery": attack.gunnery, "hits": 0, "rake": attack.rake}
        self.rolls.insert(0, ("crt", ship.name, 1))

    # --- chance --------------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        if self.outcome is not None or not self.rolls:
            return []
        if self.rolls[0][2] == 2:
            return [(Roll((a, b)), 1 / 36) for a in range(1, 7) for b in range(1, 7)]
        return [(Roll((face,)), 1 / 6) for face in range(1, 7)]

    def _resolve_roll(self, roll: Roll, events: list[Event]) -> None:
        """Each die shown apart (a two-die roll is not just its sum) with what it decided."""
        purpose, subject, _ = self.rolls.pop(0)
        at = len(events)
        decided = _ROLL_HANDLERS[purpose](self, subject, roll.values, events)
        label = _ROLL_LABELS[purpose].format(subject=subject)
        events.insert(at, DieRolled(label, sum(roll.values), roll.values, decided))

    def _wind_start_direction(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        self.wind_from = HexDir.from_number(values[0])
        return f"from the {self.wind_from.name}"

    def _wind_start_velocity(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        self.velocity = self.tables.start_velocity[values[0] - 1]
        events.append(WindChanged(self.wind_from.name, self.velocity))
        return self.velocity

    def _wind_direction(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        before = self.wind_from
        self.wind_from = wind.direction_after(self.tables, before, values[0])
        if self.wind_from == before:
            return f"steady from the {before.name}"
        return f"{'veers' if self.wind_from == before.turned(1) else 'backs'} to the {self.wind_from.name}"

    def _wind_velocity(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        before = self.velocity
        no_wind = bool(self.scenario.option("no_wind"))
        optional = len(values) == 2
        # Standard table: no wind comes only from the re-roll on a change to Calm (seed).
        floor_ok = no_wind and (optional or before == "no wind")
        self.velocity = wind.velocity_after(self.tables, before, wind.velocity_change(self.tables, values), floor_ok)
        decided = f"steady, {before}" if self.velocity == before else f"{before} to {self.velocity}"
        if no_wind and not optional and self.velocity == "calm" and before != "calm":
            self.rolls.insert(0, (wind.CALM_CHECK, "", 1))
            decided += f" (roll again: {self.tables.no_wind_face} means no wind)"
        if before == "no wind" and self.velocity != "no wind":
            self.rolls.insert(0, (wind.NEW_DIRECTION, "", 1))
            decided += " (its new direction is rolled)"
        events.append(WindChanged(self.wind_from.name, self.velocity))
        return decided

    def _wind_calm_check(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        if values[0] == self.tables.no_wind_face:
            self.velocity = "no wind"
            events.append(WindChanged(self.wind_from.name, self.velocity))
            return "no wind"
        return "calm holds"

    def _wind_new_direction(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        self.wind_from = HexDir.from_number(values[0])
        events.append(WindChanged(self.wind_from.name, self.velocity))
        return f"from the {self.wind_from.name}"

    def _cut_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        ship = self.ships[subject]
        partner = self.ships[ship.afoul]
        freed = values[0] <= 3
        events.append(CutLoose(ship.name, partner.name, freed))
        if freed:
            self._free(ship, partner)
            return f"1-3: cut loose from {partner.name}"
        ship.ma = 0
        return f"4-6: still afoul of {partner.name}"

    def _free(self, ship: Ship, partner: Ship) -> None:
        prizes.free_pair(ship, partner)
        for s in (ship, partner):
            s.must_leave = s.ma > 0
            if not s.cut:
                s.ma = 0

    def _command_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        ship = self.ships[subject]
        needed = self.tables.efficiency[self.force_state[ship.owner].efficiency].command
        if values[0] > needed:
            self.rolls.insert(0, ("course", subject, 1))
            return f"fails (needs {needed} or less): a die sets her course"
        return f"passes (needs {needed} or less)"

    def _course_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        ship = self.ships[subject]
        ship.course = command.ordered_course(values[0], self.wind_from)
        events.append(CourseOrdered(ship.name, ship.course.name))
        return f"she must sail {ship.course.name} all this turn"

    def _initiative_roll(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        blue, red = values
        if blue == red:
            self.rolls.insert(0, ("initiative", "", 2))
            return "a tie, rolled again"
        self.initiative = 0 if blue > red else 1
        self.phase = ORDER
        events.append(PhaseChanged(self.players[self.initiative], "order", self.turn))
        return f"{self.players[self.initiative]} chooses who moves first in each segment"

    def _crt_roll(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        attack = self.attack
        assert attack is not None
        target = self.ships[attack["target"]]
        sail = attack["aim"] == "rigging" and target.fighting_sail
        face = values[0] - (1 if sail else 0)
        hits = combat.crt_hits(self.tables, attack["column"], face)
        attack["hits"] = hits
        decided = f"column {attack['column']}{', -1 for fighting sail' if sail else ''}: {_hits(hits)}"
        if hits and self.tables.crt[attack["column"]].confirm is not None:
            self.rolls.insert(0, ("confirm", attack["firer"], 1))
            return decided + " if a second die confirms"
        self._hits_rolled(events)
        return decided

    def _confirm_roll(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        attack = self.attack
        assert attack is not None
        target = self.ships[attack["target"]]
        face = values[0] - (1 if attack["aim"] == "rigging" and target.fighting_sail else 0)
        decided = f"{_hits(attack['hits'])} confirmed"
        if not combat.confirmed(self.tables, attack["column"], face):
            attack["hits"] = 0
            decided = "not confirmed: no hit"
        self._hits_rolled(events)
        return decided

    def _hits_rolled(self, events: list[Event]) -> None:
        attack = self.attack
        assert attack is not None
        events.append(Fired(attack["firer"], attack["battery"], attack["gunnery"], attack["target"], attack["hits"]))
        self.rolls[0:0] = [("hit-kind", attack["firer"], 1)] * attack["hits"]
        if not attack["hits"]:
            self.attack = None

    def _kind_roll(self, _: str, values: tuple[int, ...], events: list[Event]) -> str:
        attack = self.attack
        assert attack is not None
        kind = combat.hit_kind(self.tables, attack["aim"], values[0])
        self.pending.append((attack["target"], kind, attack["firer"]))
        if not any(r[0] == "hit-kind" for r in self.rolls):
            self.attack = None
        return f"a {kind} hit on {attack['target']} (aimed at the {attack['aim']}), landing at the segment's end"

    def _chase_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        if values[0] == 1:
            self.rolls.insert(0, ("chase-second", subject, 1))
            return "a 1: the second die decides"
        self._chase_done(0, events)
        return "no hit"

    def _chase_second_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        hit = values[0] == 1
        self._chase_done(1 if hit else 0, events)
        return "two 1s: a mast hit" if hit else "no hit"

    def _chase_done(self, hits: int, events: list[Event]) -> None:
        attack = self.attack
        assert attack is not None
        events.append(Fired(attack["firer"], attack["battery"], 0, attack["target"], hits))
        if hits:
            self.pending.append((attack["target"], "mast", attack["firer"]))
        self.attack = None

    def _melee_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        ship = self.ships[subject]
        partner = self.ships[ship.afoul]
        own, theirs_points = prizes.melee_points(self, ship), prizes.melee_points(self, partner)
        mine, theirs = values[0] + own, values[1] + theirs_points
        events.append(Meleed(ship.name, partner.name, mine, theirs))
        if mine <= theirs:
            self.pending.append((ship.name, "crew", partner.name))
        if theirs <= mine:
            self.pending.append((partner.name, "crew", ship.name))
        losers = " and ".join(s.name for s, lost in ((ship, mine <= theirs), (partner, theirs <= mine)) if lost)
        return (f"{ship.name} {values[0]} + {own} = {mine} against {partner.name} {values[1]} + {theirs_points} = "
                f"{theirs}: {losers} {'take' if mine == theirs else 'takes'} a crew hit")

    def _repair_roll(self, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
        ship = self.ships[subject]
        needed = self.tables.efficiency[self.force_state[ship.owner].efficiency].repair
        if values[0] <= needed:
            ship.crew -= 1
            events.append(Hit(ship.name, -1, "", f"crew hit repaired, {ship.crew} left"))
            return f"a crew hit repaired (needs {needed} or less)"
        return f"no repair (needs {needed} or less)"

    # --- the flow of the game-turn -------------------------------------------------------------------
    def _proceed(self, events: list[Event]) -> None:
        """Run what needs no decision until a decision (or a die) is due."""
        while self.outcome is None:
            if self.phase == DECLARE:
                self._auto_ready(events)
            if self._awaiting():
                return
            if not self.agenda:
                self._new_turn(events)
                continue
            step = self.agenda[0]
            if _STEPS[step](self, events):
                self.agenda.pop(0)

    def _auto_ready(self, events: list[Event]) -> None:
        """A side with nothing left to decide at Declaration is done at once."""
        for side in (0, 1):
            if side in self.ready or any(not s.declared for s in self.own(side)):
                continue  # an undeclared ship leaves her side a declaration to make
            if self._declarations(side) == [EndDeclare()]:
                self.ready.add(side)
                if self.simove:
                    events.append(Submitted(self.players[side]))
                elif self.declarer == side:
                    self.declarer = 1 - side

    def _awaiting(self) -> bool:
        if self.rolls:
            return True
        while self.windows and not self._window_actions(self.ships[self.windows[0]]):
            self.windows.pop(0)
        if self.windows:
            return True
        if self.phase == SAIL:
            return len(self.ready) < 2
        if self.phase == DECLARE:
            return len(self.ready) < 2
        if self.phase == ORDER:
            return True
        if self.stage == MOVE:
            return bool(self._movable(self.mover))
        if self.stage == PLOT:
            return any(self._plotting(side) for side in (0, 1))
        return False

    def _plotting(self, side: int) -> bool:
        return any(simove.plot_open(self, s) for s in self.own(side))

    def _new_turn(self, events: list[Event]) -> None:
        if self.phase == SAIL:
            events.append(Revealed(self.players))
        self.turn += 1
        self.agenda = list(TURN_AGENDA)
        self.phase = WIND
        events.append(PhaseChanged("both", "wind", self.turn))

    def _step_wind(self, events: list[Event]) -> bool:
        if self.turn == 1:
            if self.scenario.wind_velocity is None:
                self.rolls.append((wind.START_VELOCITY, "", 1))
            if self.scenario.wind_direction is None:
                self.rolls.insert(0, (wind.START_DIRECTION, "", 1))
            if self.scenario.wind_direction and self.scenario.wind_velocity:
                events.append(WindChanged(self.wind_from.name, self.velocity))
        else:
            optional = self.scenario.option("wind_table") == "optional"
            self.rolls.extend((purpose, "", dice) for purpose, dice in wind.turn_rolls(self.velocity, optional))
        return True

    def _step_declare(self, events: list[Event]) -> bool:
        self.phase = DECLARE
        self.ready = set()
        self.declarer = (self.turn + 1) % 2  # the side declaring first alternates (Decision)
        for ship in self.ship_list:
            ship.declared, ship.cut, ship.free_turn, ship.striking = False, False, "", False
            ship.ma = 0
        # A ship with a single possible declaration declares it at once.
        for ship in self.ship_list:
            if ship.afloat:
                options = self._declare_options(ship)
                if len(options) == 1 and isinstance(options[0], Declare):
                    ship.ma, ship.declared = options[0].ma, True
        events.append(PhaseChanged(self.players[self.declarer] if not self.simove else "both", "declare", self.turn))
        return True

    def _step_declared(self, events: list[Event]) -> bool:
        if self.simove:
            events.append(Revealed(self.players))
        self.phase = COMMAND
        self.ready = set()
        for ship in self.ship_list:
            if ship.afloat and ship.striking:
                ship.striking = False
                ship.owner, ship.captured_turn, ship.ma = 1 - ship.side, self.turn, 0
                ship.left, ship.cut = 0, False
                events.append(Struck(ship.name, self.grid.name(ship.hex)))
        for side in (0, 1):
            for name in sorted(self.destroy[side]):
                ship = self.ships[name]
                if ship.afloat and ship.prize and ship.owner == side and ship.afoul:
                    ship.destroying = 0
            self.destroy[side] = set()
        for squadron, shape in self.form.items():
            self.formations[squadron] = (self.formations[squadron][0], shape)
        self.form = {}
        done: set[str] = set()
        for ship in self.ship_list:
            if not ship.afloat or not ship.afoul or ship.name in done:
                continue
            partner = self.ships[ship.afoul]
            done |= {ship.name, partner.name}
            askers = [s for s in (ship, partner) if s.cut]
            if not askers:
                continue
            if len(askers) == 2 or ship.prize or partner.prize or ship.owner == partner.owner:
                events.append(CutLoose(askers[0].name, self.ships[askers[0].afoul].name, True))
                self._free(ship, partner)
            else:
                self.rolls.append(("cut", askers[0].name, 1))
        self._check_end(events)
        return True

    def _step_command(self, events: list[Event]) -> bool:
        for ship in self.ship_list:
            if ship.afloat and ship.ma > 0 and command.subject_to_command_control(self, ship):
                self.rolls.append(("command", ship.name, 1))
        return True

    def _step_initiative(self, events: list[Event]) -> bool:
        self.phase = INITIATIVE
        self.rolls.append(("initiative", "", 2))
        return True

    def _step_segment(self, events: list[Event]) -> bool:
        """One of the four segments; re-entered until its stages are done."""
        if self.stage == "":
            self._begin_segment(events)
        elif self.stage == START:
            if self.simove:
                self.stage = PLOT
            else:
                self.stage, self.mover = MOVE, self.order[self.segment - 1]
        elif self.stage == MOVE:
            first = self.order[self.segment - 1]
            if self.mover == first and self._movable(1 - first):
                self.mover = 1 - first
            else:
                self.stage = END
        elif self.stage == PLOT:
            simove.reveal(self, events)
            self.stage = EXECUTE
        elif self.stage == EXECUTE:
            if self.exec_index < len(self.exec_steps):
                simove.execute_step(self, events)
            else:
                self.stage = END
        elif self.stage == END:
            self.end_round = True
            first = self.order[self.segment - 1]
            self.windows = [s.name for side in (first, 1 - first) for s in self.own(side)]
            self.stage = CLOSE
        else:
            self._close_segment(events)
            self.stage = ""
            return True
        return False

    def _begin_segment(self, events: list[Event]) -> None:
        self.phase = SEGMENT
        self.segment = 5 - self.agenda.count("segment")
        self.stage = START
        self.end_round = False
        self.melees = set()
        for ship in self.ship_list:
            ship.passed = ship.started = False
            ship.plot = ()
            ship.mast_hits_now = 0
            ship.segment_k = movement.wind_offset(ship.facing, self.wind_from)
            allot = movement.segment_allotment(self, ship, self.segment)
            if ship.afoul or not ship.afloat or (ship.prize and ship.captured_turn >= self.turn):
                allot = 0
            paid = min(allot, ship.debt)
            ship.debt -= paid
            ship.left = allot - paid
            if self.segment == 1 and ship.free_turn:
                ship.facing = ship.facing.turned(movement.WAYS[ship.free_turn])
                ship.free_turn = ""
                events.append(Turned(ship.name, self.grid.name(ship.hex), ship.facing.name))
        events.append(PhaseChanged(self.players[self.order[self.segment - 1]], f"segment {self.segment}", self.turn))
        self.signatures = {}
        first = self.order[self.segment - 1]
        self.open_windows(first, every=True)

    def open_windows(self, first: int, every: bool = False) -> None:
        """Seed, Sequence of Play 2 (fire at any time), made exact by the ruling: a window for each
        ship whose targets changed (every ship with a target at the segment's start)."""
        for side in (first, 1 - first):
            enemies = combat.in_the_fight(self, side)
            for ship in self.own(side):
                options = combat.fire_options(self, ship, enemies)
                signature = frozenset((f.battery, f.target, f.aim) for f in options)
                gained = signature - self.signatures.get(ship.name, frozenset())
                self.signatures[ship.name] = signature
                if (gained or (every and signature)) and not ship.passed and ship.name not in self.windows:
                    self.windows.append(ship.name)

    def _close_segment(self, events: list[Event]) -> None:
        """All the segment's damage lands (seed, Sequence of Play 2), with its consequences."""
        self.windows = []
        self.end_round = False
        landed: dict[str, list[str]] = {}
        for target, kind, _ in self.pending:
            landed.setdefault(target, []).append(kind)
            ship = self.ships[target]
            if kind == "hull":
                ship.hull += 1
            elif kind == "crew":
                ship.crew = min(ship.crew + 1, self.tables.crew_limit)
            elif kind == "gun":
                ship.guns = min(ship.guns + 1, ship.spec.gs)
            else:
                ship.masts = min(ship.masts + 1, self.tables.mast_limit)
                ship.mast_hits_now += 1
        last_firer = {target: firer for target, _, firer in self.pending}
        self.pending = []
        for name, kinds in landed.items():
            ship = self.ships[name]
            square = self.grid.name(ship.hex)
            summary = f"hull {ship.hull}/{ship.spec.hull} crew {ship.crew} guns {ship.guns} masts {ship.masts}"
            events.append(Hit(name, len(kinds), ",".join(kinds), summary))
            if ship.hull >= ship.spec.hull and ship.afloat:
                self._sink(ship, last_firer[name], events)
                continue
            if "crew" in kinds and ship.crippled(self.tables):
                events.append(Crippled(name, square))
                partner = self.ships.get(ship.afoul)
                if partner is not None and partner.owner != ship.owner and _pair(name, partner.name) in self.melees:
                    ship.owner, ship.captured_turn = partner.owner, self.turn
                    events.append(Captured(name, square, partner.name))
            if "mast" in kinds and ship.dismasted(self.tables):
                events.append(Dismasted(name, square))
        for ship in self.ship_list:
            ship.penalty += ship.mast_hits_now
            ship.mast_hits_now = 0
            ship.left = 0
        self._check_end(events)

    def _sink(self, ship: Ship, by: str, events: list[Event]) -> None:
        ship.status = SUNK
        ship.left = 0
        if ship.afoul:
            prizes.free_pair(ship, self.ships[ship.afoul])
        self._moved()
        events.append(Sunk(ship.name, self.grid.name(ship.hex), by))

    def _step_drift(self, events: list[Event]) -> bool:
        """Drift (reconstructed) and seed rule 7: dismasted and afoul ships face into the wind; they
        and ships that declared MA 0 drift one hex downwind in Moderate and Fresh winds."""
        self.phase, self.segment, self.stage = END_OF_TURN, 0, ""
        if self.velocity not in self.tables.drift_velocities:
            return True
        done: set[str] = set()
        for ship in list(self.ship_list):
            if not ship.afloat or ship.name in done:
                continue
            if not (ship.afoul or ship.dismasted(self.tables) or ship.ma == 0):
                continue
            group = [ship] + ([self.ships[ship.afoul]] if ship.afoul else [])
            done |= {s.name for s in group}
            for s in group:
                if s.afoul or s.dismasted(self.tables):
                    s.facing = self.wind_from
            self._shift(group, 1, events)
        return True

    def _step_sag(self, events: list[Event]) -> bool:
        """Seed, Movement 8 (optional): in Fresh wind every ship, drifting or not, moves its Sag
        column downwind after all movement."""
        if not self.scenario.option("sagging") or self.velocity not in self.tables.sag_velocities:
            return True
        done: set[str] = set()
        for ship in list(self.ship_list):
            if not ship.afloat or ship.name in done:
                continue
            group = [ship] + ([self.ships[ship.afoul]] if ship.afoul else [])
            done |= {s.name for s in group}
            self._shift(group, min(s.row.sag for s in group), events)
        return True

    def _shift(self, group: list[Ship], hexes: int, events: list[Event]) -> None:
        """Move ships (an afoul pair together) downwind, stopping short of an occupied hex; off the
        map they leave the battle."""
        way = movement.downwind(self)
        for _ in range(hexes):
            here = group[0].hex
            dest = neighbour(here, way)
            if not self.grid.contains(dest):
                for ship in group:
                    ship.status, ship.edge = ESCAPED, _edge_of(self.grid, dest)
                    events.append(Escaped(ship.name, self.grid.name(here), ship.edge))
                self._moved()
                return
            if self.ships_at(dest):
                return
            for ship in group:
                ship.hex = dest
                ship.turned_here = 0
                events.append(Moved(ship.name, self.grid.name(here), self.grid.name(dest), ship.facing.name))
            self._moved()

    def _step_repair(self, events: list[Event]) -> bool:
        """Damage Control (reconstructed): a die per ship with 1-2 crew hits."""
        for ship in self.ship_list:
            if ship.afloat and 0 < ship.crew < self.tables.crew_limit:
                self.rolls.append(("repair", ship.name, 1))
        return True

    def _step_preserve(self, events: list[Event]) -> bool:
        """Preservation Level: the standard rule, or the seed's optional efficiency drops."""
        standard = self.scenario.option("preservation") == "standard"
        for side in (0, 1):
            force, level = self.force_state[side], self.scenario.forces[side].preservation
            due = command.preservation_drops(level, victory.preservation_lost(self, side))
            if standard:
                if due and not force.withdrawing:
                    force.withdrawing = True
                    events.append(ForceChanged(self.players[side], "over its Preservation Level: withdraws"))
                continue
            while force.drops < due:
                force.drops += 1
                events.append(ForceChanged(self.players[side], command.apply_drop(force, False)))
                if force.drops == 2:
                    force.crt = command.worse_crt(force.crt)
                    events.append(ForceChanged(self.players[side], f"uses CRT {force.crt}"))
        return True

    def _step_end_turn(self, events: list[Event]) -> bool:
        for ship in self.ship_list:
            if not ship.afloat:
                continue
            if ship.destroying >= 0:
                partner = self.ships.get(ship.afoul)
                if partner is None or partner.owner != ship.owner:
                    ship.destroying = -1
                else:
                    ship.destroying += 1
                    if ship.destroying >= 4:
                        self._sink(ship, partner.name, events)
                        continue
            ship.last_ma = ship.ma
            ship.fired = frozenset()
            ship.course = None
            ship.penalty = ship.debt = 0
            ship.must_leave = False
        for squadron in self.scenario.squadrons:
            shape, pending = self.formations[squadron.name]
            if pending and command.formation_met(self, squadron, pending):
                self.formations[squadron.name] = (pending, "")
        self.fired_upon = set()
        self.fired_on_by = {}
        if not self._check_end(events) and self.turn >= self.scenario.turns:
            self._finish_on_points(f"the {self.scenario.turns} game-turns are over", events)
        return True

    def _check_end(self, events: list[Event]) -> bool:
        out = [side for side in (0, 1) if not self.fighting(side)]
        if out and self.outcome is None:
            names = " and ".join(self.players[s] for s in out)
            self._finish_on_points(f"{names} {'has' if len(out) == 1 else 'have'} no ship left in the fight", events)
        return self.outcome is not None

    def _finish_on_points(self, reason: str, events: list[Event]) -> None:
        score = victory.points(self)
        if score[0] == score[1]:
            returns, result = (0.0, 0.0), "draw"
        else:
            winner = 0 if score[0] > score[1] else 1
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            result = self.players[winner]
        self.outcome = Outcome(returns, result, f"{reason}; points {score[0]} to {score[1]}")
        self.phase = OVER
        self.rolls, self.windows = [], []
        events.append(GameOver(result, self.outcome.reason))

    # --- notation ------------------------------------------------------------------------------------
    def action_piece(self, action: Any) -> str | None:
        name = getattr(action, "ship", None)
        return name if isinstance(name, str) else None

    def action_to_text(self, action: Any) -> str:
        return action_text(action)

    def parse_action(self, text: str, player: int | None = None) -> FrigateAction:
        names = {name.lower(): name for name in self.ships}
        return parse_action_text(text, names, tuple(q.name for q in self.scenario.squadrons))

    # --- copies, views, JSON -------------------------------------------------------------------------
    def clone(self) -> FrigateState:
        twin = FrigateState.__new__(FrigateState)
        twin.__dict__.update(self.__dict__)
        twin.dice = self.dice.clone()
        twin.ship_list = [ship.copy() for ship in self.ship_list]
        twin.ships = {ship.name: ship for ship in twin.ship_list}
        twin.agenda = list(self.agenda)
        twin.rolls = list(self.rolls)
        twin.attack = dict(self.attack) if self.attack else None
        twin.ready = set(self.ready)
        twin.windows = list(self.windows)
        twin.signatures = dict(self.signatures)
        twin.pending = list(self.pending)
        twin.fired_upon = set(self.fired_upon)
        twin.fired_on_by = {k: set(v) for k, v in self.fired_on_by.items()}
        twin.melees = set(self.melees)
        twin.destroy = {k: set(v) for k, v in self.destroy.items()}
        twin.form = dict(self.form)
        twin.formations = dict(self.formations)
        twin.force_state = [f.copy() for f in self.force_state]
        twin.exec_steps = [list(step) for step in self.exec_steps]
        twin.plotted = dict(self.plotted)
        twin._occupied = None
        return twin

    def observe(self, player: int) -> FrigateState:
        """A copy without the other side's secrets: its fighting-sail choices before play, its SiMove
        declarations and announcements before the reveal, its plots before execution. Those decisions
        show as not yet made (the side still among the acting players)."""
        view = self.clone()
        view.viewer = player
        # A spectator (a seat number no side holds) sees neither side's secrets.
        for other in (side for side in (0, 1) if side != player):
            view._conceal(other)
        return view

    def _conceal(self, other: int) -> None:
        if self.phase == SAIL:
            self.ready.discard(other)
            for ship in self.own(other):
                ship.sail_chosen, ship.fighting_sail = False, False
        if self.phase == DECLARE and self.simove:
            self.ready.discard(other)
            self.destroy[other] = set()
            self.form = {q: f for q, f in self.form.items() if self._squadron_side(q) != other}
            for ship in self.own(other):
                ship.declared, ship.cut, ship.free_turn, ship.striking, ship.ma = False, False, "", False, 0
        if self.stage == PLOT:
            for ship in self.own(other):
                ship.plot = ()

    def _squadron_side(self, name: str) -> int:
        return next(q.side for q in self.scenario.squadrons if q.name == name)

    def _secret_now(self) -> bool:
        return self.phase == SAIL or (self.phase == DECLARE and self.simove) or self.stage == PLOT

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        state = self.observe(viewer) if viewer is not None and self._secret_now() else self
        return state._data(viewer)

    def _data(self, viewer: int | None) -> dict[str, Any]:
        name = self.grid.name
        ships = []
        for ship in self.ship_list:
            entry = ship.to_json(name)
            entry.update(gs=ship.spec.gs, ds=ship.spec.ds, hull_boxes=ship.spec.hull,
                         max_ma=ship.max_ma(self.tables, self.velocity, self.wind_from) if ship.afloat else 0)
            if self.phase == DECLARE and ship.afloat:
                entry["allowed"] = list(movement.declaration_range(self, ship))
            ships.append(entry)
        return {
            "game": self.game.name,
            "scenario": {"name": self.scenario.name, "title": self.scenario.title,
                         "data": copy.deepcopy(self.scenario.data)},
            "options": dict(self.scenario.options),
            "tables": copy.deepcopy(self.scenario.tables_data),
            # the rolls to come are nobody's to know: only the whole saved state carries the dice
            "seed_dice": self.dice.to_json() if viewer is None else None,
            "turn": self.turn,
            "turns": self.scenario.turns,
            "phase": self.phase,
            "segment": self.segment,
            "stage": self.stage,
            "wind": {"from": self.wind_from.name, "number": self.wind_from.number, "velocity": self.velocity},
            "order": [self.players[s] for s in self.order],
            "initiative": self.players[self.initiative] if self.initiative >= 0 else None,
            "mover": self.players[self.mover],
            "declarer": self.players[self.declarer],
            "ready": sorted(self.players[s] for s in self.ready),
            "windows": list(self.windows),
            "end_round": self.end_round,
            "rolls": [list(r) for r in self.rolls],
            "attack": dict(self.attack) if self.attack else None,
            "pending": [list(p) for p in self.pending],
            "signatures": {k: sorted(list(t) for t in v) for k, v in self.signatures.items()},
            "fired_upon": sorted(self.fired_upon),
            "fired_on_by": {k: sorted(v) for k, v in self.fired_on_by.items()},
            "melees": sorted(list(p) for p in self.melees),
            "destroy": {self.players[s]: sorted(v) for s, v in self.destroy.items()},
            "form": dict(self.form),
            "formations": {k: list(v) for k, v in self.formations.items()},
            "forces": [{"efficiency": f.efficiency, "crt": f.crt, "drops": f.drops, "withdrawing": f.withdrawing,
                        "lost": victory.preservation_lost(self, side)}
                       for side, f in enumerate(self.force_state)],
            "exec": [[list(m) for m in step] for step in self.exec_steps],
            "exec_index": self.exec_index,
            "plotted": dict(self.plotted),
            "agenda": list(self.agenda),
            "score": list(victory.points(self)),
            "ships": ships,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> FrigateState:
        try:
            if data.get("game") != game.name:
                raise RecordError(f"this is a saved state of {data.get('game')!r}, not {game.name!r}")
            scenario = scenario_from_data(data["scenario"]["data"], data["scenario"]["name"],
                                          {k: v for k, v in data["options"].items()}, data["tables"])
            state = cls(game, scenario)
            side = {n: i for i, n in enumerate(SIDES)}
            state.dice = Dice.from_json(data["seed_dice"])
            state.turn, state.phase = int(data["turn"]), str(data["phase"])
            state.segment, state.stage = int(data["segment"]), str(data["stage"])
            state.wind_from, state.velocity = HexDir[data["wind"]["from"]], str(data["wind"]["velocity"])
            state.order = tuple(side[s] for s in data["order"])  # type: ignore[assignment]
            state.initiative = side[data["initiative"]] if data["initiative"] is not None else -1
            state.mover, state.declarer = side[data["mover"]], side[data["declarer"]]
            state.ready = {side[s] for s in data["ready"]}
            state.windows = [str(w) for w in data["windows"]]
            state.end_round = bool(data["end_round"])
            state.rolls = [(str(p), str(s), int(n)) for p, s, n in data["rolls"]]
            state.attack = dict(data["attack"]) if data["attack"] else None
            state.pending = [(str(t), str(k), str(f)) for t, k, f in data["pending"]]
            state.signatures = {k: frozenset(tuple(x) for x in v) for k, v in data["signatures"].items()}
            state.fired_upon = set(data["fired_upon"])
            state.fired_on_by = {k: set(v) for k, v in data["fired_on_by"].items()}
            state.melees = {(str(a), str(b)) for a, b in data["melees"]}
            state.destroy = {side[s]: set(v) for s, v in data["destroy"].items()}
            state.form = {str(k): str(v) for k, v in data["form"].items()}
            state.formations = {str(k): (str(v[0]), str(v[1])) for k, v in data["formations"].items()}
            for force, entry in zip(state.force_state, data["forces"], strict=True):
                force.efficiency, force.crt = str(entry["efficiency"]), str(entry["crt"])
                force.drops, force.withdrawing = int(entry["drops"]), bool(entry["withdrawing"])
            state.exec_steps = [[(str(a), str(b)) for a, b in step] for step in data["exec"]]
            state.exec_index = int(data["exec_index"])
            state.plotted = {str(k): int(v) for k, v in data["plotted"].items()}
            state.agenda = [str(a) for a in data["agenda"]]
            if any(a not in _STEPS for a in state.agenda):
                raise ValueError("unknown step in the agenda")
            for entry in data["ships"]:
                state.ships[entry["name"]].load_json(entry, scenario.grid.parse)
            state.outcome = Outcome.from_json(data["outcome"])
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, NotationError, ScenarioError) as exc:
            raise RecordError(f"not a saved Frigate state: {type(exc).__name__}: {exc}") from None
        return state


def _hits(hits: int) -> str:
    return {0: "no hit", 1: "1 hit"}.get(hits, f"{hits} hits")


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _edge_of(grid: HexGrid, h: Hex) -> str:
    column, row = grid.to_offset(h)
    if column < 0:
        return "west"
    if column >= grid.columns:
        return "east"
    return "north" if row < 0 else "south"


_ROLL_LABELS = {
    wind.START_DIRECTION: "the wind's direction",
    wind.START_VELOCITY: "the wind's velocity",
    wind.DIRECTION: "the wind's direction",
    wind.VELOCITY: "the wind's velocity",
    wind.CALM_CHECK: "no wind",
    wind.NEW_DIRECTION: "the new wind's direction",
    "cut": "{subject} cutting loose",
    "command": "{subject}'s Command Control",
    "course": "{subject}'s course",
    "initiative": "initiative (blue's die, then red's)",
    "crt": "{subject}'s attack on the CRT",
    "confirm": "{subject}'s hits (the confirming die)",
    "hit-kind": "the kind of {subject}'s hit",
    "chase": "{subject}'s chase guns",
    "chase-second": "{subject}'s chase guns (second die)",
    "melee": "the melee of {subject}",
    "repair": "{subject}'s Damage Control",
}
_ROLL_HANDLERS = {
    wind.START_DIRECTION: FrigateState._wind_start_direction,
    wind.START_VELOCITY: FrigateState._wind_start_velocity,
    wind.DIRECTION: FrigateState._wind_direction,
    wind.VELOCITY: FrigateState._wind_velocity,
    wind.CALM_CHECK: FrigateState._wind_calm_check,
    wind.NEW_DIRECTION: FrigateState._wind_new_direction,
    "cut": FrigateState._cut_roll,
    "command": FrigateState._command_roll,
    "course": FrigateState._course_roll,
    "initiative": FrigateState._initiative_roll,
    "crt": FrigateState._crt_roll,
    "confirm": FrigateState._confirm_roll,
    "hit-kind": FrigateState._kind_roll,
    "chase": FrigateState._chase_roll,
    "chase-second": FrigateState._chase_second_roll,
    "melee": FrigateState._melee_roll,
    "repair": FrigateState._repair_roll,
}
_STEPS = {
    "wind": FrigateState._step_wind,
    "declare": FrigateState._step_declare,
    "declared": FrigateState._step_declared,
    "command": FrigateState._step_command,
    "initiative": FrigateState._step_initiative,
    "segment": FrigateState._step_segment,
    "drift": FrigateState._step_drift,
    "sag": FrigateState._step_sag,
    "repair": FrigateState._step_repair,
    "preserve": FrigateState._step_preserve,
    "end-turn": FrigateState._step_end_turn,
}
