"""The turn sequence (seed 000, "General notes on scenarios and tactics": "Play takes place by
alternate moves ... Attacker and defender then both assign firepower in exchanges of fire, calculate
Hits"; rules-decisions.md, "Turn sequence" and squadrons under "Victory").

A side's turn has three phases: its squadrons move one after another (``end-move`` commits each),
then fire one after another; then every enemy squadron with a piece fired on defends; then all hits
land together, victory is checked and the next side's turn begins (with the next round, the turn
limit and any scheduled wind change). A seat with nothing to do in a phase is passed over; a side
with nothing that can move or fire passes its turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.events import Event, PhaseChanged
from . import damage, fire, movement, victory

if TYPE_CHECKING:
    from .state import SquareRiggerState

MOVE, FIRE, DEFENCE = "move", "fire", "defence"


def seat_has_work(state: SquareRiggerState, seat: int, phase: str) -> bool:
    side, squadron = state.setup.seats[seat]
    if phase == MOVE:
        return any(state.is_active(n) and not state.is_battery(n) for n in state.pieces(side, squadron))
    if phase == FIRE:
        return any(fire.fire_options(state, n) for n in state.pieces(side, squadron))
    return any(line.target in set(state.pieces(side, squadron)) for line in state.fire)


def next_seat(state: SquareRiggerState, side: str, phase: str, after: int = -1) -> int | None:
    for seat, (seat_side, _) in enumerate(state.setup.seats):
        if seat_side == side and seat > after and seat_has_work(state, seat, phase):
            return seat
    return None


def start_side_turn(state: SquareRiggerState) -> list[Event]:
    events: list[Event] = []
    state.phase = MOVE
    state.moved = set()
    state.fire = []
    state.defence = {}
    if state.setup.repetition_draw:
        events = victory.repetition(state)
        if events:
            return events
    seat = next_seat(state, state.side_name, MOVE)
    if seat is None:
        seat = next_seat(state, state.side_name, FIRE)
        if seat is None:
            # Nothing of this side can move or fire now (batteries without a target): it passes.
            if not any(seat_has_work(state, s, phase) for s in range(len(state.setup.seats))
                       for phase in (MOVE, FIRE)):
                return events + victory.at_turn_limit(state, "no side has anything left that can move or fire")
            return events + next_side(state)
        state.phase = FIRE
    state.seat = seat
    events.append(PhaseChanged(state.players[state.seat], state.phase, state.turn))
    return events


def next_side(state: SquareRiggerState) -> list[Event]:
    events: list[Event] = []
    state.side = (state.side + 1) % len(state.setup.sides)
    if state.side == 0:
        state.turn += 1
        if state.setup.turn_limit is not None and state.turn > state.setup.turn_limit:
            return victory.at_turn_limit(state)
        events.extend(movement.change_wind(state))
    return events + start_side_turn(state)


def end_phase(state: SquareRiggerState, finished: str) -> list[Event]:
    """After a seat ends a phase: the next seat, the next phase, or resolution."""
    side = state.side_name
    if finished in (MOVE, FIRE):
        nxt = next_seat(state, side, finished, after=state.seat)
        if nxt is None and finished == MOVE:
            nxt, state.phase = next_seat(state, side, FIRE), FIRE
        if nxt is not None:
            state.seat = nxt
            return [PhaseChanged(state.players[nxt], state.phase, state.turn)]
        return _start_defence(state)
    nxt = next((seat for seat in _defending_seats(state) if seat > state.seat), None)
    if nxt is not None:
        state.seat = nxt
        return [PhaseChanged(state.players[nxt], DEFENCE, state.turn)]
    return _resolve(state)


def _defending_seats(state: SquareRiggerState) -> list[int]:
    """The seats with a piece fired on; fire reaches only enemies, so never a seat of the side firing."""
    return [s for s in range(len(state.setup.seats)) if seat_has_work(state, s, DEFENCE)]


def _start_defence(state: SquareRiggerState) -> list[Event]:
    seats = _defending_seats(state) if state.fire else []
    if not seats:
        return _resolve(state)
    state.phase = DEFENCE
    state.seat = seats[0]
    return [PhaseChanged(state.players[state.seat], DEFENCE, state.turn)]


def _resolve(state: SquareRiggerState) -> list[Event]:
    events = damage.resolve(state)
    events.extend(victory.check(state))
    if state.outcome is None:
        events.extend(next_side(state))
    return events
