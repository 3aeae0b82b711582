"""Victory and the end of the game (seed 000, "General notes on scenarios and tactics": fleet battles,
convoy interception, chases, blockades and breakouts).

The book leaves winning to the scenario; by decision (rules-decisions.md, "Victory") a scenario
lists conditions (all enemy warships struck; so many ships of given roles or classes struck or
escaped), a turn limit decided on points (the value of the enemy pieces struck) or as a draw or for
a named side, and a position repeated three times with the same side to move is a draw. A side
with nothing left in the fight loses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.errors import ScenarioError
from ...core.events import Event, GameOver
from ...core.protocol import Outcome

if TYPE_CHECKING:
    from .scenario import ShipInfo
    from .state import SquareRiggerState

ROLES = ("warship", "merchant", "transport")


@dataclass(frozen=True)
class Victory:
    type: str
    side: str
    count: int | None
    roles: frozenset[str]
    classes: frozenset[str]
    ships: frozenset[str]

    def matches(self, ship: ShipInfo) -> bool:
        return (
            (not self.roles or ship.role in self.roles)
            and (not self.classes or ship.ship_class in self.classes)
            and (not self.ships or ship.name in self.ships)
        )


# --- the scenario's conditions ------------------------------------------------------------------
def conditions(specs: Iterable[Any], sides: list[str], classes: Iterable[str],
               ships: dict[str, ShipInfo]) -> tuple[Victory, ...]:
    """Check a scenario's victory entries (``victory[i]``) and build the conditions. Raises ScenarioError."""
    result = []
    for index, v in enumerate(specs):
        where = f"victory[{index}]"
        if v.side not in sides:
            raise ScenarioError(f"{where}.side", f"unknown side {v.side!r}")
        if v.type != "annihilation" and v.count is None:
            raise ScenarioError(f"{where}.count", f"a {v.type} condition needs a count")
        for role in v.roles:
            if role not in ROLES:
                raise ScenarioError(f"{where}.roles", f"a role is one of {', '.join(ROLES)}")
        for name in v.classes:
            if name not in classes:
                raise ScenarioError(f"{where}.classes", f"unknown class {name!r}")
        for name in v.ships:
            if name not in ships:
                raise ScenarioError(f"{where}.ships", f"no ship called {name!r}")
        condition = Victory(v.type, v.side, v.count, frozenset(v.roles), frozenset(v.classes), frozenset(v.ships))
        _check_reachable(where, condition, ships)
        result.append(condition)
    return tuple(result)


def _check_reachable(where: str, condition: Victory, ships: dict[str, ShipInfo]) -> None:
    """Reject a condition no play could ever meet."""
    if condition.type == "annihilation":
        return
    if condition.type == "strike":
        candidates = [s for s in ships.values() if s.side != condition.side and condition.matches(s)]
        if any(ships[name].side == condition.side for name in condition.ships):
            raise ScenarioError(f"{where}.ships", "a strike condition names the side's own ship")
    else:
        candidates = [s for s in ships.values() if s.side == condition.side and condition.matches(s)]
        if not any(s.exits for s in candidates):
            raise ScenarioError(f"{where}.side", f"no ship of {condition.side} that counts here has an exit edge")
    if condition.count is not None and condition.count > len(candidates):
        raise ScenarioError(f"{where}.count", f"only {len(candidates)} ships could count towards it")


# --- in play ------------------------------------------------------------------------------------
def lost(state: SquareRiggerState, side: str) -> int:
    """Value of `side`'s own ships struck and batteries silenced."""
    total = 0
    for name in state.pieces(side):
        info = state.setup.ships.get(name) or state.setup.batteries[name]
        if state.is_struck(name):
            total += info.value
    return total


def points(state: SquareRiggerState, side: str) -> int:
    """Value of the enemy ships struck and batteries silenced by `side`."""
    return sum(lost(state, other) for other in state.setup.sides if other != side)


def condition_met(state: SquareRiggerState, condition: Victory) -> bool:
    ships = state.setup.ships.values()
    enemies = [s for s in ships if s.side != condition.side]
    if condition.type == "annihilation":
        warships = [s for s in enemies if s.armed]
        return bool(warships) and all(state.is_struck(s.name) for s in warships)
    if condition.type == "strike":
        return sum(1 for s in enemies if condition.matches(s) and state.is_struck(s.name)) >= condition.count
    own = [s for s in ships if s.side == condition.side]
    return sum(1 for s in own if condition.matches(s) and s.name in state.escaped) >= condition.count


def check(state: SquareRiggerState) -> list[Event]:
    """After resolution: a side that met its conditions wins; a side alone in the fight wins."""
    winners = sorted({c.side for c in state.setup.victory if condition_met(state, c)})
    if len(winners) == 1:
        return finish(state, winners[0], f"{winners[0]} has met its victory condition")
    if len(winners) > 1:
        return finish(state, None, "both sides met their victory conditions together")
    fighting = [side for side in state.setup.sides if any(state.is_active(n) for n in state.pieces(side))]
    if len(fighting) == 1:
        return finish(state, fighting[0], f"{fighting[0]} is the only side left in the fight")
    if not fighting:
        return at_turn_limit(state, "no side has a ship or battery left in the fight")
    return []


def repetition(state: SquareRiggerState) -> list[Event]:
    """Count the position at the start of a side's turn; the third time it is a draw."""
    key = state.repetition_key()
    state.seen[key] = state.seen.get(key, 0) + 1
    if state.seen[key] >= 3:
        return finish(state, None, "the same position arose three times with the same side to move")
    return []


def at_turn_limit(state: SquareRiggerState, why: str | None = None) -> list[Event]:
    """The end without a decision in the fight: as the scenario's `at_limit` says."""
    why = why or f"the turn limit ({state.setup.turn_limit}) is reached"
    rule = state.setup.at_limit
    if rule == "draw":
        return finish(state, None, why)
    if rule != "points":
        return finish(state, rule, f"{why}; the scenario awards it to {rule}")
    scores = {side: points(state, side) for side in state.setup.sides}
    best = max(scores.values())
    leaders = [side for side, score in scores.items() if score == best]
    detail = ", ".join(f"{side} {score}" for side, score in scores.items())
    if len(leaders) > 1:
        return finish(state, None, f"{why}; points level ({detail})")
    return finish(state, leaders[0], f"{why}; on points ({detail})")


def finish(state: SquareRiggerState, winner: str | None, reason: str) -> list[Event]:
    returns = tuple(
        0.0 if winner is None else (1.0 if state.team_of(seat) == winner else -1.0)
        for seat in range(len(state.setup.seats))
    )
    state.outcome = Outcome(returns, winner or "draw", reason)
    return [GameOver(state.outcome.result, reason)]
