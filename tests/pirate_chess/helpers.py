"""Small helpers shared by the Pirate Chess tests."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Event
from quarterdeck.games import get
from quarterdeck.games.pirate_chess.actions import Move
from quarterdeck.games.pirate_chess.state import PirateChessState

GAME = get("pirate-chess")


def new_game(**options) -> PirateChessState:
    return GAME.new_initial_state("standard", options)


def layout(ships: dict[str, str], **kwargs) -> PirateChessState:
    return GAME.layout(ships, **kwargs)


def play(state: PirateChessState, *texts: str) -> list[Event]:
    """Apply actions written in notation, with full validation; returns all their events."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(state.parse_action(text))
    return events


def legal(state: PirateChessState, piece: str | None = None) -> set[str]:
    return {state.action_to_text(a) for a in state.legal_actions(piece=piece)}


def targets(state: PirateChessState, ship: str) -> set[str]:
    """Squares the ship of the player to move can sail to now."""
    return {state.square_name(a.destination) for a in state.legal_actions(piece=ship) if isinstance(a, Move)}


def refused(state: PirateChessState, text: str) -> str:
    """The rule an illegal action breaks; also checks the state did not change."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        play(state, text)
    assert state.to_json() == before
    return error.value.rule


def to_move(state: PirateChessState) -> str:
    return state.players[state.current_player()]


def square_of(state: PirateChessState, player: str, ship: str) -> str | None:
    found = state.ships[state.players.index(player)].get(ship)
    return None if found is None or found.square < 0 else state.square_name(found.square)


# Three opening placements each: every ship anchored except Blue's Pirate.
OPENING = (
    "place Frigate a1",
    "place Frigate h8",
    "place Junk d4",
    "place Junk e5",
    "place Pirate c2",
    "place Barque f7",
)


def after_opening() -> PirateChessState:
    state = new_game()
    play(state, *OPENING)
    return state
