"""A Naval Warfare position (seed 003): whose decision, the legal actions, and the move sequence.

The sequence of a move (rules 1, 3, 6 and the rulings): the wind dice; the initiative (2d6 a
side); the start-of-move throws (fires, ships adrift or in irons, rule 8); boarding fights that go
on; drifting ships move, and abandoned galleys are rowed for the beach; the first player moves
each of his ships, then the second; the first player fires, the second removes the batteries lost
to sixes; the second fires, the first removes; the end of the move (masts and fires for damage
reached, foundering, broken crews, jury masts, surrender and survivors); the clock advances.

Every die is a CHANCE decision: the state keeps an agenda of what is due next (a roll, a player's
decision, or an automatic step) so rolls caused by rolls (a six re-thrown, a second fire die, the
rounds of a boarding) come in the book's order, and a record replays exactly.

`to_json(viewer)` (the browser draws from it; every field):

* ``game``, ``scenario`` (its name), ``title``, ``table`` ({width, height} in inches), ``sides``
  (the two seat names), ``options`` (the switches, name -> bool), ``land`` (list of {name, kind
  "land" or "shoal", points [[x, y] inches]}).
* ``move`` (number, from 1), ``clock`` (minutes after midnight of the first day; may pass 24 h at
  night), ``clock_text`` ("3:00 pm"), ``moves_left`` (moves until nightfall or dawn),
  ``phase`` (wind, initiative, start, fights, drift, move-first, move-second, fire-first,
  damage-second, fire-second, damage-first, end, clock), ``first`` (the seat that moves and fires
  first this move, or null), ``moving`` (the seat moving now, or null).
* ``wind``: {``from`` degrees the wind blows from, ``name`` (N, NE ...), ``strength`` 0-3,
  ``strength_name``, ``prevailing`` degrees or null, ``calm_moves``, ``light_moves``}.
* ``ships``: one per ship: {name, side (seat index), type, nation, description, year, tons,
  guns, x, y (inches), heading (degrees), length, beam (inches), flotation, flotation_max, crew,
  crew_max, min_crew, batteries [{mount, kind, half}], masts_lost, status (afloat, waiting,
  surrendered, prize, rowing, sunk, wrecked, blown-up, foundered, taken, abandoned, beached,
  disengaged), in_play (on the table: afloat, surrendered, prize or rowing), controller (the seat
  that moves her: her captor's for a prize), damage (0-3: quarter, half, three-quarters reached),
  on_fire (0, or 1 + failed throws), grappled (name or ""), irons, adrift, heave_to, oars,
  converting, tow, towing, moved, fired [mounts], prisoners, prize_crew, captor (seat or -1),
  held_until (a ship carried by boarders: the move at whose end she is secured, or 0), gunners
  (men kept at the guns in a boarding action), dishonoured, limits {mode (sail, oars, turn,
  grappled, surrendered, towed, none), turn, run_max, run_min (inches), wind (degrees or null), why
  (a ship that may not move: the reason and its rule, "is in irons and drifts (rule 7)"; else "")}
  for the ship's move now, arrival (a reinforcement still off the table: when and where she comes
  on, or why she still waits; else "")}.
* ``agenda``: what is due next, e.g. {"roll": "hit"} or {"decide": "fire", "player": 0}.
* ``volley``: the fire being thrown now ({firer, target, mount, shots [[kind, half, band]], rake,
  dice}) or null; ``fight``: the boarding round being thrown now or null; ``removals``: ship ->
  batteries its owner still has to remove; ``continuing``: [[attacker, defender]] fights that
  go on next move; ``survivors``: sunk ship -> [x, y, count] in inches.
* ``score``: [points of seat 0, points of seat 1] (rulings, "Victory"); ``outcome`` or null;
  ``dice`` (the generator's state, so a saved game rolls on identically).
"""

from __future__ import annotations

import copy
from typing import Any

from quarterdeck.core import plane
from quarterdeck.core.dice import Dice
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from quarterdeck.core.events import Event, GameOver, Marked, Passed, PhaseChanged, Placed, Sunk
from quarterdeck.core.protocol import CHANCE, TERMINAL, Action, Game, Outcome, State, ships_phrase

from . import boarding, damage, drift, fire, movement, prizes, sampling, victory, wind
from .actions import (
    END_FIRE,
    END_MOVE,
    Choose,
    EndFire,
    EndMove,
    Fire,
    Gunners,
    Move,
    Remove,
    Roll,
    action_text,
    parse,
)
from .scenario import COMPASS_NAMES, MOUNTS, Scenario, parse_scenario
from .ship import AFLOAT, PRIZE, ROWING, WAITING, Ship

PHASES = (
    "wind", "initiative", "start", "fights", "drift", "move-first", "move-second",
    "fire-first", "damage-second", "fire-second", "damage-first", "end", "clock",
)
D6 = tuple((Roll((v,)), 1 / 6) for v in range(1, 7))
# throws for one ship, passed over once she has left the table (the captives' escape is thrown as soon as
# she is secured, while she is on it)
SHIP_ROLLS = {"fire", "resume", "irons", "rule8", "mast", "powder", "powder-second", "crew", "cut"}


class NavalState(State):
    def __init__(self, game: Game, scenario: Scenario, seed: int = 0):
        self.game = game
        self.scenario = scenario
        self.dice = Dice(seed)
        self.ships: dict[str, Ship] = {}
        self.ship_sides: dict[str, int] = {}
        self.land_names = frozenset(land.name for land in scenario.land)
        self.land_circles = tuple((x.name, x.polygon, *plane.radius(x.polygon)) for x in scenario.land)
        self.phase = "setup"
        self.move_number = 1
        self.clock = scenario.time if scenario.time is not None else 12 * 60
        self.wind = scenario.wind
        self.strength = scenario.strength
        self.prevailing = scenario.prevailing
        self.calm_moves = 0
        self.light_moves = 0
        self.was_calm = False
        self.first: int | None = None
        self.moving: int | None = None
        self.agenda: list[tuple] = []
        self.volley: dict[str, Any] | None = None
        self.fight: dict[str, Any] | None = None
        self.removals: dict[str, int] = {}
        self.removal_firer: dict[str, str] = {}
        self.continuing: list[tuple[str, str]] = []
        self.survivors: dict[str, tuple[int, int, int]] = {}
        self.outcome: Outcome | None = None
        self._events: list[Event] = []
        self._pending: list[tuple] | None = None
        self._cand: dict[str, list[Move]] = {}

    @classmethod
    def start(cls, game: Game, scenario: Scenario, seed: int = 0) -> NavalState:
        state = cls(game, scenario, seed)
        for p in scenario.ships:
            spec = p.spec
            state.ships[p.name] = Ship(p.name, p.side, spec, p.x, p.y, p.heading, spec.flotation, spec.crew,
                                       list(spec.batteries), status=AFLOAT if p.arrives == 1 else WAITING,
                                       oars=p.oars)
            state.ship_sides[p.name] = p.side
        state._call(state._setup)
        state._run()
        state._events = []
        return state

    # --- reading --------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.scenario.sides

    def ordered_ships(self) -> list[Ship]:
        return list(self.ships.values())

    def where(self, point: tuple[float, float]) -> str:
        return f"({point[0] / 100:.2f}, {point[1] / 100:.2f})"

    def wind_text(self) -> str:
        return wind.describe(self)

    def second(self) -> int:
        return 1 - (self.first or 0)

    # --- the agenda -------------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self._events.append(event)

    def push_roll(self, purpose: str, *context: Any) -> None:
        self._pending.append(("roll", purpose, *context))

    def push_do(self, name: str, *context: Any) -> None:
        self._pending.append(("do", name, *context))

    def push_decide(self, player: int, kind: str, *context: Any) -> None:
        self._pending.append(("decide", kind, player, *context))

    def _call(self, function, *args: Any) -> None:
        """Run a rule; what it puts on the agenda comes next, in the order it was put there."""
        outer, self._pending = self._pending, []
        try:
            function(*args)
        finally:
            self.agenda[0:0] = self._pending
            self._pending = outer

    def _run(self) -> None:
        while self.outcome is None:
            beaten = victory.side_beaten(self)
            if beaten is not None and self.phase != "setup":
                self.finish(f"{self.players[beaten]} has no ship left that can fight or move "
                            f"({victory.fates(self, beaten)})")
                return
            if not self.agenda:
                self._next_phase()
                continue
            head = self.agenda[0]
            if head[0] == "do":
                self.agenda.pop(0)
                self._call(self._do, *head[1:])
            elif head[0] == "roll":
                if head[1] in SHIP_ROLLS and not self.ships[head[2]].in_play:
                    self.agenda.pop(0)
                    continue
                return
            elif not self._has_options(head):
                self.agenda.pop(0)
                if head[1] == "fire" and not any(s.fired for s in self.ordered_ships() if s.side == head[2]):
                    self._tell_none_fired(head[2])
                if head[1] == "move":
                    self._tell_none_moved(head[2])
                if head[1] == "damage" and self.removals:
                    self._clear_removals(head[2])
            else:
                return

    def _tell_none_fired(self, player: int) -> None:
        """A side with nothing to fire is told why; when the other side's fire passed the same way just
        before (nothing fired, nothing changed between), both are told in one line."""
        why, rule = "that can fire bears on an enemy within range", "rules 9 and 10"
        told = Passed(self.players[1 - player], f"fires nothing this move: no battery of theirs {why}", rule)
        if self._events[-1:] == [told]:
            self._events[-1] = Passed("neither side", f"fires this move: no battery of either {why}", rule)
        else:
            self.emit(Passed(self.players[player], f"fires nothing this move: no battery of theirs {why}", rule))

    def _tell_none_moved(self, player: int) -> None:
        """A side whose movement passes with no ship of hers moved is told why each lies still (rule 2's
        first move of a calm, irons, a lost rig), as its fire is told when nothing bears."""
        ships = [s for s in self.ordered_ships() if s.controller == player and s.in_play]
        if not ships or any(s.moved for s in ships):
            return
        still: dict[tuple[str, str], list[str]] = {}
        for ship in ships:
            lim = movement.limits(self, ship)
            reason, rule = (lim.reason, lim.rule) if lim.mode == "none" else ("has no move open to her", "rule 3")
            still.setdefault((reason, rule), []).append(ship.name)
        why = "; ".join(f"{names[0]} {reason}" if len(names) == 1 else f"{ships_phrase(names)} each {reason}"
                        for (reason, _), names in still.items())
        rules = list(dict.fromkeys(rule for _, rule in still))
        if len(rules) > 1 and all(rule.startswith("rule ") for rule in rules):  # "rules 2 and 7"
            rules = [f"rules {', '.join(rule[5:] for rule in rules[:-1])} and {rules[-1][5:]}"]
        self.emit(Passed(self.players[player], f"moves no ship this move: {why}", ", ".join(rules)))

    def _next_phase(self) -> None:
        if self.phase == "setup":
            self.phase = "wind"
        else:
            index = PHASES.index(self.phase)
            self.phase = PHASES[(index + 1) % len(PHASES)]
        self._call(getattr(self, "_phase_" + self.phase.replace("-", "_")))

    # --- phases -------------------------------------------------------------------------------------
    def _setup(self) -> None:
        if self.scenario.time is None:
            self.push_roll("time")
        if self.scenario.roll_wind:
            self.push_roll("prevailing")

    def _phase_wind(self) -> None:
        for ship in self.ordered_ships():
            ship.moved = False
            ship.fired = ()
            ship.fired_close = False
            ship.batteries_fired = 0
            ship.irons_turn = False
            if ship.status == WAITING:
                self._arrive(ship)
        self.first = self.moving = None
        self.push_roll("wind")

    def _arrive(self, ship: Ship) -> None:
        placement = self.scenario.placement(ship.name)
        if placement.arrives > self.move_number:
            return
        shape = ship.hull()
        if any(o.in_play and plane.convex_overlap(shape, o.hull()) for o in self.ships.values()):
            self.emit(Marked(ship.name, placement.arrival(self.move_number), "reinforcements"))
            return  # the place is taken: she comes on when it is free, and her side is told
        ship.status = AFLOAT
        self.emit(Placed(ship.name, self.where(ship.point)))

    def _phase_initiative(self) -> None:
        self.push_roll("initiative")

    def _phase_start(self) -> None:
        for ship in self.ordered_ships():
            if not ship.fighting:
                continue
            if ship.on_fire:
                self.push_roll("fire", ship.name)
            if ship.heave_to:
                ship.heave_to = False
                ship.adrift = True  # drifts from this move; throws to sail again from the next
            elif ship.adrift:
                self.push_roll("resume", ship.name)
            if ship.irons:
                self.push_roll("irons", ship.name)
        self.push_do("rule8")

    def _phase_fights(self) -> None:
        boarding.continue_fights(self)

    def _phase_drift(self) -> None:
        drift.drift_all(self)
        drift.row_for_the_beach(self)

    def _phase_move_first(self) -> None:
        self.moving = self.first
        self.emit(PhaseChanged(self.players[self.first], "move", self.move_number))
        self.push_decide(self.first, "move")

    def _phase_move_second(self) -> None:
        self.moving = self.second()
        self.emit(PhaseChanged(self.players[self.moving], "move", self.move_number))
        self.push_decide(self.moving, "move")

    def _phase_fire_first(self) -> None:
        self.moving = None
        self.push_decide(self.first, "fire")

    def _phase_damage_second(self) -> None:
        self._damage_step(self.second())

    def _phase_fire_second(self) -> None:
        self.push_decide(self.second(), "fire")

    def _phase_damage_first(self) -> None:
        self._damage_step(self.first)

    def _damage_step(self, player: int) -> None:
        if self.scenario.option("auto-batteries"):
            self.push_do("auto-remove", player)
        else:
            self.push_decide(player, "damage")

    def _phase_end(self) -> None:
        prizes.secure_held(self)
        damage.threshold_checks(self)
        for ship in damage.foundering_ships(self):
            if ship.batteries:
                self.push_decide(ship.side, "founder", ship.name)
            else:
                self.push_do("founder", ship.name)
        for ship in prizes.broken_crews(self):
            self.push_roll("crew", ship.name)
        if self.scenario.option("jury-masts"):
            self.push_do("jury")
        self.push_decide(self.first, "end")
        self.push_decide(self.second(), "end")

    def _phase_clock(self) -> None:
        for ship in self.ordered_ships():
            if ship.converting == "oars-next":
                ship.converting = "oars"
            elif ship.converting == "oars":
                ship.oars, ship.converting = True, ""
            elif ship.converting == "sail-next":
                ship.converting = "sail"
            elif ship.converting == "sail":
                ship.oars, ship.converting = False, ""
        self.survivors = {}
        self.clock += self.scenario.move_minutes
        if self.clock >= victory.DAWN:
            self.finish("dawn: the night action is over")
            return
        if victory.is_night(self):
            if not victory.night_rules(self):
                self.finish("nightfall ends the battle")
                return
            if self.scenario.option("night-escape") or self.scenario.option("keep-nine-pm"):
                self.push_decide(self.first, "night")
                self.push_decide(self.second(), "night")
        self.move_number += 1

    # --- automatic steps -------------------------------------------------------------------------------
    def _do(self, name: str, *context: Any) -> None:
        if name == "wind-settled":
            wind.settled(self)
        elif name == "rule8":
            for ship in self.ordered_ships():
                if drift.too_close(self, ship):
                    self.push_roll("rule8", ship.name)
        elif name == "volley":
            fire.resolve_volley(self)
        elif name == "boarding-round":
            boarding.round_done(self)
        elif name == "boarding-dice":
            attacker, defender = self.ships[context[0]], self.ships[context[1]]
            if attacker.grappled == defender.name:
                boarding.throw(self, attacker, defender)
        elif name == "renew-fight":
            boarding.begin(self, self.ships[context[0]], self.ships[context[1]])
        elif name == "lose-mast":
            damage.lose_mast(self, self.ships[context[0]])
        elif name == "founder":
            if self.ships[context[0]].in_play:
                damage.founder(self, self.ships[context[0]])
        elif name == "jury":
            damage.jury_rig(self)
        elif name == "auto-remove":
            for ship_name in list(self.removals):
                ship = self.ships[ship_name]
                while ship.controller == context[0] and self.removals.get(ship_name, 0) > 0 and ship.batteries:
                    fire.remove_battery(self, fire.auto_removal(self, ship_name))
            self._clear_removals(context[0])

    def _clear_removals(self, player: int) -> None:
        for name in [n for n in self.removals if self.ships[n].controller == player]:
            del self.removals[name]
            self.removal_firer.pop(name, None)

    # --- rolls ----------------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player() != CHANCE:
            return []
        purpose = self.agenda[0][1]
        if purpose == "wind":
            return [(Roll(v), p) for v, p in wind.WIND_OUTCOMES]
        if purpose == "initiative":
            return [(Roll(v), p) for v, p in wind.INITIATIVE_OUTCOMES]
        return list(D6)

    def _roll(self, values: tuple[int, ...]) -> None:
        step = self.agenda.pop(0)
        purpose, context = step[1], step[2:]
        ships = [self.ships[name] for name in context if isinstance(name, str) and name in self.ships]
        value = values[0]
        handlers = {
            "time": lambda: wind.setup_time(self, value),
            "prevailing": lambda: wind.setup_wind(self, value),
            "first-wind": lambda: wind.setup_wind(self, value, second=True),
            "calm-direction": lambda: wind.calm_direction(self, value),
            "wind": lambda: wind.wind_dice(self, *values),
            "wind-red": lambda: wind.rotate(self, value),
            "wind-black": lambda: wind.strength_die(self, value),
            "initiative": lambda: wind.initiative(self, *values),
            "fire": lambda: damage.fire_die(self, ships[0], value),
            "resume": lambda: drift.resume(self, ships[0], value),
            "irons": lambda: drift.irons_roll(self, ships[0], value),
            "rule8": lambda: drift.rule8(self, ships[0], value),
            "grapple": lambda: boarding.grapple_die(self, ships[0], ships[1], value),
            "tow": lambda: movement.tow_roll(self, ships[0], ships[1], value),
            "cut": lambda: boarding.cut_die(self, ships[0], value),
            "hit": lambda: fire.hit_die(self, value),
            "boarding": lambda: boarding.boarding_die(self, value),
            "withdraw": lambda: boarding.withdraw_die(self, ships[0], ships[1], value),
            "morale": lambda: boarding.morale_die(self, ships[0], ships[1], value),
            "mast": lambda: damage.mast_die(self, ships[0], value),
            "powder": lambda: damage.powder_die(self, ships[0], value),
            "powder-second": lambda: damage.powder_second(self, ships[0], value),
            "crew": lambda: prizes.crew_die(self, ships[0], value),
            "escape": lambda: prizes.escape_die(self, ships[0], value),
            "night": lambda: victory.escape_die(self, context[0], value),
        }
        self._call(handlers[purpose])

    # --- who decides -------------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.outcome is not None:
            return TERMINAL
        head = self.agenda[0]
        return CHANCE if head[0] == "roll" else head[2]

    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[Action]:
        if self.outcome is not None:
            return []
        head = self.agenda[0]
        if head[0] == "roll":
            actions = [] if player not in (None, CHANCE) else [a for a, _ in self.chance_outcomes()]
        elif player is not None and player != head[2]:
            return []
        else:
            actions = self._options(head)
        if piece is not None:
            actions = [a for a in actions if self.action_piece(a) == piece]
        return actions

    def _options(self, step: tuple) -> list[Action]:
        kind, player = step[1], step[2]
        if kind == "move":
            return [move for ship in self.ships_to_move(player) for move in self._candidates(ship)]
        if kind == "fire":
            found = fire.options(self, player)
            return [*found, END_FIRE] if found else []
        if kind == "damage":
            return fire.removal_options(self, player)
        if kind == "end":
            found = prizes.end_of_move_options(self, player)
            return [END_MOVE, *found] if found else []  # the usual choice first: `1` never surrenders
        if kind == "withdraw":
            return [Choose("withdraw", step[3]), Choose("fight-on", step[3])]
        if kind == "repel":
            ship, other = self.ships[step[3]], self.ships[step[4]]
            # the defender that repelled them: a ship under her own colours, or a prize under her captor's
            if not (ship.fighting or ship.status == PRIZE) or ship.grappled != other.name:
                return []
            return [Choose("cut", step[3]), Choose("keep-grapples", step[3])]
        if kind == "founder":
            ship = self.ships[step[3]]
            if not ship.in_play:
                return []
            seen = list(dict.fromkeys(ship.batteries))
            return [Remove(ship.name, m, b.kind, b.half, True) for m, b in seen] + [Choose("founder", ship.name)]
        if kind == "accept":
            return [Choose("accept", step[3]), Choose("refuse", step[3])]
        if kind == "gunners":
            ship = self.ships[step[3]]
            if ship.grappled not in step[4:6] or not ship.in_play:
                return []
            return [Gunners(ship.name, men) for men in range(min(len(ship.batteries), ship.crew - 1) + 1)]
        if kind == "night":
            return [Choose("escape"), Choose("stay")]
        raise AssertionError(kind)

    def _has_options(self, step: tuple) -> bool:
        """Whether the decision has any legal action; for movement without listing every ship's moves."""
        if step[1] != "move":
            return bool(self._options(step))
        return any(sampling.quick_move(self, ship) is not None or self._candidates(ship)
                   for ship in self.ships_to_move(step[2]))

    def _candidates(self, ship: Ship) -> list[Move]:
        """A ship's offered moves, kept until the next action changes the position."""
        if ship.name not in self._cand:
            self._cand[ship.name] = sampling.candidates(self, ship)
        return self._cand[ship.name]

    def ships_to_move(self, player: int) -> list[Ship]:
        """The ships `player` still moves this move, in order: her own and the prizes she took."""
        return [s for s in self.ordered_ships() if s.controller == player and self._may_move(s)]

    def _may_move(self, ship: Ship) -> bool:
        if ship.moved or not ship.in_play:
            return False
        lim = movement.limits(self, ship)
        if lim.mode == "none":
            return False
        if lim.mode == "surrendered":
            return ship.surrender_kind != "boarding" or prizes.reinforced(self, ship)
        return True

    def idle_reason(self, piece: str, player: int) -> IllegalAction | None:
        ship = next((s for s in self.ships.values() if s.name.lower() == piece.lower()), None)
        if ship is None or self.outcome is not None or self.legal_actions(player, piece=ship.name):
            return None
        if ship.controller != player:
            return IllegalAction("ownership", f"{ship.name} is not {self.players[player]}'s to command")
        if ship.status == WAITING:
            arrival = self.scenario.placement(ship.name).arrival(self.move_number)
            return IllegalAction("reinforcements", f"{ship.name} {arrival}")
        head = self.agenda[0]
        if head[0] == "roll" or head[2] != player:
            return IllegalAction("rule 3", f"now is {self._step_text(head)}: {ship.name} waits")
        if head[1] == "move":
            lim = movement.limits(self, ship)
            if lim.mode == "none":
                return IllegalAction(lim.rule, f"{ship.name} {lim.reason}")
        if head[1] == "fire" and ship.fighting:
            if ship.on_fire:
                return IllegalAction("Nelson rule 3", f"{ship.name} is on fire and may not fire her guns")
            return IllegalAction("rules 9 and 10", f"no battery of {ship.name}'s that can fire bears on an enemy "
                                 "within range")
        return IllegalAction(self._rule_of(head[1]), f"{ship.name} has no choice in {self._step_text(head)}")

    def action_piece(self, action: Action) -> str | None:
        if isinstance(action, Move | Fire | Remove | Gunners):
            return action.ship
        if isinstance(action, Choose) and action.ship:
            return action.ship
        return None

    # --- validation ---------------------------------------------------------------------------------------
    def _validate(self, action: Action, player: int) -> None:
        head = self.agenda[0]
        if head[0] == "roll":
            if not isinstance(action, Roll) or action not in {a for a, _ in self.chance_outcomes()}:
                raise IllegalAction("dice", f"a throw for {head[1]} is due: one of its possible results")
            return
        if isinstance(action, Roll):
            raise IllegalAction("dice", "no die is due now")
        kind = head[1]
        expected = {
            "move": Move, "fire": (Fire, EndFire), "damage": Remove, "end": (Choose, EndMove),
            "withdraw": Choose, "repel": Choose, "founder": (Remove, Choose), "accept": Choose, "night": Choose,
            "gunners": Gunners,
        }[kind]
        if not isinstance(action, expected):
            raise IllegalAction("rule 3", f"now is {self._step_text(head)}, not {action_text(action)!r}")
        if kind == "move":
            self._check_move(action, player)
        elif kind == "fire":
            if isinstance(action, Fire):
                fire.check(self, player, action)
        elif kind == "damage":
            fire.check_removal(self, player, action)
        elif action not in self._options(head):
            raise IllegalAction(self._rule_of(kind), f"{action_text(action)!r} is not a choice now: "
                                f"{self._step_text(head)}")

    def _check_move(self, action: Move, player: int) -> movement.Plan:
        ship = self.ships.get(action.ship)
        if ship is None or ship.controller != player:
            raise IllegalAction("notation", f"{self.players[player]} has no ship called {action.ship!r}")
        if ship.moved:
            raise IllegalAction("rule 3", f"{ship.name} has already moved this move")
        return movement.check(self, ship, action)

    @staticmethod
    def _rule_of(kind: str) -> str:
        return {"withdraw": "rule 12", "repel": "rule 12", "founder": "optional rule 7", "accept": "optional rule 6",
                "night": "night escape", "end": "optional rule 6", "gunners": "optional rule 5"}.get(kind, "rule 3")

    def _step_text(self, step: tuple) -> str:
        if step[0] == "roll":
            return f"a throw for {step[1]}"
        names = {"move": "movement", "fire": "fire", "damage": "removing batteries struck by sixes",
                 "end": "end of the move", "withdraw": "the boarders' choice to withdraw or fight on",
                 "repel": "cutting grapples after repelling boarders", "founder": "foundering",
                 "accept": "accepting a surrender", "night": "the night escape",
                 "gunners": "keeping men at the guns in the boarding fight"}
        return f"{self.players[step[2]]}'s {names[step[1]]}"

    # --- applying ------------------------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> list[Event]:
        self._events = []
        self._cand = {}
        if isinstance(action, Roll):
            self._roll(action.values)
        else:
            self._call(self._decide, action, player)
        self._run()
        events, self._events = self._events, []
        return events

    def _decide(self, action: Action, player: int) -> None:
        head = self.agenda[0]
        kind = head[1]
        if isinstance(action, Move):
            ship = self.ships[action.ship]
            movement.apply(self, ship, action, self._check_move(action, player))
            return
        if isinstance(action, Fire):
            fire.open_fire(self, action)
            return
        if isinstance(action, EndFire | EndMove):
            self.agenda.pop(0)
            return
        if isinstance(action, Gunners):
            self.agenda.pop(0)
            self.ships[action.ship].gunners = action.men
            self.emit(Marked(action.ship, f"keeps {action.men} men at her guns", "optional rule 5"))
            return
        if isinstance(action, Remove):
            if action.jettison:
                self.agenda.pop(0)
                fire.remove_battery(self, action, "jettisoned against foundering, optional rule 7")
            else:
                fire.remove_battery(self, action)
            return
        self._choose(action, head, kind)

    def _choose(self, action: Choose, head: tuple, kind: str) -> None:
        verb = action.verb
        if kind != "end":
            self.agenda.pop(0)
        ship = self.ships.get(action.ship)
        if verb == "withdraw":
            self.push_roll("withdraw", head[3], head[4])
        elif verb == "fight-on":
            self.push_roll("morale", head[3], head[4])
        elif verb == "cut":
            self.push_roll("cut", ship.name)
        elif verb == "founder":
            damage.founder(self, ship)
        elif verb == "surrender":
            prizes.offer(self, ship)
        elif verb == "accept":
            prizes.surrender(self, ship, "offered")
        elif verb == "pick-up":
            prizes.pick_up(self, ship, action.other)
        elif verb == "escape":
            self.push_roll("night", head[2])

    def finish(self, reason: str) -> None:
        if self.outcome is not None:
            return
        self.outcome = Outcome.on_points(self.players, victory.scores(self), reason)
        self.agenda = []
        self.emit(GameOver(self.outcome.result, self.outcome.reason))

    # --- losses ---------------------------------------------------------------------------------------------
    def sink(self, ship: Ship, how: str, by: str) -> None:
        crew = ship.crew
        ship.status = how
        self.emit(Sunk(ship.name, self.where(ship.point), by or how))
        if self.scenario.option("crews") and crew > 1:
            self.survivors[ship.name] = (ship.x, ship.y, crew // 2)
        ship.prisoners = 0  # optional rule 6: when a ship sinks all prisoners drown
        self.ship_lost(ship)

    def abandon_if_empty(self, ship: Ship) -> bool:
        """Rule 9: a ship on the table with not a man left aboard is lost, however her men fell (gunfire,
        boarders, captives killed aboard a prize). Returns whether she was abandoned."""
        if ship.crew or not ship.in_play:
            return False
        self.abandon(ship)
        return True

    def abandon(self, ship: Ship) -> None:
        """No crew left: the ship is lost. With the oared rule an abandoned galley or galleass stays on
        the table, rowed by her slaves for the nearest land (optional rule 4; drift.row_for_the_beach);
        with no land on the table she is simply abandoned. A prize whose prize crew is gone is her
        captives' again (optional rule 6)."""
        if ship.status == PRIZE and ship.prisoners:
            prizes.freed(self, ship, "is retaken by her captives: her prize crew is gone", False)
            return
        if ship.spec.galley and self.scenario.option("oared") and drift.beach(self, ship) is not None:
            ship.status = ROWING
            self.emit(Marked(ship.name, "is abandoned: her slaves row her for the nearest beach", "optional rule 4"))
        else:
            ship.status = "abandoned"
            self.emit(Sunk(ship.name, self.where(ship.point), ship.status))
        self.ship_lost(ship)

    def ship_lost(self, ship: Ship) -> None:
        if ship.grappled:
            boarding.release(self, ship, "")
        movement.cast_off(self, ship)
        self.removals.pop(ship.name, None)
        ship.on_fire = 0

    # --- copies and JSON ------------------------------------------------------------------------------------
    def clone(self) -> NavalState:
        twin = NavalState.__new__(NavalState)
        twin.__dict__.update(self.__dict__)
        twin.dice = self.dice.clone()
        twin.ships = {name: ship.copy() for name, ship in self.ships.items()}
        twin.agenda = list(self.agenda)
        twin.volley = None if self.volley is None else {**self.volley, "dice": list(self.volley["dice"])}
        twin.fight = None if self.fight is None else {**self.fight, "dice": list(self.fight["dice"])}
        twin.removals = dict(self.removals)
        twin.removal_firer = dict(self.removal_firer)
        twin.continuing = list(self.continuing)
        twin.survivors = dict(self.survivors)
        twin._events = []
        twin._pending = None
        twin._cand = {}
        return twin

    def position_key(self) -> str:
        ships = ";".join(f"{s.name}:{s.x},{s.y},{s.heading},{s.flotation},{s.crew},{len(s.batteries)},{s.status},"
                         f"{int(s.moved)}{s.fired}" for s in self.ships.values())
        return f"{self.move_number}|{self.phase}|{self.agenda[:1]}|{self.wind},{self.strength}|{ships}"

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        scenario = self.scenario
        ships = []
        for s in self.ordered_ships():
            entry = s.to_json()
            spec = s.spec
            entry.update(
                x=s.x / 100, y=s.y / 100, type=spec.type, nation=spec.nation, description=spec.description,
                year=spec.year, tons=spec.tons, guns=spec.guns, length=spec.length / 100, beam=spec.beam / 100,
                flotation_max=spec.flotation, crew_max=spec.crew, min_crew=spec.min_crew, damage=s.damage_level(),
                raw_x=s.x, raw_y=s.y, in_play=s.in_play, controller=s.controller,
                arrival=scenario.placement(s.name).arrival(self.move_number) if s.status == WAITING else "",
            )
            lim = movement.limits(self, s) if s.in_play and self.outcome is None else movement.Limits("none")
            entry["limits"] = {"mode": lim.mode, "turn": lim.turn, "run_max": lim.run_max / 100,
                               "run_min": lim.run_min / 100, "wind": lim.wind, "why": movement.why_still(lim)}
            ships.append(entry)
        return {
            "game": self.game.name,
            "scenario": scenario.name,
            "scenario_data": copy.deepcopy(scenario.data),
            "options": dict(scenario.options),
            "title": scenario.title,
            "table": {"width": scenario.width / 100, "height": scenario.height / 100},
            "sides": list(self.players),
            "land": [{"name": x.name, "kind": x.kind, "points": [[p[0] / 100, p[1] / 100] for p in x.polygon]}
                     for x in scenario.land],
            "move": self.move_number,
            "clock": self.clock,
            "clock_text": victory.clock_text(self.clock),
            "moves_left": self.moves_left(),
            "phase": self.phase,
            "first": self.first,
            "moving": self.moving,
            "wind": {"from": self.wind, "name": COMPASS_NAMES.get(self.wind, str(self.wind)),
                     "strength": self.strength, "strength_name": wind.STRENGTHS[self.strength],
                     "prevailing": self.prevailing, "calm_moves": self.calm_moves, "light_moves": self.light_moves,
                     "was_calm": self.was_calm},
            "ships": ships,
            "agenda": [list(step) for step in self.agenda],
            "volley": copy.deepcopy(self.volley),
            "fight": copy.deepcopy(self.fight),
            "removals": dict(self.removals),
            "removal_firer": dict(self.removal_firer),
            "continuing": [list(pair) for pair in self.continuing],
            "survivors": {k: [v[0] / 100, v[1] / 100, v[2]] for k, v in self.survivors.items()},
            "raw_survivors": {k: list(v) for k, v in self.survivors.items()},
            "score": list(victory.scores(self)),
            "outcome": self.outcome.to_json() if self.outcome else None,
            # the rolls to come are nobody's to know: only the whole saved state carries the dice
            "dice": self.dice.to_json() if viewer is None else None,
        }

    def moves_left(self) -> int:
        end = victory.DAWN if victory.night_rules(self) else victory.NIGHTFALL
        if self.clock >= victory.NIGHTFALL and not victory.night_rules(self):
            return 0
        return max(0, -(-(end - self.clock) // self.scenario.move_minutes))

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> NavalState:
        try:
            scenario = parse_scenario(data["scenario"], copy.deepcopy(data["scenario_data"]), data["options"])
            state = cls(game, scenario, 0)
            state.dice = Dice.from_json(data["dice"])
            placements = {p.name: p for p in scenario.ships}
            for entry in data["ships"]:
                name = entry["name"]
                if name not in placements:
                    raise RecordError(f"no ship {name!r} in the scenario")
                fields = {k: v for k, v in entry.items() if k not in ("x", "y")}
                fields["x"], fields["y"] = entry["raw_x"], entry["raw_y"]
                state.ships[name] = Ship.from_json(fields, placements[name].spec)
                state.ship_sides[name] = placements[name].side
            if set(state.ships) != set(placements):
                raise RecordError("the ships do not match the scenario")
            state.phase = data["phase"]
            if state.phase not in (*PHASES, "setup"):
                raise RecordError(f"unknown phase {state.phase!r}")
            state.move_number = int(data["move"])
            state.clock = int(data["clock"])
            w = data["wind"]
            state.wind, state.strength, state.prevailing = int(w["from"]), int(w["strength"]), w["prevailing"]
            state.calm_moves, state.light_moves, state.was_calm = int(w["calm_moves"]), int(w["light_moves"]), \
                bool(w["was_calm"])
            state.first, state.moving = data["first"], data["moving"]
            state.agenda = [tuple(step) for step in data["agenda"]]
            state.volley, state.fight = copy.deepcopy(data["volley"]), copy.deepcopy(data["fight"])
            state.removals = {k: int(v) for k, v in data["removals"].items()}
            state.removal_firer = dict(data["removal_firer"])
            state.continuing = [tuple(pair) for pair in data["continuing"]]
            state.survivors = {k: tuple(v) for k, v in data["raw_survivors"].items()}
            state.outcome = Outcome.from_json(data["outcome"])
        except RecordError:
            raise
        except ScenarioError as exc:
            raise RecordError(f"not a Naval Warfare state: bad scenario: {exc}") from None
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, StopIteration) as exc:
            raise RecordError(f"not a Naval Warfare state: {type(exc).__name__} {exc}") from None
        if state.outcome is None and not state.agenda:
            raise RecordError("a game in progress needs something due next")
        return state

    # --- notation -----------------------------------------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        return action_text(action)

    def parse_action(self, text: str, player: int | None = None) -> Action:
        action = parse(text)
        if not isinstance(action, tuple):
            return action
        ship = self.ships.get(action[1])
        if ship is None:
            raise NotationError("ship", f"no ship called {action[1]!r}", text)
        if action[0] == "fire":
            return self._bearing_fire(ship, action[2], text)
        _, _, x, y, heading = action
        return self.move_to(ship, x, y, heading)

    def _bearing_fire(self, ship: Ship, target: str, text: str) -> Fire:
        """`fire <ship> at <target>`: the one battery of hers that may fire at the target now."""
        if target not in self.ships:
            raise NotationError("target", f"no ship called {target!r}", text)
        mounts = [a.mount for a in self.legal_actions(ship.controller, piece=ship.name)
                  if isinstance(a, Fire) and a.target == target]
        if len(mounts) == 1:
            return Fire(ship.name, mounts[0], target)
        which = " and ".join(mounts) or "none"
        raise NotationError("mount", f"name the battery, fire {ship.name} <{'|'.join(MOUNTS)}> at {target}: "
                            f"of {ship.name}'s batteries {which} may fire at {target} now", text)

    def move_to(self, ship: Ship, x: int, y: int, heading: int) -> Move:
        """The turn-run-turn that takes `ship` to an end point and heading (the template way)."""
        if (x, y) == ship.point:
            return Move(ship.name, int(plane.signed_turn(ship.heading, heading)), 0, 0)
        run_heading = round(plane.bearing(ship.point, (x, y))) % 360
        run = round(plane.distance(ship.point, (x, y)))
        turn1 = int(plane.signed_turn(ship.heading, run_heading))
        return Move(ship.name, turn1, run, int(plane.signed_turn(run_heading, heading % 360)))
