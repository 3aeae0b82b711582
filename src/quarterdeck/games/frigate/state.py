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
    DieRolled,
    Escaped,
    Event,
    Moved,
    RanAfoul,
    Submitted,
    Turned,
)
from quarterdeck.core.hexes import Hex, HexDir, HexGrid, neighbour
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Game, Outcome, State

from . import combat, command, movement, prizes, simove, turn, victory, wind
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
from .ships import ACTIVE, ESCAPED, Ship
from .turn import DECLARE, MOVE, ORDER, PLOT, SAIL, SEGMENT

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
        turn.proceed(state, [])
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
            return [side for side in (0, 1) if self.plotting(side)]
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
    def occupied_hexes(self) -> dict[Hex, list[Ship]]:
        """The ships afloat by hex, kept until a ship moves (`moved`)."""
        if self._occupied is None:
            occupied: dict[Hex, list[Ship]] = {}
            for ship in self.ship_list:
                if ship.status == ACTIVE:
                    occupied.setdefault(ship.hex, []).append(ship)
            self._occupied = occupied
        return self._occupied

    def ships_at(self, h: Hex) -> list[Ship]:
        return self.occupied_hexes().get(h, [])

    def moved(self) -> None:
        self._occupied = None

    def squadron_of(self, ship: Ship) -> Squadron | None:
        for squadron in self.scenario.squadrons:
            if squadron.name == ship.spec.squadron and squadron.side == ship.side:
                return squadron
        return None

    def fighting(self, side: int) -> list[Ship]:
        """Her ships still in the fight under their own colours."""
        return [s for s in self.ship_list if s.status == ACTIVE and s.side == side and s.owner == side]

    def own(self, side: int) -> list[Ship]:
        """The ships a side sails now (its own and its prizes)."""
        # (the status read directly, not through `afloat`: this runs several times a movement point)
        return [s for s in self.ship_list if s.status == ACTIVE and s.owner == side]

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
            return self.window_actions(ship) if ship.owner == player else []
        if self.phase == SAIL:
            return [Sail(s.name, f) for s in self.own(player) if not s.sail_chosen for f in (False, True)]
        if self.phase == DECLARE:
            return self.declarations(player)
        if self.phase == ORDER:
            return [Order(o) for o in ALL_ORDERS] if player == self.initiative else []
        if self.stage == PLOT:
            return simove.plot_choices(self, player)
        if self.stage == MOVE and player == self.mover:
            return self._movement(player)
        return []

    def window_actions(self, ship: Ship) -> list[FrigateAction]:
        actions: list[FrigateAction] = list(combat.fire_options(self, ship))
        if self.end_round and self._can_melee(ship):
            actions.append(Melee(ship.name))
        if not actions:
            return []
        actions.append(Hold(ship.name))
        if not self.end_round:
            actions.append(Pass(ship.name))
        return actions

    def window_open(self, ship: Ship) -> bool:
        """Whether `window_actions` offers her anything, without listing it (asked after every point)."""
        return bool(combat.attacks(self, ship)) or (self.end_round and self._can_melee(ship))

    def _can_melee(self, ship: Ship) -> bool:
        if not ship.afoul or ship.prize:
            return False
        partner = self.ships[ship.afoul]
        return partner.owner != ship.owner and prizes.pair(ship.name, partner.name) not in self.melees

    def declarations(self, player: int) -> list[FrigateAction]:
        if player in self.ready:
            return []
        actions: list[FrigateAction] = []
        undeclared = [s for s in self.own(player) if not s.declared]
        for ship in undeclared:
            actions.extend(self.declare_options(ship))
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

    def declare_options(self, ship: Ship) -> list[FrigateAction]:
        if ship.afoul:
            top = movement.cutting_top(self, ship)
            # a freed ship's first point takes her out of the hex, so she cuts loose under way:
            # at MA 0 two ships that are no longer afoul would lie in one hex (Decision (ours))
            return [Declare(ship.name, 0), *(Cut(ship.name, m) for m in range(1, top + 1))]
        # (a prize taken this turn was taken after the Declaration: she has no points until the next)
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

    def movable(self, side: int) -> list[Ship]:
        return [s for s in self.own(side) if s.left > 0 and not s.afoul]

    def _movement(self, side: int) -> list[FrigateAction]:
        ships = self.movable(side)
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

    def idle_reason(self, piece: str, player: int) -> IllegalAction | None:
        ship = self.ships.get(self._ship_name(piece))
        if ship is None or self.outcome is not None or self.legal_actions(player, piece=ship.name):
            return None
        if ship.afoul and ship.owner == player and ship.afloat and self.stage in (MOVE, PLOT) and not self.windows:
            return IllegalAction("running-afoul", f"{ship.name} is afoul of {ship.afoul}: she stays in her hex "
                                 "until she cuts loose at a Movement Declaration")
        # the step's own kind of action for her, so that the rule she cannot act under is the one named
        probe = {SAIL: Sail(ship.name, ship.fighting_sail), DECLARE: Declare(ship.name, ship.ma)}.get(self.phase) or (
            {PLOT: Plot(ship.name, simove.AHEAD), MOVE: Move(ship.name)}.get(self.stage))
        rule, message = self._why_not(probe or Move(ship.name), player)
        if probe is None and rule == "sequence-of-play":  # a step no ship acts in (the order of movement)
            message = f"{ship.name} has no action in this step ({self.describe()})"
        return IllegalAction(rule, message)

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
            if self.stage != MOVE:
                return "sequence-of-play", f"{self.players[player]} is not moving now"
            if self.mover != player:
                return "sequence-of-play", f"{self.players[player]} is not moving now: {self.players[self.mover]} moves"
            started = [s for s in self.movable(player) if s.started]
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
        problem = combat.battery_problem(self, ship, action.battery)
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
            if not self.plotting(player):
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
            self.melees.add(prizes.pair(ship.name, ship.afoul))
            self.rolls.insert(0, ("melee", ship.name, 2))
        turn.proceed(self, events)
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
        turn.open_windows(self, self.mover)

    def enter(self, ship: Ship, dest: Hex, events: list[Event]) -> None:
        """She moves one hex ahead into `dest`: sails on, escapes, runs afoul, captures or recaptures."""
        origin = ship.hex
        kind, other, _ = prizes.entry(self, ship, dest)
        movement.spend(ship, 1)
        ship.must_leave = False
        self.moved()
        if kind == prizes.ESCAPE:
            ship.status, ship.edge = ESCAPED, movement.edge_of(self.grid, dest)
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

    # --- the flow of the game-turn -------------------------------------------------------------------
    def plotting(self, side: int) -> bool:
        return any(simove.plot_open(self, s) for s in self.own(side))

    # --- notation ------------------------------------------------------------------------------------
    def action_piece(self, action: Any) -> str | None:
        name = getattr(action, "ship", None)
        return name if isinstance(name, str) else None

    def action_to_text(self, action: Any) -> str:
        return action_text(action)

    def parse_action(self, text: str, player: int | None = None) -> FrigateAction:
        names = {name.lower(): name for name in self.ships}
        action = parse_action_text(text, names, tuple(q.name for q in self.scenario.squadrons))
        if isinstance(action, Fire) and not action.battery:
            return self._fire_that_bears(action, text)
        return action

    def _fire_that_bears(self, wanted: Fire, text: str) -> Fire:
        """`fire <ship> at <target> [aim]`: the one attack on the target open to her now."""
        ship = self.ships[wanted.ship]
        fires = [a for a in self.legal_actions(ship.owner, piece=ship.name)
                 if isinstance(a, Fire) and a.target == wanted.target and (not wanted.aim or a.aim == wanted.aim)]
        if len(fires) == 1:
            return fires[0]
        if len({a.battery for a in fires}) == 1:  # one broadside, aimed at the hull or the rigging
            raise NotationError("aim", f"aim at the hull or the rigging: fire {ship.name} at {wanted.target} "
                                       "hull|rigging", text)
        which = " and ".join(dict.fromkeys(a.battery for a in fires)) or "none"
        raise NotationError("battery", f"name the battery, fire {ship.name} port|starboard|bow|stern "
                                       f"{wanted.target}: of her batteries {which} may fire at {wanted.target} now",
                            text)

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
            if any(a not in turn.STEPS for a in state.agenda):
                raise ValueError("unknown step in the agenda")
            for entry in data["ships"]:
                state.ships[entry["name"]].load_json(entry, scenario.grid.parse)
            state.outcome = Outcome.from_json(data["outcome"])
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, NotationError, ScenarioError) as exc:
            raise RecordError(f"not a saved Frigate state: {type(exc).__name__}: {exc}") from None
        return state


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
    wind.START_DIRECTION: wind.start_direction_roll,
    wind.START_VELOCITY: wind.start_velocity_roll,
    wind.DIRECTION: wind.direction_roll,
    wind.VELOCITY: wind.velocity_roll,
    wind.CALM_CHECK: wind.calm_check_roll,
    wind.NEW_DIRECTION: wind.new_direction_roll,
    "cut": prizes.cut_roll,
    "command": command.command_roll,
    "course": command.course_roll,
    "initiative": turn.initiative_roll,
    "crt": combat.crt_roll,
    "confirm": combat.confirm_roll,
    "hit-kind": combat.kind_roll,
    "chase": combat.chase_roll,
    "chase-second": combat.chase_second_roll,
    "melee": prizes.melee_roll,
    "repair": turn.repair_roll,
}
