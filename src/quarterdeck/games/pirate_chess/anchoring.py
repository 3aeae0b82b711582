"""Anchoring and weighing anchor (seed 004, "How to ANCHOR").

The book: "7 of those are able to anchor which makes them SAFE from all ships when they are
anchored, except the PIRATE which cannot anchor", "Ships that are anchored also cannot move, so have
to be un-anchored first before they can move" and "Each turn normally consists of two actions;
placing (or moving) a ship, and an anchoring or un-anchoring for the same, or a different ship, in
any order." Ruling (shared/design/rules-decisions.md, "Pirate Chess"): the fleet action is required
while one is legal, so an anchor action taken first may not take the last one away. The safety of
anchored ships is checked where attacks are (movement.py). The functions take the state and are
called from state.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.events import Anchored, Event
from ...core.protocol import Action
from .actions import Anchor
from .movement import moves
from .scenario import RESERVE, SHIP_TYPES
from .upgrade import upgrade_bases

if TYPE_CHECKING:
    from .state import PirateChessState


def anchor_actions(state: PirateChessState, p: int, fleet_actions: list[Action]) -> list[Action]:
    """The anchor actions of fleet `p`, given the fleet actions it has now."""
    actions = [
        Anchor(ship_id, not ship.anchored)
        for ship_id, ship in state.ships[p].items()
        if ship.square != RESERVE and SHIP_TYPES[ship.kind].anchors
    ]
    if state.fleet_done or not fleet_actions or state.reserve(p):
        return actions  # nothing required, or a placement that no anchoring can take away
    movers = {a.ship for a in fleet_actions}
    return [a for a in actions if keeps_a_fleet_action(state, p, a, movers)]


def keeps_a_fleet_action(state: PirateChessState, p: int, anchor: Anchor, movers: set[str]) -> bool:
    """Whether a move stays legal after `anchor`, taken before this turn's fleet action.

    The fleet action is required while one is legal, so an anchor action may not remove the
    last one. Called when the reserve is empty and `movers` (the ships with a move) is not.
    """
    if anchor.anchored:
        # an anchored ship cannot move; anchored this turn, it is no upgrade base yet either
        return bool(movers - {anchor.ship})
    ship = state.ships[p][anchor.ship]
    if ship.square not in upgrade_bases(state, p):
        return True  # weighing frees one more ship and takes nothing from the others
    state.ships[p][anchor.ship] = ship._replace(anchored=False)  # a trial, undone at once
    remaining: list[Action] = []
    moves(state, p, remaining)
    state.ships[p][anchor.ship] = ship
    return bool(remaining)


def has_anchor_action(state: PirateChessState, p: int) -> bool:
    return any(ship.square != RESERVE and SHIP_TYPES[ship.kind].anchors for ship in state.ships[p].values())


def check_anchor(state: PirateChessState, p: int, action: Anchor) -> None:
    """The ship and whether it may anchor or weigh now; the turn's own checks come first (state.py)."""
    ship = state.own_ship_on_board(p, action.ship)
    if not SHIP_TYPES[ship.kind].anchors:
        raise IllegalAction("pirate-never-anchors", f"a {ship.kind} can never anchor")
    if ship.anchored == action.anchored:
        rule, where = ("already-anchored", "at anchor") if ship.anchored else ("not-anchored", "under way")
        raise IllegalAction(rule, f"{action.ship} is already {where}")
    if not state.fleet_done and not state.reserve(p):
        found: list[Action] = []
        moves(state, p, found)
        if found and not keeps_a_fleet_action(state, p, action, {a.ship for a in found}):
            raise IllegalAction(
                "fleet-action-required",
                "that would leave no ship to move, and a fleet action is required",
            )


def anchor(state: PirateChessState, p: int, action: Anchor) -> list[Event]:
    """Let go or weigh the anchor of a checked ship."""
    ship = state.ships[p][action.ship]
    state.set_ship(p, action.ship, ship._replace(anchored=action.anchored))
    state.anchor_done = True
    if action.anchored:
        state.anchored_now = action.ship
    return [Anchored(state.ship_name(p, action.ship), state.square_name(ship.square), action.anchored)]
