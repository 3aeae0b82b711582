"""Small positions for rule tests: a scenario built in a line or two."""

from __future__ import annotations

from typing import Any

from quarterdeck import games
from quarterdeck.games.square_rigger.state import SquareRiggerState

GAME = games.get("square-rigger")


def position(
    ships: list[tuple],
    *,
    board: str | None = None,
    size: tuple[int, int] = (10, 10),
    wind: str | dict[str, Any] = "N",
    strength: str = "moderate",
    batteries: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> SquareRiggerState:
    """ships: (name, side, class, square, heading[, {more fields}]) tuples."""
    width, height = size
    data: dict[str, Any] = {
        "name": "test",
        "title": "test position",
        "briefing": "a position for a rule test",
        "board": board or "\n".join("." * width for _ in range(height)),
        "wind": wind if isinstance(wind, dict) else {"from": wind, "strength": strength},
        "ships": [],
        **extra,
    }
    for ship in ships:
        name, side, ship_class, at, heading, *more = ship
        entry = {"name": name, "side": side, "class": ship_class, "at": at, "heading": heading}
        if more:
            entry.update(more[0])
        data["ships"].append(entry)
    if batteries:
        data["batteries"] = batteries
    return GAME.state_from_setup(data, options)


def play(state: SquareRiggerState, *texts: str) -> list:
    """Apply actions given in notation; returns all their events."""
    events = []
    for text in texts:
        events.extend(state.apply(state.text_to_action(text)))
    return events


def ends(state: SquareRiggerState, ship: str) -> set[tuple[str, str]]:
    """Legal end positions of a ship as (square, heading) names (staying put included)."""
    reach, _ = state.reachable(ship)
    return {(state.setup.grid.name(sq), h.name) for sq, h in reach}
