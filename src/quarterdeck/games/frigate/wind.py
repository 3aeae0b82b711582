"""Wind Direction and Velocity Determination (seed 001, Sequence of Play 1a "standard", and
MOVEMENT 2's optional no-wind rule for either wind table).

Reconstructed (shared/design/rules-decisions.md, Frigate, "Wind"): at the start direction 1d6 and
velocity 1d6 (1 Calm, 2-3 Light, 4-5 Moderate, 6 Fresh) unless the scenario sets them; each later
game-turn 1d6 for direction (1 backs one hexside, 6 veers one) and 1d6 for velocity (1 a step down,
6 a step up), or with the optional table 2d6 (2 down two, 3-4 down one, 5-9 steady, 10-11 up one,
12 up two), clamped at Fresh and at Calm (or No wind with the option). Seed: with the standard
table, when the wind becomes Calm, roll again and a 1 means no wind; with the optional table no
wind comes when it is Calm and drops a level; when the wind rises from no wind its direction is
rolled anew, 1 north, 2 north-east, and so on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core.events import Event, WindChanged
from quarterdeck.core.hexes import HexDir

from .scenario import VELOCITIES, Tables

if TYPE_CHECKING:
    from .state import FrigateState

# Chance decisions this module resolves (the purposes of the rolls it asks for).
START_DIRECTION, START_VELOCITY = "wind-direction-start", "wind-velocity-start"
DIRECTION, VELOCITY = "wind-direction", "wind-velocity"
CALM_CHECK, NEW_DIRECTION = "no-wind-check", "wind-new-direction"


def lowest(no_wind: bool) -> int:
    return 0 if no_wind else 1


def velocity_after(tables: Tables, velocity: str, change: int, no_wind: bool) -> str:
    index = VELOCITIES.index(velocity) + change
    return VELOCITIES[max(lowest(no_wind), min(len(VELOCITIES) - 1, index))]


def turn_rolls(velocity: str, optional_table: bool) -> list[tuple[str, int]]:
    """The rolls of a later game-turn's wind phase: (purpose, number of dice). In no wind the
    direction is not rolled until the wind rises."""
    rolls = [] if velocity == "no wind" else [(DIRECTION, 1)]
    return rolls + [(VELOCITY, 2 if optional_table else 1)]


def direction_after(tables: Tables, wind_from: HexDir, face: int) -> HexDir:
    return wind_from.turned(tables.direction_change[face - 1])


def velocity_change(tables: Tables, values: tuple[int, ...]) -> int:
    if len(values) == 2:
        return tables.optional_velocity_change[sum(values) - 2]
    return tables.velocity_change[values[0] - 1]


# --- the dice of this section ----------------------------------------------------------------------
def start_direction_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    state.wind_from = HexDir.from_number(values[0])
    if state.scenario.wind_velocity is not None:  # no velocity die follows: the wind is known now
        events.append(WindChanged(state.wind_from.name, state.velocity))
    return f"from the {state.wind_from.name}"


def start_velocity_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    state.velocity = state.tables.start_velocity[values[0] - 1]
    events.append(WindChanged(state.wind_from.name, state.velocity))
    return state.velocity


def direction_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    before = state.wind_from
    state.wind_from = direction_after(state.tables, before, values[0])
    if state.wind_from == before:
        return f"steady from the {before.name}"
    return f"{'veers' if state.wind_from == before.turned(1) else 'backs'} to the {state.wind_from.name}"


def velocity_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    before = state.velocity
    no_wind = bool(state.scenario.option("no_wind"))
    optional = len(values) == 2
    # Standard table: no wind comes only from the re-roll on a change to Calm (seed).
    floor_ok = no_wind and (optional or before == "no wind")
    state.velocity = velocity_after(state.tables, before, velocity_change(state.tables, values), floor_ok)
    decided = f"steady, {before}" if state.velocity == before else f"{before} to {state.velocity}"
    if no_wind and not optional and state.velocity == "calm" and before != "calm":
        state.rolls.insert(0, (CALM_CHECK, "", 1))
        decided += f" (roll again: {state.tables.no_wind_face} means no wind)"
    if before == "no wind" and state.velocity != "no wind":
        state.rolls.insert(0, (NEW_DIRECTION, "", 1))
        decided += " (its new direction is rolled)"
    events.append(WindChanged(state.wind_from.name, state.velocity))
    return decided


def calm_check_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    if values[0] == state.tables.no_wind_face:
        state.velocity = "no wind"
        events.append(WindChanged(state.wind_from.name, state.velocity))
        return "no wind"
    return "calm holds"


def new_direction_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    state.wind_from = HexDir.from_number(values[0])
    events.append(WindChanged(state.wind_from.name, state.velocity))
    return f"from the {state.wind_from.name}"
