"""Fire and defence (seed 000, "Firepower", "Distance Fire Chart" and "Shore Batteries").

The fire chart caps what a piece may fire or defend with on each bearing (beam F, bows and quarters
F - 1, fore and aft F - 2; a battery its full F along its field of fire). Fire travels along the
bearing's line to the first piece on it, land stopping it, and loses one point of effect for every
square beyond the first. The defender divides its own F the same way, seeing the fire, and distance
does not weaken it; each bearing takes one hit for each point of fire more than its defence
(rules-decisions.md, "Turn sequence").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.events import Defended, Event, Fired
from ...core.geometry import Compass, Square
from ...core.protocol import Action
from .actions import AssignDefence, AssignFire, bearing_label

if TYPE_CHECKING:
    from .state import SquareRiggerState


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


def cap(state: SquareRiggerState, name: str, bearing: int) -> int:
    """The fire chart: most firepower a piece may fire or defend with on one bearing."""
    firepower = state.factors(name)[0]
    if state.is_battery(name):
        return firepower if Compass(bearing) in state.setup.batteries[name].field else 0
    return max(0, firepower - state.setup.cap_reduction[bearing])


def direction_of(state: SquareRiggerState, name: str, bearing: int) -> Compass:
    """The compass direction of a bearing (batteries' bearings are compass points already)."""
    if state.is_battery(name):
        return Compass(bearing)
    return state.heading[name].turned(bearing)


def bearing_towards(state: SquareRiggerState, name: str, direction: Compass) -> int:
    if state.is_battery(name):
        return int(direction)
    return (direction - state.heading[name]) % 8


def can_fire(state: SquareRiggerState, name: str) -> bool:
    """Active and armed: merchants and transports have firepower for defence only."""
    if not state.is_active(name):
        return False
    return state.is_battery(name) or state.setup.ships[name].armed


def first_on_line(state: SquareRiggerState, origin: Square, direction: Compass,
                  vacated: Square | None = None) -> tuple[str | None, int]:
    """The first piece seen from `origin` along `direction` and its distance; land or the board's
    edge ends the line first (None, 0). `vacated` is seen through (a ship imagined elsewhere)."""
    occupant = state.occupant
    for distance, square in enumerate(state.setup.sight_lines[origin][direction], 1):
        seen = occupant.get(square)
        if seen is not None and square != vacated:
            return seen, distance
    return None, 0


def line_of_fire(state: SquareRiggerState, name: str, bearing: int) -> tuple[str | None, int]:
    """The first piece on a bearing's line and its distance; land stops the line (None, 0)."""
    origin = state.location(name)
    if origin is None:
        return None, 0
    return first_on_line(state, origin, direction_of(state, name, bearing))


def fire_target(state: SquareRiggerState, name: str, bearing: int) -> tuple[str | None, int]:
    """The piece a bearing may be aimed at (an active enemy first on the line) and its distance."""
    target, distance = line_of_fire(state, name, bearing)
    if target is None or state.side_of(target) == state.side_of(name) or not state.is_active(target):
        return None, 0
    return target, distance


def fire_used(state: SquareRiggerState, name: str) -> int:
    return sum(line.amount for line in state.fire if line.piece == name)


def fire_options(state: SquareRiggerState, name: str) -> list[Action]:
    if not can_fire(state, name):
        return []
    remaining = state.factors(name)[0] - fire_used(state, name)
    taken = {line.bearing for line in state.fire if line.piece == name}
    found: list[Action] = []
    for bearing in range(8):
        if bearing in taken:
            continue
        top = min(cap(state, name, bearing), remaining)
        if top <= 0:
            continue
        target, distance = fire_target(state, name, bearing)
        if target is None:
            continue
        # Distance fire chart: the effect is the amount less one per square beyond the first.
        found.extend(AssignFire(name, bearing, amount) for amount in range(distance, top + 1))
    return found


def validate_fire(state: SquareRiggerState, action: AssignFire, side: str) -> None:
    """Raise IllegalAction unless `side` (whose piece it is) may assign this fire."""
    name = action.piece
    if not state.is_active(name):
        raise IllegalAction("struck-inert", f"{name} has struck (or is silenced) and cannot fire")
    if not can_fire(state, name):
        raise IllegalAction("merchants-unarmed", f"{name} is unarmed: her firepower counts for defence only")
    if not 0 <= action.bearing < 8:
        raise IllegalAction("fire-chart", f"no bearing {action.bearing}")
    if any(line.piece == name and line.bearing == action.bearing for line in state.fire):
        raise IllegalAction("one-target-per-bearing", f"{name} has already assigned fire on that bearing")
    most = cap(state, name, action.bearing)
    label = bearing_label(state, name, action.bearing)
    if action.amount < 1:
        raise IllegalAction("fire-chart", "assign at least 1 firepower")
    if action.amount > most:
        raise IllegalAction("fire-chart", f"{name} may fire at most {most} off the {label}")
    left = state.factors(name)[0] - fire_used(state, name)
    if action.amount > left:
        raise IllegalAction("firepower-total", f"{name} has only {left} firepower left to assign")
    target, distance = line_of_fire(state, name, action.bearing)
    if target is None:
        raise IllegalAction("line-of-fire", f"there is no target off the {label} of {name}")
    if state.side_of(target) == side:
        raise IllegalAction("line-of-fire", f"{target}, first on the line, is a friend; fire stops there")
    if not state.is_active(target):
        raise IllegalAction("struck-inert", f"{target} has struck and cannot be fired on")
    if action.amount - (distance - 1) <= 0:
        raise IllegalAction(
            "distance-fire",
            f"{target} is {distance} squares off: {action.amount} firepower would have no effect there",
        )


def assign_fire(state: SquareRiggerState, action: AssignFire) -> list[Event]:
    target, distance = fire_target(state, action.piece, action.bearing)
    assert target is not None
    travel = direction_of(state, action.piece, action.bearing)
    arrival = bearing_towards(state, target, travel.opposite())
    effect = action.amount - (distance - 1)
    line = FireLine(action.piece, action.bearing, action.amount, target, distance, effect, arrival)
    state.fire.append(line)
    return [Fired(line.piece, bearing_label(state, line.piece, line.bearing), line.amount, line.target, line.effect)]


# --- defence ---------------------------------------------------------------------------------
def incoming(state: SquareRiggerState, name: str) -> dict[int, int]:
    """Effect of the assigned fire arriving on each bearing of a piece."""
    result: dict[int, int] = {}
    for line in state.fire:
        if line.target == name:
            result[line.target_bearing] = result.get(line.target_bearing, 0) + line.effect
    return result


def defence_used(state: SquareRiggerState, name: str) -> int:
    return sum(amount for (piece, _), amount in state.defence.items() if piece == name)


def defence_options(state: SquareRiggerState, name: str) -> list[Action]:
    if not state.is_active(name):
        return []
    remaining = state.factors(name)[0] - defence_used(state, name)
    found: list[Action] = []
    for bearing, arriving in sorted(incoming(state, name).items()):
        if (name, bearing) in state.defence:
            continue
        top = min(cap(state, name, bearing), remaining, arriving)
        found.extend(AssignDefence(name, bearing, amount) for amount in range(1, top + 1))
    return found


def validate_defence(state: SquareRiggerState, action: AssignDefence) -> None:
    """Raise IllegalAction unless the piece (already known to be the defender's own) may defend so."""
    name = action.piece
    if not state.is_active(name):
        raise IllegalAction("struck-inert", f"{name} has struck and cannot defend")
    arriving = incoming(state, name).get(action.bearing, 0)
    label = bearing_label(state, name, action.bearing) if 0 <= action.bearing < 8 else str(action.bearing)
    if arriving == 0:
        raise IllegalAction("defence", f"no fire arrives off the {label} of {name}")
    if (name, action.bearing) in state.defence:
        raise IllegalAction("defence", f"{name} has already assigned defence off the {label}")
    most = cap(state, name, action.bearing)
    if action.amount < 1 or action.amount > most:
        raise IllegalAction("fire-chart", f"{name} may defend with 1 to {most} off the {label}")
    left = state.factors(name)[0] - defence_used(state, name)
    if action.amount > left:
        raise IllegalAction("firepower-total", f"{name} has only {left} firepower left to defend with")
    if action.amount > arriving:
        raise IllegalAction("defence", f"only {arriving} fire arrives off the {label}; defend with at most that")


def assign_defence(state: SquareRiggerState, action: AssignDefence) -> list[Event]:
    state.defence[(action.piece, action.bearing)] = action.amount
    return [Defended(action.piece, bearing_label(state, action.piece, action.bearing), action.amount)]


def hits_on(state: SquareRiggerState, name: str) -> dict[int, int]:
    """Hits per bearing from the fire and defence assigned so far."""
    return {
        bearing: arriving - state.defence.get((name, bearing), 0)
        for bearing, arriving in incoming(state, name).items()
        if arriving > state.defence.get((name, bearing), 0)
    }
