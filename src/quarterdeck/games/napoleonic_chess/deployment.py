"""Deployment (seed 002, "Standard Scenario" and "Advanced Scenarios" 1, "Alternative Standard
Scenario Initial Dispositions"): how the armies come onto the board.

* Fixed ("Players set up as shown"): the scenario puts every unit on its square.
* a) Attack at Dawn (`secret`): "Both sides write down their desired positions ... in secret and
  then reveal them". Each army places its units one at a time with the protocol's SIMULTANEOUS
  decider; an army whose last unit is placed has committed, and when every army has committed all
  placements are revealed together. Until then `observe(p)` shows p nothing of the others'
  placements, not even how many are made, and a secret placement's events say nothing.
* b) Marching Orders (`alternate`): "Players take it in turn to place one unit (or more if agreed)"
  (the scenario's `placements_per_turn`), in turn order; an army with nothing left drops out.

Units are numbered per army and type as they come onto the board, as "Larger Boards ..."
suggests: "1st, 2nd and 3rd infantry etc.".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Event, PhaseChanged, Placed, Revealed, Submitted
from quarterdeck.core.geometry import Square

from .actions import Place
from .scenario import FIXED, SECRET
from .units import Unit, UnitType

if TYPE_CHECKING:
    from .state import NapoleonicState

DEPLOYMENT = "deployment"
SECRET_DEPLOYMENT = "secret-deployment"


def deploy(state: NapoleonicState) -> None:
    """Set a new battle up: a fixed deployment starts the first turn; the others open a phase of
    placements."""
    scenario = state.scenario
    if scenario.deployment == FIXED:
        for spec in scenario.units:
            assert spec.square is not None  # the scenario check guarantees it
            _create_unit(state, spec.army, spec.kind, spec.square)
        state.begin_battle([])
        return
    state.to_place = {army: scenario.roster(army) for army in range(len(scenario.armies))}
    if scenario.deployment == SECRET:
        state.phase = SECRET_DEPLOYMENT
        state.hidden = {army: () for army in state.to_place}
    else:
        state.phase = DEPLOYMENT


def _create_unit(state: NapoleonicState, army: int, kind: UnitType, square: Square) -> Unit:
    # Numbered per army and type, as the book suggests: "1st, 2nd and 3rd infantry etc."
    number = 1 + sum(1 for unit in state.board.values() if unit.army == army and unit.kind is kind)
    unit = Unit(f"{state.players[army]}-{kind.name}-{number}", army, kind)
    state.board[square] = unit
    return unit


def placements(state: NapoleonicState, player: int) -> Iterator[Place]:
    left = state.to_place.get(player)
    if not left:
        return
    taken = {square for square, _ in state.hidden.get(player, ())}
    zone = state.scenario.armies[player].zone
    free = [s for s in sorted(zone) if s not in state.board and s not in taken]
    for kind in left:
        for square in free:
            yield Place(kind, square)


def check_place(state: NapoleonicState, action: Place, player: int) -> None:
    if state.to_place[player].get(action.kind, 0) == 0:
        raise IllegalAction("deployment-roster", f"{state.players[player]} has no {action.kind} left to place")
    if action.square not in state.scenario.armies[player].zone:
        raise IllegalAction(
            "deployment-zone",
            f"{state.square_name(action.square)} is outside {state.players[player]}'s deployment ranks",
        )
    taken = {square for square, _ in state.hidden.get(player, ())}
    if action.square in state.board or action.square in taken:
        raise IllegalAction("no-sharing", f"a unit already stands on {state.square_name(action.square)}")


def place(state: NapoleonicState, action: Place, player: int, events: list[Event]) -> None:
    left = dict(state.to_place[player])
    left[action.kind] -= 1
    if not left[action.kind]:
        del left[action.kind]
    state.to_place = {**state.to_place, player: left}
    if state.phase == SECRET_DEPLOYMENT:
        # Nothing public happens until the army's last unit is placed: the placement stays secret.
        state.hidden = {**state.hidden, player: (*state.hidden[player], (action.square, action.kind))}
        if not left:
            events.append(Submitted(state.players[player]))
        if not any(state.to_place.values()):
            _reveal(state, events)
        return
    unit = _create_unit(state, player, state.scenario.unit_types[action.kind], action.square)
    events.append(Placed(unit.id, state.square_name(action.square)))
    state.placed_in_row += 1
    if not any(state.to_place.values()):
        state.to_place = {}
        state.begin_battle(events)
    elif not left or state.placed_in_row >= state.scenario.placements_per_turn:
        state.placed_in_row = 0
        state.decider = state.next_army(player, lambda army: bool(state.to_place[army]))
        events.append(PhaseChanged(state.players[state.decider], DEPLOYMENT, 0))


def _reveal(state: NapoleonicState, events: list[Event]) -> None:
    events.append(Revealed(state.players))
    for army in state.scenario.turn_order:
        for square, kind in state.hidden[army]:
            unit = _create_unit(state, army, state.scenario.unit_types[kind], square)
            events.append(Placed(unit.id, state.square_name(square)))
    state.hidden = {}
    state.to_place = {}
    state.begin_battle(events)


def conceal(view: NapoleonicState, player: int) -> None:
    """Hide from an observation for `player` the other armies' secret placements: a hidden army
    shows its whole roster still to place, or none once it has committed."""
    if view.phase != SECRET_DEPLOYMENT:
        return
    for army in view.hidden:
        if army != player:
            view.hidden = {**view.hidden, army: ()}
            view.to_place = {**view.to_place, army: view.scenario.roster(army) if view.to_place[army] else {}}
