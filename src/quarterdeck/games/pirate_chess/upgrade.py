"""Harbour upgrades (seed 004, "How to UPGRADE").

The book: "The player moves a ship in to the harbour (the centre four squares) and anchors. In a
later turn the player places a second ship on top of the first ship, and the GAME will invite the
player to choose an upgrade to either a FRIGATE or a PIRATE. The pieces that made the upgrade are
eliminated from the game." and "A total of 2 x FRIGATE upgrades and 2 x PIRATE upgrades are
available to each player." Rulings (shared/design/rules-decisions.md, "Pirate Chess"): the second
ship is moved or placed onto the first; the new Frigate lies at anchor, a new Pirate cannot. Ours:
a ship anchored by this turn's anchor action is no base until the next turn. The upgrade is the
turn's fleet action: a `Move` or `Place` whose `upgrade` names the new type. The functions take the
state and are called from movement.py and state.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.events import Anchored, Event, Upgraded
from .scenario import SHIP_TYPES, UPGRADE_KINDS, UPGRADE_LIMIT

if TYPE_CHECKING:
    from .state import PirateChessState


def upgrade_bases(state: PirateChessState, p: int) -> set[int]:
    """Harbour squares where an own ship lies at anchor since an earlier turn."""
    harbour = state.geometry.harbour
    return {
        ship.square
        for ship_id, ship in state.ships[p].items()
        if ship.anchored and ship.square in harbour and ship_id != state.anchored_now
    }


def upgrade_kinds_left(state: PirateChessState, p: int) -> list[str]:
    return [kind for kind, used in state.upgrades[p].items() if used < UPGRADE_LIMIT]


def check_join(state: PirateChessState, p: int, base_id: str, into: str) -> None:
    """Whether a ship may join `base_id` of fleet `p` to make a new `into`."""
    base = state.ships[p][base_id]
    if into not in UPGRADE_KINDS:
        raise IllegalAction("harbour-upgrade", f"an upgrade makes a {' or a '.join(UPGRADE_KINDS)}")
    if base.square not in state.geometry.harbour:
        raise IllegalAction(
            "harbour-upgrade", "ships join for an upgrade only in the harbour (the centre four squares)"
        )
    if not base.anchored:
        raise IllegalAction("harbour-upgrade", f"{base_id} must lie at anchor in the harbour to be joined")
    if base_id == state.anchored_now:
        raise IllegalAction("harbour-upgrade", f"{base_id} anchored this turn; it can be joined in a later turn")
    if state.upgrades[p][into] >= UPGRADE_LIMIT:
        raise IllegalAction("upgrade-limit", f"{state.players[p]} has used both {into} upgrades")


def join(state: PirateChessState, p: int, ship_id: str, square: int, into: str, events: list[Event]) -> None:
    """The joining and the anchored ship leave; a new Frigate or Pirate stands there."""
    base_id = state.board[square][1]
    state.retire(p, base_id)
    state.retire(p, ship_id)
    anchored = SHIP_TYPES[into].anchors  # a new Frigate lies at anchor, a new Pirate cannot
    new_id = state.commission(p, into, square, anchored)
    # the per-fleet counts are shared by clones, so they are replaced, never changed in place
    state.upgrades = tuple(
        {**used, into: used[into] + 1} if fleet == p else used for fleet, used in enumerate(state.upgrades)
    )
    where = state.square_name(square)
    events.append(
        Upgraded((state.ship_name(p, base_id), state.ship_name(p, ship_id)), where, state.ship_name(p, new_id))
    )
    if anchored:
        events.append(Anchored(state.ship_name(p, new_id), where, True))
