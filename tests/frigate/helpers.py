"""Small battles built in code for the rule tests: ships where a test wants them, the wind fixed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quarterdeck import games
from quarterdeck.core.events import Event
from quarterdeck.core.hexes import HexDir, neighbour
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS
from quarterdeck.games.frigate.actions import Declare, EndDeclare, Hold, Order, Pass, Roll, Sail
from quarterdeck.games.frigate.scenario import scenario_from_data
from quarterdeck.games.frigate.state import FrigateState

GAME = games.get("frigate")


def ship(name: str, side: str, rating: int, hex_: str, facing: str, ma: int = 0, **extra: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "rating": rating, "hex": hex_, "facing": facing, "ma": ma, **extra}


def battle(*ships: dict[str, Any], wind: tuple[int, str | None] | None = (1, "moderate"),
           options: dict[str, Any] | None = None,
           turns: int = 10, squadrons: list[dict[str, Any]] | None = None, efficiency: str = "average",
           preservation: int = 20, seed: int = 0, fighting: tuple[str, ...] = (), crt: str = "II",
           objectives: list[dict[str, Any]] | None = None, home_edges: tuple[str, str] = ("south", "north"),
           tables: dict[str, Any] | None = None, sail: bool = True) -> FrigateState:
    """A battle past the fighting-sail choice, at the first Movement Declaration (without `wind`, at
    the first game-turn's wind dice); `tables`: a player's own tables, as read from a file; with
    `sail=False`, still at the fighting-sail choice."""
    data = {
        "title": "Test", "briefing": "A position for a test.", "turns": turns,
        "wind": {"direction": wind[0], "velocity": wind[1]} if wind else {},
        "forces": [
            {"side": "blue", "name": "Blue", "efficiency": efficiency, "preservation": preservation,
             "home_edge": home_edges[0], "crt": crt},
            {"side": "red", "name": "Red", "efficiency": efficiency, "preservation": preservation,
             "home_edge": home_edges[1], "crt": crt},
        ],
        "ships": list(ships),
        "squadrons": squadrons or [],
        "objectives": objectives or [],
    }
    state = FrigateState.start(GAME, scenario_from_data(data, "test", options, tables), seed)
    for entry in ships if sail else ():
        side = 0 if entry["side"] == "blue" else 1
        state.apply(Sail(entry["name"], entry["name"] in fighting), side)
    return state


def declare(state: FrigateState, **mas: int) -> None:
    """Declare the ships' MAs (by name), each side in its turn (or both at once under SiMove)."""
    for _ in range(2):
        for name, ma in mas.items():
            ship = state.ships[name]
            acting = state.current_player()
            if not ship.declared and state.phase == "declare" and (acting in (SIMULTANEOUS, ship.owner)):
                state.apply(Declare(name, ma), ship.owner)
        for side in (0, 1):
            if state.phase == "declare" and EndDeclare() in state.legal_actions(side):
                state.apply(EndDeclare(), side)


def to_movement(state: FrigateState, order: tuple[int, int, int, int] = (0, 0, 0, 0), **mas: int) -> FrigateState:
    """Declare, win the initiative for blue, choose the order, hold the opening fire windows."""
    declare(state, **mas)
    while state.current_player() == CHANCE and state.rolls[0][0] != "initiative":
        state.apply(Roll((6,)))  # Command Control passes only on low rolls: tests roll what they need
    state.apply(Roll((6, 1)))
    state.apply(Order(order), 0)
    hold_windows(state)
    return state


def hold_windows(state: FrigateState, passing: bool = False) -> list[Event]:
    """Hold (or pass) every fire window open now; returns the events on the way."""
    events: list[Event] = []
    while state.windows:
        name = state.windows[0]
        events += state.apply((Pass if passing else Hold)(name), state.ships[name].owner)
    return events


def hold_to_segment_end(state: FrigateState) -> list[Event]:
    """Hold every fire window to the end of the present segment; returns the events on the way, the
    segment's damage landing among them."""
    segment, events = state.segment, []
    while state.windows and state.segment == segment:
        name = state.windows[0]
        events += state.apply(Hold(name), state.ships[name].owner)
    return events


def duel(a: dict[str, Any], b: dict[str, Any], **kw: Any) -> FrigateState:
    return battle(a, b, **kw)


def to_windows(state: FrigateState, **mas: int) -> FrigateState:
    """Declare, win the initiative for blue (blue first in every segment), stop at the first fire window."""
    declare(state, **mas)
    state.apply(Roll((6, 1)))
    state.apply(Order((0, 0, 0, 0)), 0)
    return state


def near(state: FrigateState, name: str, *steps: str) -> str:
    """The hex reached from ship `name`'s hex by the given directions (N, NE, ...)."""
    h = state.ships[name].hex
    for step in steps:
        h = neighbour(h, HexDir[step])
    return state.grid.name(h)


def quiet_turn(state: FrigateState, face: int = 4) -> list[Event]:
    """Play on to the next Movement Declaration (leaving the present one first): every die shows
    `face` (initiative 6-1 for blue), every window holds fire, every ship declares the least it may
    and takes the first legal point. Returns the events seen on the way."""
    start, declaring = state.turn, state.phase == "declare"
    return play_quietly(state, lambda s: s.phase == "declare" and (s.turn != start or not declaring), face)


def to_next_wind(state: FrigateState, face: int = 4) -> None:
    """Play on quietly (as `quiet_turn`) until the next game-turn's wind dice are due."""
    start = state.turn
    play_quietly(state, lambda s: s.turn != start and bool(s.rolls) and s.rolls[0][0].startswith("wind"), face)


def play_quietly(state: FrigateState, done: Callable[[FrigateState], bool], face: int = 4) -> list[Event]:
    events: list[Event] = []
    while not state.is_terminal() and not done(state):
        player = state.current_player()
        if player == CHANCE:
            dice = state.rolls[0][2]
            events += state.apply(Roll((6, 1) if dice == 2 else (face,)))
            continue
        seat = state.acting_players()[0]
        actions = state.legal_actions(seat)
        pick = next((a for a in actions if isinstance(a, Hold)), None)
        pick = pick or next((a for a in actions if isinstance(a, Declare | Order | EndDeclare)), None)
        events += state.apply(pick or actions[0], seat)
    return events
