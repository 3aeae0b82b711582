"""The game-turn, step by step (seed 001, SEQUENCE OF PLAY; the six phases are listed in state.py):
wind, Movement Declaration, Command Control, initiative and the order of movement, the four
segments (fire windows, movement or SiMove plots and their execution, the end round of fire and
melee, the segment's damage landing), then drift, sag, Damage Control, the Preservation Level,
prizes destroyed, formations and victory.

`proceed(state, events)` runs every step that needs no decision until a decision or a die is due;
each step returns True when it is done. The initiative die and Damage Control's repair die are
resolved here (the other dice in the modules of their rules).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from quarterdeck.core.events import (
    Captured,
    Crippled,
    CutLoose,
    Dismasted,
    Escaped,
    Event,
    ForceChanged,
    GameOver,
    Hit,
    Marked,
    Moved,
    Passed,
    PhaseChanged,
    Revealed,
    Struck,
    Submitted,
    Sunk,
    Turned,
    WindChanged,
)
from quarterdeck.core.hexes import neighbour
from quarterdeck.core.protocol import Outcome
from quarterdeck.core.words import counted

from . import combat, command, movement, prizes, simove, victory, wind
from .actions import Declare, EndDeclare
from .ships import ACTIVE, ESCAPED, SUNK, Ship

if TYPE_CHECKING:
    from .state import FrigateState

SAIL, WIND, DECLARE, COMMAND, INITIATIVE, ORDER, SEGMENT, END_OF_TURN, OVER = (
    "sail", "wind", "declare", "command", "initiative", "order", "segment", "end-of-turn", "over"
)
START, MOVE, PLOT, EXECUTE, END, CLOSE = "start", "move", "plot", "execute", "end", "close"
TURN_AGENDA = ("wind", "declare", "declared", "command", "initiative", "segment", "segment", "segment", "segment",
               "drift", "sag", "repair", "preserve", "end-turn")


def proceed(state: FrigateState, events: list[Event]) -> None:
    """Run what needs no decision until a decision (or a die) is due."""
    while state.outcome is None:
        if state.phase == DECLARE:
            auto_ready(state, events)
        if awaiting(state):
            return
        if not state.agenda:
            new_turn(state, events)
            continue
        step = state.agenda[0]
        if STEPS[step](state, events):
            state.agenda.pop(0)


def auto_ready(state: FrigateState, events: list[Event]) -> None:
    """A side with nothing left to decide at Declaration is done at once."""
    for side in (0, 1):
        if side in state.ready or any(not s.declared for s in state.own(side)):
            continue  # an undeclared ship leaves her side a declaration to make
        if state.declarations(side) == [EndDeclare()]:
            state.ready.add(side)
            if state.simove:
                events.append(Submitted(state.players[side]))
            elif state.declarer == side:
                state.declarer = 1 - side


def awaiting(state: FrigateState) -> bool:
    if state.rolls:
        return True
    while state.windows and not state.window_open(state.ships[state.windows[0]]):
        state.windows.pop(0)
    if state.windows:
        return True
    if state.phase == SAIL:
        return len(state.ready) < 2
    if state.phase == DECLARE:
        return len(state.ready) < 2
    if state.phase == ORDER:
        return True
    if state.stage == MOVE:
        return bool(state.movable(state.mover))
    if state.stage == PLOT:
        return any(state.plotting(side) for side in (0, 1))
    return False


def new_turn(state: FrigateState, events: list[Event]) -> None:
    if state.phase == SAIL:
        events.append(Revealed(state.players))
    state.turn += 1
    state.agenda = list(TURN_AGENDA)
    state.phase = WIND
    events.append(PhaseChanged("both", "wind", state.turn))


def step_wind(state: FrigateState, events: list[Event]) -> bool:
    if state.turn == 1:
        if state.scenario.wind_velocity is None:
            state.rolls.append((wind.START_VELOCITY, "", 1))
        if state.scenario.wind_direction is None:
            state.rolls.insert(0, (wind.START_DIRECTION, "", 1))
        # (a north wind is HexDir 0, so "set" is "not None"): a wind wholly set is announced now,
        # one left to the dice when its last die falls (wind.py)
        if state.scenario.wind_direction is not None and state.scenario.wind_velocity is not None:
            events.append(WindChanged(state.wind_from.name, state.velocity))
    else:
        optional = state.scenario.option("wind_table") == "optional"
        state.rolls.extend((purpose, "", dice) for purpose, dice in wind.turn_rolls(state.velocity, optional))
    return True


def step_declare(state: FrigateState, events: list[Event]) -> bool:
    state.phase = DECLARE
    state.ready = set()
    state.declarer = (state.turn + 1) % 2  # the side declaring first alternates (Decision)
    for ship in state.ship_list:
        ship.declared, ship.cut, ship.free_turn, ship.striking = False, False, "", False
        ship.ma = 0
    events.append(PhaseChanged(state.players[state.declarer] if not state.simove else "both", "declare", state.turn))
    # A ship with a single possible declaration declares it at once, told with its reason so that her
    # captain knows why he was not asked (her range follows from what both sides see: no secret).
    for ship in state.ship_list:
        if ship.afloat:
            options = state.declare_options(ship)
            if len(options) == 1 and isinstance(options[0], Declare):
                ship.ma, ship.declared = options[0].ma, True
                why = movement.declaration_range(state, ship)[2]
                events.append(Marked(ship.name, f"declares MA {ship.ma}, the only allowance open to her: {why}",
                                     "momentum"))
    return True


def step_declared(state: FrigateState, events: list[Event]) -> bool:
    if state.simove:
        events.append(Revealed(state.players))
    state.phase = COMMAND
    state.ready = set()
    for ship in state.ship_list:
        if ship.afloat and ship.striking:
            ship.striking = False
            ship.owner, ship.captured_turn, ship.ma = 1 - ship.side, state.turn, 0
            ship.left, ship.cut = 0, False
            events.append(Struck(ship.name, state.grid.name(ship.hex)))
    for side in (0, 1):
        for name in sorted(state.destroy[side]):
            ship = state.ships[name]
            if ship.afloat and ship.prize and ship.owner == side and ship.afoul:
                ship.destroying = 0
        state.destroy[side] = set()
    for squadron, shape in state.form.items():
        state.formations[squadron] = (state.formations[squadron][0], shape)
    state.form = {}
    done: set[str] = set()
    for ship in state.ship_list:
        if not ship.afloat or not ship.afoul or ship.name in done:
            continue
        partner = state.ships[ship.afoul]
        done |= {ship.name, partner.name}
        askers = [s for s in (ship, partner) if s.cut]
        if not askers:
            continue
        if len(askers) == 2 or ship.prize or partner.prize or ship.owner == partner.owner:
            events.append(CutLoose(askers[0].name, state.ships[askers[0].afoul].name, True))
            prizes.free(state, ship, partner)
        else:
            state.rolls.append(("cut", askers[0].name, 1))
    check_end(state, events)
    return True


def step_command(state: FrigateState, events: list[Event]) -> bool:
    for ship in state.ship_list:
        if ship.afloat and ship.ma > 0 and command.subject_to_command_control(state, ship):
            state.rolls.append(("command", ship.name, 1))
    return True


def step_initiative(state: FrigateState, events: list[Event]) -> bool:
    state.phase = INITIATIVE
    state.rolls.append(("initiative", "", 2))
    return True


def initiative_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    blue, red = values
    if blue == red:
        state.rolls.insert(0, ("initiative", "", 2))
        return "a tie, rolled again"
    state.initiative = 0 if blue > red else 1
    state.phase = ORDER
    events.append(PhaseChanged(state.players[state.initiative], "order", state.turn))
    return f"{state.players[state.initiative]} chooses who moves first in each segment"


def step_segment(state: FrigateState, events: list[Event]) -> bool:
    """One of the four segments; re-entered until its stages are done."""
    if state.stage == "":
        begin_segment(state, events)
    elif state.stage == START:
        if state.simove:
            state.stage = PLOT
        else:
            state.stage, state.mover = MOVE, state.order[state.segment - 1]
    elif state.stage == MOVE:
        first = state.order[state.segment - 1]
        if state.mover == first and state.movable(1 - first):
            state.mover = 1 - first
        else:
            state.stage = END
    elif state.stage == PLOT:
        state.stage = EXECUTE if simove.reveal(state, events) else END
    elif state.stage == EXECUTE:
        if state.exec_index < len(state.exec_steps):
            simove.execute_step(state, events)
        else:
            state.stage = END
    elif state.stage == END:
        state.end_round = True
        first = state.order[state.segment - 1]
        state.windows = [s.name for side in (first, 1 - first) for s in state.own(side)]
        state.stage = CLOSE
    else:
        close_segment(state, events)
        state.stage = ""
        return True
    return False


def begin_segment(state: FrigateState, events: list[Event]) -> None:
    state.phase = SEGMENT
    state.segment = 5 - state.agenda.count("segment")
    state.stage = START
    state.end_round = False
    state.melees = set()
    for ship in state.ship_list:
        ship.passed = ship.started = False
        ship.plot = ()
        ship.mast_hits_now = 0
        ship.segment_k = movement.wind_offset(ship.facing, state.wind_from)
        allot = movement.segment_allotment(state, ship, state.segment)
        if ship.afoul or not ship.afloat or (ship.prize and ship.captured_turn >= state.turn):
            allot = 0
        paid = min(allot, ship.debt)
        ship.debt -= paid
        ship.left = allot - paid
        if state.segment == 1 and ship.free_turn:
            ship.facing = ship.facing.turned(movement.WAYS[ship.free_turn])
            ship.free_turn = ""
            events.append(Turned(ship.name, state.grid.name(ship.hex), ship.facing.name))
    events.append(PhaseChanged(state.players[state.order[state.segment - 1]], f"move first in segment {state.segment}",
                              state.turn))
    # Told, so that a side passed over knows why; once for both sides when neither moves.
    fleets = [state.own(side) for side in range(len(state.players))]
    idle = [player for player, ships in zip(state.players, fleets, strict=True)
            if ships and not any(ship.left for ship in ships)]
    if idle:
        who, verb = ("neither side", "moves a ship") if len(idle) == 2 else (idle[0], "moves no ship")
        events.append(Passed(who, f"{verb} in segment {state.segment}: none has a Movement Point in it",
                             "Quarterly Movement Chart"))
    state.signatures = {}
    first = state.order[state.segment - 1]
    open_windows(state, first)  # the signatures just emptied: every ship with a target gets a window


def open_windows(state: FrigateState, first: int) -> None:
    """Seed, Sequence of Play 2 (fire at any time), made exact by the ruling: a window for each
    ship whose targets changed since her last window (at the segment's start, every ship with a target)."""
    for side in (first, 1 - first):
        enemies = combat.in_the_fight(state, side)
        for ship in state.own(side):
            signature = combat.fire_signature(state, ship, enemies)
            gained = not signature <= state.signatures.get(ship.name, frozenset())
            state.signatures[ship.name] = signature
            if gained and not ship.passed and ship.name not in state.windows:
                state.windows.append(ship.name)


HIT_WORDS = {"hull": "hull", "crew": "crew", "gun": "guns", "mast": "masts"}  # what a hit struck, in words


def close_segment(state: FrigateState, events: list[Event]) -> None:
    """All the segment's damage lands (seed, Sequence of Play 2), with its consequences."""
    state.windows = []
    state.end_round = False
    landed: dict[str, list[str]] = {}
    for target, kind, _ in state.pending:
        landed.setdefault(target, []).append(kind)
        ship = state.ships[target]
        if kind == "hull":
            ship.hull += 1
        elif kind == "crew":
            ship.crew = min(ship.crew + 1, state.tables.crew_limit)
        elif kind == "gun":
            ship.guns = min(ship.guns + 1, ship.spec.gs)
        else:
            ship.masts = min(ship.masts + 1, state.tables.mast_limit)
            ship.mast_hits_now += 1
    last_firer = {target: firer for target, _, firer in state.pending}
    state.pending = []
    for name, kinds in landed.items():
        ship = state.ships[name]
        square = state.grid.name(ship.hex)
        summary = f"hull hits {ship.hull} of {ship.spec.hull}, crew {ship.crew}, guns {ship.guns}, masts {ship.masts}"
        struck = " and ".join(dict.fromkeys(HIT_WORDS[kind] for kind in kinds))
        events.append(Hit(name, len(kinds), f"to her {struck}", summary))
        if ship.hull >= ship.spec.hull and ship.afloat:
            sink(state, ship, last_firer[name], events)
            continue
        if "crew" in kinds and ship.crippled(state.tables):
            events.append(Crippled(name, square))
            partner = state.ships.get(ship.afoul)
            if partner is not None and partner.owner != ship.owner and prizes.pair(name, partner.name) in state.melees:
                ship.owner, ship.captured_turn = partner.owner, state.turn
                events.append(Captured(name, square, partner.name))
        if "mast" in kinds and ship.dismasted(state.tables):
            events.append(Dismasted(name, square))
    for ship in state.ship_list:
        ship.penalty += ship.mast_hits_now
        ship.mast_hits_now = 0
        ship.left = 0
    check_end(state, events)


def sink(state: FrigateState, ship: Ship, by: str, events: list[Event]) -> None:
    ship.status = SUNK
    ship.left = 0
    if ship.afoul:
        prizes.free_pair(ship, state.ships[ship.afoul])
    state.moved()
    events.append(Sunk(ship.name, state.grid.name(ship.hex), by))


def step_drift(state: FrigateState, events: list[Event]) -> bool:
    """Drift (reconstructed) and seed rule 7: dismasted and afoul ships face into the wind; they
    and ships that declared MA 0 drift one hex downwind in Moderate and Fresh winds."""
    state.phase, state.segment, state.stage = END_OF_TURN, 0, ""
    if state.velocity not in state.tables.drift_velocities:
        return True
    done: set[str] = set()
    for ship in list(state.ship_list):
        if not ship.afloat or ship.name in done:
            continue
        if not (ship.afoul or ship.dismasted(state.tables) or ship.ma == 0):
            continue
        group = [ship] + ([state.ships[ship.afoul]] if ship.afoul else [])
        done |= {s.name for s in group}
        for s in group:
            if s.afoul or s.dismasted(state.tables):
                s.facing = state.wind_from
        why = "afoul" if ship.afoul else "dismasted" if ship.dismasted(state.tables) else "at MA 0"
        shift(state, group, 1, events, f"drifts a hex downwind, {why} in a {state.velocity} wind", "Movement 7")
    return True


def step_sag(state: FrigateState, events: list[Event]) -> bool:
    """Seed, Movement 8 (optional): in Fresh wind every ship, drifting or not, moves its Sag
    column downwind after all movement."""
    if not state.scenario.option("sagging") or state.velocity not in state.tables.sag_velocities:
        return True
    done: set[str] = set()
    for ship in list(state.ship_list):
        if not ship.afloat or ship.name in done:
            continue
        group = [ship] + ([state.ships[ship.afoul]] if ship.afoul else [])
        done |= {s.name for s in group}
        hexes = min(s.row.sag for s in group)
        sag = f"sags downwind in a {state.velocity} wind (a Sag of {counted(hexes, 'hex', 'hexes')})"
        shift(state, group, hexes, events, sag, "Movement 8")  # a ship downwind may stop her short of it
    return True


def shift(state: FrigateState, group: list[Ship], hexes: int, events: list[Event], why: str, rule: str) -> None:
    """Move ships (an afoul pair together) downwind, stopping short of an occupied hex; off the
    map they leave the battle. Each ship that goes is told why first (`why`, under `rule`), so that a
    move nobody ordered does not puzzle her captain."""
    way = movement.downwind(state)
    for step in range(hexes):
        here = group[0].hex
        dest = neighbour(here, way)
        if state.grid.contains(dest) and state.ships_at(dest):
            return
        if step == 0:
            events.extend(Marked(ship.name, why, rule) for ship in group)
        if not state.grid.contains(dest):
            for ship in group:
                ship.status, ship.edge = ESCAPED, movement.edge_of(state.grid, dest)
                events.append(Escaped(ship.name, state.grid.name(here), ship.edge))
            state.moved()
            return
        for ship in group:
            ship.hex = dest
            ship.turned_here = 0
            events.append(Moved(ship.name, state.grid.name(here), state.grid.name(dest), ship.facing.name))
        state.moved()


def step_repair(state: FrigateState, events: list[Event]) -> bool:
    """Damage Control (reconstructed): a die per ship with 1-2 crew hits."""
    for ship in state.ship_list:
        if ship.afloat and 0 < ship.crew < state.tables.crew_limit:
            state.rolls.append(("repair", ship.name, 1))
    return True


def repair_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    ship = state.ships[subject]
    needed = state.tables.efficiency[state.force_state[ship.owner].efficiency].repair
    if values[0] <= needed:
        ship.crew -= 1
        events.append(Hit(ship.name, -1, "", f"crew hit repaired, {ship.crew} left"))
        return f"a crew hit repaired (needs {needed} or less)"
    return f"no repair (needs {needed} or less)"


def step_preserve(state: FrigateState, events: list[Event]) -> bool:
    """Preservation Level: the standard rule, or the seed's optional efficiency drops."""
    standard = state.scenario.option("preservation") == "standard"
    for side in (0, 1):
        force, level = state.force_state[side], state.scenario.forces[side].preservation
        due = command.preservation_drops(level, victory.preservation_lost(state, side))
        if standard:
            if due and not force.withdrawing:
                force.withdrawing = True
                events.append(ForceChanged(state.players[side], "over its Preservation Level: withdraws"))
            continue
        while force.drops < due:
            force.drops += 1
            events.append(ForceChanged(state.players[side], command.apply_drop(force, False)))
            if force.drops == 2:
                force.crt = command.worse_crt(force.crt)
                events.append(ForceChanged(state.players[side], f"uses CRT {force.crt}"))
    return True


def step_end_turn(state: FrigateState, events: list[Event]) -> bool:
    for ship in state.ship_list:
        if not ship.afloat:
            continue
        if ship.destroying >= 0:
            partner = state.ships.get(ship.afoul)
            if partner is None or partner.owner != ship.owner:
                ship.destroying = -1
            else:
                ship.destroying += 1
                if ship.destroying >= 4:
                    sink(state, ship, partner.name, events)
                    continue
        ship.last_ma = ship.ma
        ship.fired = frozenset()
        ship.course = None
        ship.penalty = ship.debt = 0
        ship.must_leave = False
    for squadron in state.scenario.squadrons:
        shape, pending = state.formations[squadron.name]
        if pending and command.formation_met(state, squadron, pending):
            state.formations[squadron.name] = (pending, "")
    state.fired_upon = set()
    state.fired_on_by = {}
    if not check_end(state, events) and state.turn >= state.scenario.turns:
        turns = state.scenario.turns
        finish_on_points(state, "the game-turn is over" if turns == 1 else f"the {turns} game-turns are over", events)
    return True


FATES_BY_NAME = 3  # ships out of the fight named one by one in the reason the battle ended; more are counted


def check_end(state: FrigateState, events: list[Event]) -> bool:
    out = [side for side in (0, 1) if not state.fighting(side)]
    if out and state.outcome is None:
        names = " and ".join(state.players[s] for s in out)
        # Why: "no ship left" alone reads like a defeat to the frigate that got away. Ship by ship in
        # a small action, counted in a fleet's.
        gone = [(ship.name, ship.status if ship.status != ACTIVE else "taken")
                for ship in state.ship_list if ship.side in out]
        if len(gone) <= FATES_BY_NAME:
            fates = ", ".join(f"{name} {fate}" for name, fate in gone)
        else:
            counted = Counter(fate for _, fate in gone)
            fates = ", ".join(f"{counted[fate]} {fate}" for fate in (ESCAPED, SUNK, "taken") if counted[fate])
        finish_on_points(state, f"{names} {'has' if len(out) == 1 else 'have'} no ship left in the fight: {fates}",
                         events)
    return state.outcome is not None


def finish_on_points(state: FrigateState, reason: str, events: list[Event]) -> None:
    state.outcome = Outcome.on_points(state.players, victory.points(state), reason)
    state.phase = OVER
    state.rolls, state.windows = [], []
    events.append(GameOver(state.outcome.result, state.outcome.reason))


STEPS = {
    "wind": step_wind,
    "declare": step_declare,
    "declared": step_declared,
    "command": step_command,
    "initiative": step_initiative,
    "segment": step_segment,
    "drift": step_drift,
    "sag": step_sag,
    "repair": step_repair,
    "preserve": step_preserve,
    "end-turn": step_end_turn,
}
