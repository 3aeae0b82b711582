"""Damage and striking (seed 000, "Damage Chart"; shore batteries from "Shore Batteries").

Each hit lowers a ship's factors along her damage track; at 0 0 0 she strikes her colours and stays
on her square, inert; a battery loses F and is silenced at 0. The book's chart was a picture and is
lost: by decision each hit lowers the largest factor (rules-decisions.md, "Damage"); a scenario may
give a class its own track. All the hits of a fire phase land together at resolution.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import ScenarioError
from ...core.events import Event, Hit, Silenced, Struck
from .actions import bearing_label

if TYPE_CHECKING:
    from .state import SquareRiggerState

Factors = tuple[int, int, int]


def damage_track(start: Factors) -> tuple[Factors, ...]:
    """Decision (damage chart lost): each Hit lowers the largest factor; ties F, then S, then T."""
    track = [start]
    factors = list(start)
    while any(factors):
        largest = max(factors)
        factors[factors.index(largest)] -= 1  # index() finds F before S before T on a tie
        track.append((factors[0], factors[1], factors[2]))
    return tuple(track)


def checked_track(field_name: str, start: Factors, steps: list[list[int]] | None) -> tuple[Factors, ...]:
    """A class's track: the scenario's own (`steps`), checked hit by hit, or else the decision's."""
    if steps is None:
        return damage_track(start)
    track = [tuple(step) for step in steps]
    if not track or track[0] != start:
        raise ScenarioError(field_name, f"a damage track starts at the class's factors {start}")
    for before, after in zip(track, track[1:], strict=False):
        lowered_by_one = sum(before) - sum(after) == 1
        if len(after) != 3 or any(a > b for a, b in zip(after, before, strict=True)) or not lowered_by_one:
            raise ScenarioError(field_name, f"each hit lowers one factor by one; {before} -> {after} does not")
    if track[-1] != (0, 0, 0):
        raise ScenarioError(field_name, "a damage track ends at 0 0 0")
    return tuple(track)  # type: ignore[arg-type]


def resolve(state: SquareRiggerState) -> list[Event]:
    """All fire lands at once: hits per bearing = incoming - defence; each hit moves a piece one step
    down its track; hits beyond 0 0 0 are void; a piece that reaches the end strikes (or is silenced)."""
    events: list[Event] = []
    targets = sorted({line.target for line in state.fire}, key=list(state.hits).index)
    for name in targets:
        for bearing, damage in sorted(state.hits_on(name).items()):
            counted = min(damage, state.striking_hits[name] - state.hits[name])  # beyond 0 0 0: void
            if counted <= 0:
                continue
            state.hits[name] += counted
            f, s, t = state.factors(name)
            events.append(Hit(name, counted, bearing_label(state, name, bearing), f"F{f} S{s} T{t}"))
        if state.is_struck(name) and state.hits_on(name):
            square = state.setup.grid.name(state.location(name))  # type: ignore[arg-type]
            events.append(Silenced(name, square) if state.is_battery(name) else Struck(name, square))
    return events
