"""Positions for the Naval Warfare tests: a small table, ships where a test wants them, and the dice
thrown by hand so that every roll is the one the test names."""

from __future__ import annotations

from typing import Any

from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.naval_warfare import NavalWarfare
from quarterdeck.games.naval_warfare.actions import END_MOVE, Roll
from quarterdeck.games.naval_warfare.scenario import parse_scenario
from quarterdeck.games.naval_warfare.state import NavalState

GAME = NavalWarfare()


def ship(name: str, side: str, x: float, y: float, heading: int, **data: Any) -> dict[str, Any]:
    entry = {"name": name, "side": side, "at": [x, y], "heading": heading}
    if "type" not in data and "class" not in data and "armament" not in data:
        data = {"type": "Revenge", **data}
    entry.update(data)
    return entry


def position(
    ships: list[dict],
    *,
    wind: str = "N",
    strength: str = "medium",
    options: dict | None = None,
    period: str = "armada",
    land: list | None = None,
    time: str = "12:00",
    prevailing: str | None = None,
    seed: int = 0,
    victory: dict | None = None,
) -> NavalState:
    data = {
        "title": "test",
        "briefing": "a test position",
        "period": period,
        "table": [72, 36],
        "sides": ["english", "spanish"],
        "time": time,
        "prevailing": prevailing or wind,
        "wind": wind,
        "strength": strength,
        "options": options or {},
        "ships": ships,
        "land": land or [],
        "victory": victory or {},
    }
    return NavalState.start(GAME, parse_scenario("test", data), seed)


def roll(state: NavalState, *values: int) -> list:
    assert state.current_player() == CHANCE, state.agenda[:2]
    return state.apply(Roll(tuple(values)))


def due(state: NavalState) -> tuple:
    return state.agenda[0][:2] if state.agenda else ()


def start_move(state: NavalState, first: int = 0, wind: tuple[int, int] = (2, 2)) -> list:
    """Throw a quiet wind (no sixes) and give the initiative to `first`; the events they bring (the
    drift, the start-of-move throws the position calls for)."""
    return roll(state, *wind) + roll(state, *((9, 4) if first == 0 else (4, 9)))


def to_movement(state: NavalState, first: int = 0, wind: tuple[int, int] = (2, 2)) -> NavalState:
    """`start_move`, for a test that wants the state: it stops at the first decision or any
    start-of-move roll."""
    start_move(state, first, wind)
    return state


def distant_enemy() -> dict[str, Any]:
    """San Martin far off to the south-east: a side to play against, out of every test's way."""
    return ship("San Martin", "spanish", 60, 30, 270, type="San Martin")


def play(state: NavalState, text: str, player: int | None = None) -> list:
    return state.apply(state.parse_action(text, player), player)


def passive(state: NavalState):
    """The choice that leaves things be: ending the move where it is offered, else the last offered
    (holding fire, keeping grapples, refusing)."""
    actions = state.legal_actions()
    return END_MOVE if END_MOVE in actions else actions[-1]


def rolls_until_decision(state: NavalState, value: int = 3) -> None:
    """Answer every die with `value` (initiative and wind dice included) until someone must decide."""
    while state.current_player() == CHANCE:
        purpose = state.agenda[0][1]
        if purpose in ("wind", "initiative"):
            roll(state, *((2, 2) if purpose == "wind" else (9, 4)))
        else:
            roll(state, value)


def boarded(options: dict | None = None, crew: int | None = None) -> NavalState:
    """Revenge runs 1" to come alongside San Martin, boards her and grapples (a 4): what follows the
    grapple is due. `crew` sets both crews first."""
    ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
    state = to_movement(position(ships, options=options))
    if crew is not None:
        state.ships["Revenge"].crew = state.ships["San Martin"].crew = crew
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)
    return state


def secured(prize_crew: int, captives: int = 100, options: dict | None = None) -> NavalState:
    """Shannon has secured Chesapeake: `prize_crew` of her men aboard, `captives` prisoners; the British
    to move. Essex, beside Chesapeake, fights on for the other side. The prizes rule is on, with any
    other `options`."""
    frigate = {"class": "38 frigate"}
    ships = [
        ship("Shannon", "english", 30, 30, 90, **frigate),
        ship("Chesapeake", "spanish", 12.5, 10.6, 90, **frigate),
        ship("Essex", "spanish", 9, 10.6, 90, **frigate),
    ]
    state = to_movement(position(ships, period="nelson", options={"prizes": True, **(options or {})}, wind="W"))
    chesapeake = state.ships["Chesapeake"]
    chesapeake.status, chesapeake.captor = "prize", 0
    chesapeake.crew, chesapeake.prisoners, chesapeake.prize_crew = prize_crew, captives, prize_crew
    state._cand = {}
    return state
