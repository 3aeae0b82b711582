"""Builders for Napoleonic Chess test positions."""

from __future__ import annotations

from typing import Any

from quarterdeck.core.events import Event
from quarterdeck.games.napoleonic_chess import NapoleonicChess
from quarterdeck.games.napoleonic_chess.scenario import parse_scenario
from quarterdeck.games.napoleonic_chess.state import NapoleonicState

GAME = NapoleonicChess()
RED, BLACK = 0, 1
# Both Guards out of the way in opposite corners, for positions about something else.
GUARDS = {"a1": "red guards", "h8": "black guards"}


def scenario_data(layout: dict[str, str], **settings: Any) -> dict[str, Any]:
    """A fixed-deployment scenario table; `layout` maps squares to "army type"; settings override."""
    data: dict[str, Any] = {
        "title": "Test",
        "briefing": "A test position.",
        "width": 8,
        "height": 8,
        "armies": [{"name": "red", "zone": ["a2:h3"]}, {"name": "black", "zone": ["a6:h7"]}],
        "units": [
            {"army": spec.split()[0], "type": spec.split()[1], "square": square} for square, spec in layout.items()
        ],
    }
    data.update(settings)
    return data


def battle(layout: dict[str, str], options: dict[str, Any] | None = None, **settings: Any) -> NapoleonicState:
    """A battle from a position, Red to move unless `turn_order` says otherwise."""
    return NapoleonicState.start(GAME, parse_scenario(scenario_data(layout, **settings), "test", options))


def play(state: NapoleonicState, *texts: str, player: int | None = None) -> list[Event]:
    """Apply actions given in notation; returns all their events."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(state.parse_action(text), player)
    return events


def legal_texts(state: NapoleonicState, player: int | None = None) -> list[str]:
    return [state.action_to_text(action) for action in state.legal_actions(player)]


def events_of(events: list[Event], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]
