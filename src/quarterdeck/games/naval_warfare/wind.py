"""The setup dice, the wind each move and the initiative (seed 003: the setup table, rules 1, 2, 3).

Setup: 1d6 for the time of start (6 am .. 6 pm; a 6, 9 pm, is thrown again unless the campaign
option keeps it) and 1d6 for the prevailing wind (N, E, S, W; 5 and 6 again, or with the option a
5 means no prevailing wind and the die is thrown again for the first direction, a 5 then meaning
calm). Rule 1: before each move a red and a black die; a 6 on either is thrown again and read
once: red 1-2 away from the prevailing wind, 3-4 toward it, 5 away and 6 toward unless the wind is
already the prevailing one; black 1-3 calmer, 4-6 stronger. In a calm the black die needs only a
first-throw 4-6. Rule 3: each side throws 2d6, the higher moves and fires first, ties again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.events import DieRolled, WindChanged

from .scenario import COMPASS, COMPASS_NAMES, tables

if TYPE_CHECKING:
    from .state import NavalState

CALM, LIGHT, MEDIUM, STRONG = 0, 1, 2, 3
STRENGTHS = ("calm", "light airs", "medium", "strong")
SETUP_TIMES = [int(t[:2]) * 60 for t in tables()["setup"]["times"]]
SETUP_WINDS = [COMPASS[w] for w in tables()["setup"]["winds"]]

# Initiative: the two sides' 2d6 totals as one chance outcome ("roll 7 9"), ties thrown again.
_TWO_DICE = {total: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == total) / 36 for total in range(2, 13)}
INITIATIVE_OUTCOMES = tuple(((a, b), _TWO_DICE[a] * _TWO_DICE[b]) for a in range(2, 13) for b in range(2, 13))
WIND_OUTCOMES = tuple(((red, black), 1 / 36) for red in range(1, 7) for black in range(1, 7))


def wind_name(direction: int) -> str:
    return COMPASS_NAMES.get(direction % 360, f"{direction}")


def describe(state: NavalState) -> str:
    return f"{STRENGTHS[state.strength]} from the {wind_name(state.wind)}"


def announce(state: NavalState) -> None:
    state.emit(WindChanged(wind_name(state.wind), STRENGTHS[state.strength]))


# --- setup -------------------------------------------------------------------------------------
def setup_time(state: NavalState, value: int) -> None:
    state.emit(DieRolled("time of start", value))
    if value == 6 and not state.scenario.option("keep-nine-pm"):
        state.push_roll("time")  # seed: a 6 for time may be ignored (thrown again)
        return
    state.clock = SETUP_TIMES[value - 1]


def setup_wind(state: NavalState, value: int, second: bool = False) -> None:
    """The prevailing-wind die; `second`: the re-throw after a 5 meant no prevailing wind."""
    state.emit(DieRolled("first wind direction" if second else "prevailing wind", value))
    if value <= 4:
        state.wind = SETUP_WINDS[value - 1]
        if not second:
            state.prevailing = state.wind
        announce(state)
        return
    if second:
        if value == 5:  # a 5 this time means calm; its hypothetical direction is thrown at once
            state.strength = CALM
            state.push_roll("calm-direction")
        else:
            state.push_roll("first-wind")
        return
    if value == 5 and state.scenario.option("no-prevailing-wind"):
        state.prevailing = None
        state.push_roll("first-wind")
        return
    state.push_roll("prevailing")


def calm_direction(state: NavalState, value: int) -> None:
    state.emit(DieRolled("direction of the coming wind", value))
    if value > 4:
        state.push_roll("calm-direction")
        return
    state.wind = SETUP_WINDS[value - 1]
    announce(state)


# --- rule 1: the wind each move ------------------------------------------------------------------
def wind_dice(state: NavalState, red: int, black: int) -> None:
    state.emit(DieRolled("wind direction (red)", red))
    state.emit(DieRolled("wind strength (black)", black))
    state.was_calm = state.strength == CALM
    if state.strength == CALM and black >= 4:
        change_strength(state, +1)  # in a calm a first-throw 4-6 is enough
        black = 0
    if red == 6:
        state.push_roll("wind-red")
    if black == 6:
        state.push_roll("wind-black")
    state.push_do("wind-settled")


def rotate(state: NavalState, value: int) -> None:
    """The red die thrown again: the wind turns 45 degrees (rule 1, rulings on the lost ranges)."""
    state.emit(DieRolled("wind direction again (red)", value))
    prevailing = state.prevailing
    wind = state.wind
    if prevailing is None:
        if value <= 2:
            state.wind = (wind - 45) % 360
        elif value <= 4:
            state.wind = (wind + 45) % 360
        return  # with no prevailing wind a 5 or 6 changes nothing
    at_prevailing = wind == prevailing
    toward = value in (3, 4, 6)
    if value in (5, 6) and at_prevailing:
        return
    if at_prevailing:
        state.wind = (wind + (45 if toward else -45)) % 360
        return
    offset = plane.signed_turn(prevailing, wind)  # where the wind stands from the prevailing one
    if abs(offset) == 180:
        if toward:
            state.wind = (wind + 45) % 360  # exactly opposite: "toward" turns clockwise, "away" leaves it
        return
    step = -45 if offset > 0 else 45  # toward the prevailing wind
    state.wind = (wind + (step if toward else -step)) % 360


def change_strength(state: NavalState, step: int) -> None:
    state.strength = max(CALM, min(STRONG, state.strength + step))


def strength_die(state: NavalState, value: int) -> None:
    state.emit(DieRolled("wind strength again (black)", value))
    change_strength(state, -1 if value <= 3 else +1)


def settled(state: NavalState) -> None:
    """After the wind dice: count the moves of a calm and of light airs (rule 2, optional rule 1)."""
    state.calm_moves = state.calm_moves + 1 if state.strength == CALM else 0
    state.light_moves = state.light_moves + 1 if state.strength == LIGHT else 0
    announce(state)


def initiative(state: NavalState, first_total: int, second_total: int) -> None:
    names = state.players
    state.emit(DieRolled(f"initiative ({names[0]})", first_total))
    state.emit(DieRolled(f"initiative ({names[1]})", second_total))
    if first_total == second_total:
        state.push_roll("initiative")
        return
    state.first = 0 if first_total > second_total else 1


def drift_distance(strength: int) -> int:
    """A drift move in hundredths: Calm 0, Light Airs 1", Medium 1", Strong 2" (rulings)."""
    return round(tables()["wind"]["drift"][strength] * 100)


def wind_angle_limit(strength: int, masts_lost: int) -> int | None:
    """How close to the wind a ship may sail (rule 2): None where no run is made."""
    if strength == LIGHT:
        return 90 if masts_lost == 0 else None
    if strength in (MEDIUM, STRONG):
        return (45, 90, None)[masts_lost]
    return None
