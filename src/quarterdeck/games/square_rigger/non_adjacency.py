"""The non-adjacency rule (seed 000, "The Non-Adjacency Rule").

Ships of one side must end their move with at least one empty square between them, orthogonally
or diagonally; the rule does not apply inside harbours, and struck ships do not count. It is
checked when a squadron commits its movement, over the whole side (rules-decisions.md, "Movement").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.geometry import Square
from .scenario import HARBOUR

if TYPE_CHECKING:
    from .state import SquareRiggerState


def guard(state: SquareRiggerState, name: str, strict: bool) -> dict[Square, str]:
    """Squares where `name` would touch a same-side ship: square -> ship.

    Struck ships do not count, nor two harbour squares. `strict` guards every active friend where
    she stands now; otherwise friends of the same squadron that have not moved yet are left out
    (they may still sail off; other squadrons' ships are fixed for this commander, having committed
    their movement or waiting for their own commander's turn).
    """
    side = state.setup.ships[name].side
    terrain = state.setup.terrain
    width, height = state.setup.grid.width, state.setup.grid.height
    guarded: dict[Square, str] = {}
    for other, info in state.setup.ships.items():
        if other == name or info.side != side or not state.is_active(other):
            continue
        if not strict and other not in state.moved and info.squadron == state.setup.ships[name].squadron:
            continue  # a friend of this squadron that has not moved yet may still sail away
        ox, oy = state.square[other]
        in_harbour = terrain[oy][ox] == HARBOUR
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                x, y = ox + dx, oy + dy
                if (dx or dy) and 0 <= x < width and 0 <= y < height:
                    if not (in_harbour and terrain[y][x] == HARBOUR):
                        guarded.setdefault((x, y), other)
    return guarded


def violation(state: SquareRiggerState, side: str) -> tuple[str, str] | None:
    """Two active ships of `side` on touching squares (outside harbour), if any.

    Checked when a squadron commits its movement, over the whole side: its own ships where they
    ended, and the other squadrons' ships where they stand.
    """
    ships = [n for n, info in state.setup.ships.items() if info.side == side and state.is_active(n)]
    terrain = state.setup.terrain
    for i, a in enumerate(ships):
        ax, ay = state.square[a]
        for b in ships[i + 1 :]:
            bx, by = state.square[b]
            if max(abs(ax - bx), abs(ay - by)) == 1 and not (terrain[ay][ax] == HARBOUR == terrain[by][bx]):
                return a, b
    return None


def validate(state: SquareRiggerState, side: str) -> None:
    """Refuse `end-move` while two ships of the side would end it on touching squares."""
    found = violation(state, side)
    if found is not None:
        a, b = found
        grid = state.setup.grid
        raise IllegalAction(
            "non-adjacency",
            f"{a} ({grid.name(state.square[a])}) and {b} ({grid.name(state.square[b])}) would end the move "
            "on touching squares",
        )
