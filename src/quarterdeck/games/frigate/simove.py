"""SiMove (seed 001, Sequence of Play 3): secret plots, one segment at a time, executed together.

Each side plots every ship's points for the segment in secret, one point at a time (`plot Ship
ahead|port|starboard|stand`), through the protocol's SIMULTANEOUS decisions; fire is never plotted
but held and used at any time during execution. A ship under Command Control keeps its one course.

Execution (shared/design/rules-decisions.md, Frigate, "SiMove execution"): the points are spent in
steps 1..m, m the most points any ship plotted; a ship with k points spends her j-th point at step
ceil(j x m / k) (a turn costing several points happens at its last point's step). Ships meeting in
an empty hex at the same step run afoul when they are enemies (the "both wanted it" facing rule);
entering a hex an enemy holds runs afoul (she alone wanted it); a ship blocked by a ship of her own
side stops short and loses the rest of her plot (Decision). Every point may open fire windows.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING

from quarterdeck.core.events import Event, Revealed, Turned
from quarterdeck.core.hexes import neighbour

from . import movement, prizes, turn
from .actions import Plot
from .ships import ESCAPED, Ship

if TYPE_CHECKING:
    from .state import FrigateState

AHEAD, STAND = "ahead", "stand"


def shadow(state: FrigateState, ship: Ship) -> tuple[Ship, list[tuple[str, int]]]:
    """Where the plot so far takes her, ignoring every other ship, with each step's cost in this
    segment's points."""
    ghost = ship.copy()
    costs = []
    for step in ship.plot:
        before = ghost.left
        if step == AHEAD:
            dest = neighbour(ghost.hex, ghost.facing)
            movement.spend(ghost, 1)
            ghost.must_leave = False
            if not state.grid.contains(dest):
                ghost.status, ghost.left = ESCAPED, 0
            ghost.hex, ghost.turned_here = dest, 0
        elif step == STAND:
            movement.spend(ghost, 1)
        else:
            movement.apply_turn(state, ghost, movement.WAYS[step])
        costs.append((step, before - ghost.left))
    return ghost, costs


def plot_open(state: FrigateState, ship: Ship) -> bool:
    """Whether her plot for this segment still has points to fill."""
    if ship.left <= 0:
        return False  # afoul, sunk and escaped ships have no points this segment
    ghost, _ = shadow(state, ship)
    return ghost.afloat and ghost.left > 0


def _options(state: FrigateState, ghost: Ship) -> list[str]:
    steps = []
    if movement.move_problem(state, ghost) is None:
        steps.append(AHEAD)
    for way, hexsides in movement.WAYS.items():
        if movement.turn_problem(state, ghost, hexsides) is None:
            steps.append(way)
    return steps or [STAND]


def plot_choices(state: FrigateState, player: int) -> list[Plot]:
    actions = []
    for ship in state.own(player):
        if plot_open(state, ship):
            ghost, _ = shadow(state, ship)
            actions.extend(Plot(ship.name, step) for step in _options(state, ghost))
    return actions


def plot_problem(state: FrigateState, ship: Ship, step: str) -> tuple[str, str] | None:
    if state.stage != "plot":
        return "simove", "ships are plotted only in a SiMove segment's plotting step"
    if not plot_open(state, ship):
        return "simove", f"{ship.name}'s plot for this segment is complete"
    ghost, _ = shadow(state, ship)
    if step == AHEAD:
        return movement.move_problem(state, ghost) or ("simove", "not now")
    if step == STAND:
        return "stand", f"{ship.name} can still move or turn: she may not stand"
    return movement.turn_problem(state, ghost, movement.WAYS[step]) or ("simove", "not now")


def reveal(state: FrigateState, events: list[Event]) -> bool:
    """Both plots are in: schedule every plotted point on the common steps. False, and nothing
    revealed, when no ship had a point to plot (nothing was secret)."""
    plans = {}
    for ship in state.ship_list:
        if ship.afloat and ship.plot:
            _, costs = shadow(state, ship)
            plans[ship.name] = costs
    if plans:
        events.append(Revealed(state.players))
    state.plotted = {name: sum(cost for _, cost in costs) for name, costs in plans.items()}
    most = max(state.plotted.values(), default=0)
    steps: list[list[tuple[str, str]]] = [[] for _ in range(most)]
    for name, costs in plans.items():
        total, point = state.plotted[name], 0
        for step, cost in costs:
            point += cost  # every plotted step spends at least one point of this segment
            steps[ceil(point * most / total) - 1].append((name, step))
    state.exec_steps, state.exec_index = steps, 0
    return bool(plans)


def execute_step(state: FrigateState, events: list[Event]) -> None:
    """One common step: turns and standing first, then every move ahead at once."""
    moves = state.exec_steps[state.exec_index]
    state.exec_index += 1
    movers: list[Ship] = []
    for name, step in moves:
        ship = state.ships[name]
        if not ship.afloat or ship.afoul or ship.left <= 0:
            continue
        if step == AHEAD:
            movers.append(ship)
        elif step == STAND:
            movement.spend(ship, 1)
        elif movement.turn_problem(state, ship, movement.WAYS[step]) is None:
            movement.apply_turn(state, ship, movement.WAYS[step])
            events.append(Turned(ship.name, state.grid.name(ship.hex), ship.facing.name))
    _move_together(state, movers, events)
    first = state.order[state.segment - 1]
    turn.open_windows(state, first)


def _stop(state: FrigateState, ship: Ship) -> None:
    """She stops short: the rest of her plot this segment is lost."""
    ship.left = 0
    for later in state.exec_steps[state.exec_index:]:
        later[:] = [(name, step) for name, step in later if name != ship.name]


def _move_together(state: FrigateState, movers: list[Ship], events: list[Event]) -> None:
    by_dest: dict[tuple[int, int], list[Ship]] = {}
    for ship in movers:
        by_dest.setdefault(neighbour(ship.hex, ship.facing), []).append(ship)
    single: list[Ship] = []
    for dest, group in by_dest.items():
        if len(group) == 1 or not state.grid.contains(dest):
            single.extend(group)
            continue
        sides = {s.owner for s in group}
        if len(sides) == 2 and not state.ships_at(dest) and not any(s.prize for s in group):
            a = next(s for s in group if s.owner == group[0].owner)
            b = next(s for s in group if s.owner != group[0].owner)
            setter, other = prizes.facing_setter(a, b, state.plotted)
            state.enter(setter, dest, events)
            state.enter(other, dest, events)
            for ship in (setter, other):
                _stop(state, ship)
            rest = [s for s in group if s is not a and s is not b]
        else:
            rest = group
        for ship in rest:
            _stop(state, ship)
    leaving = {s.name for s in single}
    while single:
        progress = False
        for ship in list(single):
            dest = neighbour(ship.hex, ship.facing)
            if any(o.name in leaving for o in state.ships_at(dest)):
                continue  # her way may clear when that ship moves off
            _enter_or_stop(state, ship, dest, events)
            single.remove(ship)
            leaving.discard(ship.name)
            progress = True
        if not progress:
            ship = single.pop(0)
            leaving.discard(ship.name)
            _enter_or_stop(state, ship, neighbour(ship.hex, ship.facing), events)


def _enter_or_stop(state: FrigateState, ship: Ship, dest: tuple[int, int], events: list[Event]) -> None:
    if ship.afoul or ship.left <= 0 or not ship.afloat:
        return  # run aboard or stopped earlier in this step
    kind, other, _ = prizes.entry(state, ship, dest)
    if not kind:
        _stop(state, ship)
        return
    state.enter(ship, dest, events)
    if ship.afoul and other is not None:
        _stop(state, ship)
        _stop(state, other)
